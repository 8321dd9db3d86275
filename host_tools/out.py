"""What the command line prints: amounts, cards with their players' names, one line at a time."""

import sys
import unicodedata

from .errors import CommandError
from .rules import WORDS

# How many cards a unit has: firmware/brain/ledger.py's CARDS, copied because host_tools is
# installed without the firmware (pyproject.toml); tests/host/test_facts.py holds the two equal.
CARD_COUNT = 6
CARDS = tuple(str(c) for c in range(1, CARD_COUNT + 1))
VOLUMES = {0: "off", 1: "soft", 2: "loud"}


def integer(text):
    """A whole number argument in ASCII digits: int() takes every script's, so '١' (Arabic) or
    '１' (full width) would otherwise name card 1."""
    if not text.isascii():
        raise ValueError(text)
    return int(text)


def seconds(text):
    """A number of seconds (1.5 too) in ASCII digits: float() reads every script's as well."""
    if not text.isascii():
        raise ValueError(text)
    return float(text)


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


# Characters that would act on a terminal rather than show (escape sequences, a bell, a
# carriage return, line and paragraph separators, the marks that turn text around), and lone
# surrogates, which no terminal's UTF-8 can carry.
_BIDI = frozenset((0x061C, 0x200E, 0x200F)) | frozenset(range(0x202A, 0x202F)) | frozenset(
    range(0x2066, 0x206A))


def _acts(c):
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or ord(c) in _BIDI


def visible(text):
    """text with every such character made visible as its escape (ESC as `\\x1b`), so that
    whatever comes from the other end (HELLO's fields, names, the log, its errors) is shown,
    never obeyed; a name in any language stays as it is."""
    text = str(text)
    if not any(_acts(c) for c in text):
        return text
    return "".join(ascii(c)[1:-1] if _acts(c) else c for c in text)


def say(text=""):
    """One line of the result on stdout, its unit-given parts made visible."""
    print(visible(text), flush=True)


def card_label(card, names=None):
    """A card as shown: its number, and its player's name when the banker gave one."""
    if card is None or card in ("bank", "pot"):  # the pot: the Free Parking pot's (B22)
        return "-" if card is None else card
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
    """The display line of a state: `display 15.15 M`, `display (blank)` switched off."""
    return "display " + shown(state)


def shown(state):
    """What a state's display shows, its k and M after it, or (blank)."""
    disp = state.get("display") or {}
    annun = " ".join(a for a in ("k", "M") if disp.get(a))
    return ("%s %s" % (disp.get("text", ""), annun)).strip() or "(blank)"


def note(text):
    """A remark beside the output (stderr), as the port note is: stdout stays the result."""
    sys.stderr.write("bank: %s\n" % visible(text))
    sys.stderr.flush()


NO_GAME = "no-game"  # the unit's code for "no good copy of the game" (Err6, B17)


def balances_or_none(bank):
    """{card: balance}, or None from a unit with no good copy of the game to give them from
    (Err6: BALANCES is refused, no-game, and no balance is invented, B17)."""
    try:
        return bank.balances()
    except CommandError as exc:
        if exc.code != NO_GAME:
            raise
        return None


def no_game():
    """Err6 in words, the window's sentence, with its code for scripts."""
    said = "the unit has no good copy of the game" if WORDS is None else WORDS.explain(
        NO_GAME, lang="en")
    return "%s (%s)" % (said, NO_GAME)


def game_number(game):
    """The number a person knows a kept game by, as the window and the page list it (words.
    game_number); without the firmware's words, GAMES' own `number`."""
    return WORDS.game_number(game) if WORDS else game.get("number", game.get("id"))


def refusal(state, profile=None, balances=None, names=None, key=None):
    """STATE's `error` in words, with its code for scripts: `card 1 cannot pay 16 M: it has
    15 M (insufficient-funds)`, the very sentence the window says; None when the unit refused
    nothing. balances: {card: amount} when read (the overdraft's sentence names them); key: the
    last key pressed, which the refusal is about (a second `.` is not a sixth digit)."""
    code = state.get("error")
    if not code:
        return None
    if WORDS is None:
        return "the unit refused that (%s)" % code
    said = WORDS.state_refusal(state, profile, balances, names, "en", key)
    return "%s (%s)" % (said, code)
