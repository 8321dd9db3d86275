"""The banker's hands on the command line: keys, held keys, cards, a new game, the volume.

Each prints what the unit shows after it; a refusal the unit reports (STATE's `error`) is
exit code 1.
"""

import json

from .errors import EXIT_OK, CommandError, Failed
from .out import card_label, display, money, names_of, say

HOLD_MS = 3000  # the unit's hold for a new game (B11) and for maintenance mode


def _report_state(state):
    """Print the display after a keypad action; a refusal the unit reports is exit code 1."""
    say(display(state))
    if state.get("error"):
        raise Failed("the unit refused it: %s" % state["error"])
    return EXIT_OK


def cmd_press(bank, args):
    if not args.no_wake:
        bank.wake()
    return _report_state(bank.press(*args.keys))


KEYPAD_ONLY = (
    "maintenance mode is entered on the unit's own keypad (hold DEAL there for 3 seconds): "
    "a DEAL held over serial is only a DEAL press, and would start the deal timer (B13). "
    "To press DEAL, use `bank press DEAL`"
)


def cmd_hold(bank, args):
    if not args.no_wake:
        bank.wake()
    return _report_state(bank.hold(args.key, args.ms))


def cmd_insert(bank, args):
    state = bank.insert(args.slot, args.card)
    # B3: the unit shows the card's number for a second, then its balance; say both.
    balance = bank.balances().get(args.card)
    say("card %s in %s: balance %s" % (card_label(args.card, names_of(bank)), args.slot,
                                       money(balance)))
    return _report_state(state)


def cmd_remove(bank, args):
    return _report_state(bank.remove(args.slot))


def cmd_newgame(bank, args):
    bank.wake()
    bank.new_game()
    balances = bank.balances()
    if len(set(balances.values())) != 1:
        raise Failed("no new game: balances are %s" % json.dumps(balances))
    start = next(iter(balances.values()))
    say("new game: every account at %s" % money(start))
    return EXIT_OK


def set_sound(bank, level):
    """Volume by the keypad when it can be (B12: `.` with no card and no entry cycles
    2 -> 1 -> 0 -> 2), else by the SET SOUND extension."""
    state = bank.wake()
    slots = state.get("slots") or {}
    if state.get("sound") == level:
        return
    if not any(slots.values()) and not state.get("entry"):
        presses = (state.get("sound", 2) - level) % 3
        state = bank.press(*(["."] * presses))
    else:
        try:
            bank.set_sound(level)
        except CommandError as exc:
            if exc.code != "unknown-command":
                raise
            raise Failed(
                "cannot set the sound with a card inserted or an entry typed: take the cards "
                "out and clear the entry first"
            ) from None
        state = bank.state()
    if state.get("sound") != level:
        raise Failed("the sound is %s, not %s" % (state.get("sound"), level))
