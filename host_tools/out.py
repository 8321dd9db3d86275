"""What the command line prints: amounts, cards with their players' names, one line at a time."""

import os
import sys
import unicodedata

from .errors import CommandError

# How many cards a unit has: firmware/brain/ledger.py's CARDS, copied because host_tools is
# installed without the firmware (pyproject.toml); tests/host/test_facts.py holds the two equal.
CARD_COUNT = 6
CARDS = tuple(str(c) for c in range(1, CARD_COUNT + 1))
VOLUMES = {0: "off", 1: "soft", 2: "loud"}


def money(amount):
    if isinstance(amount, bool) or not isinstance(amount, int):
        return str(amount)
    return "{:,}".format(amount)


def width(text):
    """The columns text takes on a terminal: a wide character (an ideograph, "李") two, a
    combining mark none, as a name in any language may hold them."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def ljust(text, n):
    return text + " " * max(0, n - width(text))


def rjust(text, n):
    return " " * max(0, n - width(text)) + text


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


def _words():
    """The sentences the window, the terminal and the page say (firmware/desktop/words.py,
    with the entry limits of firmware/brain/profiles.py), from the firmware/ beside host_tools:
    the repo, which `make setup` installs host_tools from (editable), as `bank deploy` finds it.
    None when host_tools runs without it (then a refusal is said by its code alone)."""
    fw = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
    if not os.path.isfile(os.path.join(fw, "desktop", "words.py")):
        return None
    if fw not in sys.path:
        sys.path.append(fw)  # last: nothing of the user's is shadowed by the firmware's modules
    from desktop import words

    return words


WORDS = _words()


def game_number(game):
    """The number a person knows a kept game by, as the window and the page list it (words.
    game_number); without the firmware's words, GAMES' own `number`."""
    return WORDS.game_number(game) if WORDS else game.get("number", game.get("id"))


def refusal(state, profile=None, balances=None, names=None):
    """STATE's `error` in words, with its code for scripts: `card 1 cannot pay 16 M: it has
    15 M (insufficient-funds)`, the very sentence the window says; None when the unit refused
    nothing. balances: {card: amount} when read (the overdraft's sentence names them)."""
    code = state.get("error")
    if not code:
        return None
    if WORDS is None:
        return "the unit refused that (%s)" % code
    said = WORDS.state_refusal(state, profile, balances, names, "en")
    return "%s (%s)" % (said, code)
