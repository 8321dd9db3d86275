"""The banker's hands on the command line: keys, held keys, cards, a new game, the volume.

Each prints what the unit shows after it; a refusal the unit reports (STATE's `error`) is
exit code 1.
"""

import json

from .errors import (EXIT_OK, BankError, CommandError, DisconnectedError, Failed, ProtocolError,
                     ReplyTimeout)
from .out import (VOLUMES, balances_or_none, card_label, display, money, names_of, no_game,
                  note, refusal, say)
from .rules import WORDS
from .wire import split_keys

HOLD_MS = 3000  # the unit's hold for a new game (B11) and for maintenance mode
ADDS_TO_ENTRY = frozenset("0123456789.KM")  # keys that, with an entry typed, add to it (B2)
MONEY_KEYS = frozenset(("+", "-", "M", "C"))  # a commit, Go (B9), an undo, a held new game


def _report_state(state, bank, key=None, unpressed=(), moves=(), before=None):
    """Print the display after a keypad action, and what it does not say: an undo, a
    bankruptcy or the pot collected among moves (`! txn` events), in the window's words, and
    the volume `.` set (B12) since before (the state then). A refusal the unit reports is exit
    code 1, said in words, with the entry it leaves typed (B2: a refused commit keeps it).
    Damage the unit reports (B17) is no refusal of these keys: it stays reported until the
    banker presses a key on the unit, which a host's keys never are; it is said beside the
    display. Without a good copy (Err6) there is no game: a + or - is refused."""
    say(display(state))
    told = [m for m in moves if WORDS is not None and m.get("kind") in ("undo", "bankrupt",
                                                                       "pot-out")]
    if told:
        profile, names = (bank.info or {}).get("profile"), names_of(bank)
        for m in told:
            said = WORDS.txn_note(m, profile, names, "en")
            if said:
                say(said)
    if before is not None and state.get("sound") != before.get("sound"):
        say("sound %s (%s)" % (state.get("sound"), VOLUMES.get(state.get("sound"), "?")))
    if state.get("error") == "store-damaged":
        if balances_or_none(bank) is None:
            if key in ("+", "-"):  # no game, so no money moved: the unit's error tone (B17)
                left = state.get("entry")
                raise Failed("the unit refused it: %s%s" % (no_game(), "; %s is still typed "
                             "(bank press C clears it)" % left if left else ""))
            note(no_game())
        else:
            note(refusal(state, (bank.info or {}).get("profile")))
        return EXIT_OK
    why = bank.refusal(state, key)
    if why:
        left = state.get("entry")
        raise Failed("the unit refused it: %s%s%s%s" % (
            why, "; %s is still typed (bank press C clears it)" % left if left else "",
            "; not pressed after it: %s" % " ".join(unpressed) if unpressed else "",
            # the keys before it went through: what they moved stays (exit 1 is the refusal)
            "; before it, %s went through (bank log %d)" % (
                "1 transaction" if len(moves) == 1 else "%d transactions" % len(moves),
                len(moves)) if moves else ""))
    return EXIT_OK


def cmd_press(bank, args):
    """The keys, as on the keypad, one at a time: a refused key stops the rest, as its error
    tone stops a banker. An entry left typed (a refused commit keeps it, B2) is said;
    keys that would add to it are refused before anything is sent, unless --onto-entry: a
    `bank press 5K-` means 5K, not 99M5K. Clearing it with C unasked is not safe: if the entry
    went in between (switch-off, B16; a card out, B3), C would reverse the last transaction
    (B10)."""
    state = bank.state() if args.no_wake else bank.wake()
    words = split_keys(args.keys)
    try:
        bank.events_on()  # the moves the keys make: an undo is said, not only its balance shown
    except CommandError:
        pass  # a unit without events: the display alone is said
    misbehaved = False
    try:
        return _press(bank, args, state, words)
    except ProtocolError:
        misbehaved = True  # nothing more is sent to a unit that misbehaved (exit 7)
        raise
    finally:
        # ... and off again, as monitor leaves them: on a serial port the next program to open
        # it would be sent events it never asked for
        try:
            if not misbehaved:
                bank.events_off()
        except BankError:
            pass


