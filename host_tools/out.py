"""What the command line prints: amounts, cards with their players' names, one line at a time."""

import sys

from .errors import CommandError

CARDS = ("1", "2", "3", "4", "5", "6")
VOLUMES = {0: "off", 1: "soft", 2: "loud"}


def money(amount):
    if isinstance(amount, bool) or not isinstance(amount, int):
        return str(amount)
    return "{:,}".format(amount)


def say(text=""):
    print(text, flush=True)


def card_label(card, names=None):
    """A card as shown: its number, and its player's name when the banker gave one."""
    if card is None or card == "bank":
        return "-" if card is None else "bank"
    name = (names or {}).get(card if isinstance(card, int) else int(card))
    return "%s %s" % (card, name) if name else str(card)


def names_of(bank):
    """The names the banker gave the cards, {} from a unit without NAMES."""
    try:
        return {c: n for c, n in bank.names().items() if n}
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
        return {}


def display(state):
    """The display line of a state: `display 15.15 M`."""
    disp = state.get("display") or {}
    annun = " ".join(a for a in ("k", "M") if disp.get(a))
    return ("display %s %s" % (disp.get("text", ""), annun)).rstrip()


def note(text):
    """A remark beside the output (stderr), as the port note is: stdout stays the result."""
    sys.stderr.write("bank: %s\n" % text)
    sys.stderr.flush()


# One entry's least and most, and the step amounts come in, per profile (B2, B15).
ENTRY_LIMITS = {"world": (10000, 20000000, 1000), "classic": (1, 99999, 1),
                "francs": (100, 1000000, 100)}


def refusal(state, profile=None):
    """STATE's `error` in words, with its code: `above the 20,000,000 maximum for one entry
    (above-maximum)`; None when the unit refused nothing. (The rule of each, for readers of
    this code, not for players: docs/rules.md.)"""
    code = state.get("error")
    if not code:
        return None
    least, most, step = ENTRY_LIMITS.get(profile, (None, None, None))
    payer = (state.get("slots") or {}).get("R")
    words = {
        "above-maximum": ("above the %s maximum for one entry" % money(most) if most
                          else "above the maximum for one entry", "B2"),
        "below-minimum": ("below the %s minimum for one entry" % money(least) if least
                          else "below the minimum for one entry", "B2"),
        "too-fine": ("finer than the unit counts (amounts in steps of %s)" % money(step)
                     if step else "finer than the unit counts", "B2"),
        "no-suffix": ("an amount needs K or M after its digits", "B2"),
        "no-amount": ("no amount typed", "B2"),
        "bad-entry": ("a key the entry cannot take (at most 5 digits, one '.', then one K or "
                      "M, nothing after it)", "B2"),
        "wrong-slot": ("the cards are not where that key needs them (+: one card, in L; "
                       "-: the payer's card in R)", "B7"),
        "insufficient-funds": ("card %s has not enough money for it" % payer if payer
                               else "not enough money for it", "B8"),
        "go-taken": ("Go was taken already on this insertion: take the card out and put it "
                     "back", "B9"),
        "store-failed": ("the unit could not save it to its flash, so nothing changed", "B17"),
        "store-damaged": ("the unit found its store damaged at boot and uses its last good "
                          "copy", "B17"),
    }.get(code)
    if words is None:
        return code
    return "%s (%s)" % (words[0], code)
