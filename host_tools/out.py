"""What the command line prints: amounts, cards with their players' names, one line at a time."""

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