def _press(bank, args, state, words):
    left = state.get("entry")
    bank.events.clear()
    if left:
        if words[0] in ADDS_TO_ENTRY and not args.onto_entry:
            raise Failed(
                "%s is typed on the unit, left from before: these keys would add to it. Clear "
                "it first (bank press C), or type onto it with --onto-entry" % left)
        if words[0] != "C":  # a C clears it, as asked: nothing to warn of
            note("starting from %s, typed on the unit before this command" % left)
    pressed = []
    try:
        for word in words:
            pressed.append(word)
            after = bank.press(word)
            if after.get("error") not in (None, "store-damaged"):
                break  # as a banker stops at the error tone: 1.5.M+ moves no 1.5 M
    except (DisconnectedError, ReplyTimeout, ProtocolError) as exc:
        _unanswered(exc, pressed)
        raise
    moves = [e.data for e in bank.events if e.type == "txn" and isinstance(e.data, dict)]
    code = _report_state(after, bank, pressed[-1], words[len(pressed):], moves, state)
    total = after.get("tally")
    night = [k for k in ("clock", "count") if after.get(k) != state.get(k)]
    if ("+" in pressed or "-" in pressed) and not any((after.get("slots") or {}).values()) \
            and (total != state.get("tally") or not night):
        # No card in: the unit adds up like an adding machine (B14), and no account moves;
        # unless the keys set game night's clock or count (B19, B20), which the tally is not.
        note("no card is in, so no money moved: + and - added to the tally (the adding "
             "machine)%s" % ("" if total is None else ", now %s" % money(total)))
    return code


def _unanswered(exc, keys):
    """exc (the link lost, no reply, a reply that does not read) told that keys sent may have
    moved money: the unit may have taken the last one and not been heard to answer."""
    if MONEY_KEYS.intersection(keys):
        exc.args = ("%s; the keys sent (%s) may have moved money: see bank log once the unit "
                    "answers" % (exc, " ".join(keys)),)


KEYPAD_ONLY = (
    "maintenance mode is entered on the unit's own keypad (hold DEAL there for 3 seconds): "
    "a DEAL held over serial is only a DEAL press, and would start the deal timer. "
    "To press DEAL, use `bank press DEAL`"
)


def cmd_hold(bank, args):
    if not args.no_wake:
        bank.wake()
    try:
        state = bank.hold(args.key, args.ms)
    except (DisconnectedError, ReplyTimeout, ProtocolError) as exc:
        _unanswered(exc, [args.key.upper()])
        raise
    code = _report_state(state, bank, args.key)
    if args.key.upper() == "C" and args.ms >= HOLD_MS and state.get("error") in (
            None, "store-damaged"):
        # B11: a new game, a game with no transactions too; the damage stays reported (B17),
        # and another error is a refusal. No balances (Err6): no game, and no log to ask.
        balances = balances_or_none(bank)
        if balances is not None and not bank.log(1):
            _said_new_game(balances)
    return code


def _said_new_game(balances):
    """Says the new game (B11) if every account is at one amount, as a new game leaves them."""
    amounts = set((balances or {}).values())
    if len(amounts) != 1:
        return False
    say("new game: every account at %s" % money(amounts.pop()))
    return True


def cmd_insert(bank, args):
    state = bank.insert(args.slot, args.card)
    # B3: the unit shows the card's number for a second, then its balance; say both.
    balances = balances_or_none(bank)
    label = card_label(args.card, names_of(bank))
    say("card %s in %s: %s" % (label, args.slot, "no balance (no good copy of the game)"
                               if balances is None else "balance " + money(
                                   balances.get(args.card))))
    return _report_state(state, bank)


def cmd_remove(bank, args):
    return _report_state(bank.remove(args.slot), bank)


def cmd_newgame(bank, args):
    bank.wake()
    bank.new_game()
    balances = bank.balances()
    if not _said_new_game(balances):
        raise Failed("no new game: balances are %s" % json.dumps(balances))
    return EXIT_OK


def set_sound(bank, level):
    """Volume by the keypad when it can be (B12: `.` with no card and no entry cycles
    2 -> 1 -> 0 -> 2), else by the SET SOUND extension. Whether it was another."""
    state = bank.wake()
    slots = state.get("slots") or {}
    if state.get("sound") == level:
        return False
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
    return True
