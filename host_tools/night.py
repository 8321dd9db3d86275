"""`bank night`: game night from the command line (docs/rules.md B19-B22; docs/host_tools.md,
"Game night"): the count and who wins, the game clock, a bankruptcy in one step and the Free
Parking pot. Each is done with the unit's own keys and cards, as the banker would do it
(`KEY`, `HOLD`, `INSERT`, `REMOVE`), but the pot's setting (`SET POT`, maintenance mode); what
it leaves is said from STATE, the players by their names.

    bank night                        the pot, the clock and the count, who wins
    bank night count CARD [AMOUNT...] count a player: their balance plus each amount (1M-
                                      takes one off); the count starts if it is not on
    bank night count --end            leave the count (what was counted is kept)
    bank night clock MINUTES|start|stop|off
    bank night bankrupt CARD [--to CARD]   the whole balance to a card, or to the bank
    bank night pot on|off             (maintenance mode)
    bank night pot in CARD AMOUNT     a payment into the pot
    bank night pot collect CARD       the whole pot to a card
"""

import json

from . import shapes
from .errors import EXIT_OK, Failed, UsageError
from .keypad import HOLD_MS
from .maintenance import maint_errors
from .out import CARD_COUNT, card_label, integer, money, names_of, refusal, say
from .rules import WORDS
from .wire import split_keys

CARD_ARG = "CARD (1-%d)" % CARD_COUNT


def add_parser(sub):
    """`bank night ...` on the command line's subparsers (cli.py)."""
    n = sub.add_parser("night", help="game night: the count and who wins, the game clock, a "
                       "bankruptcy, the Free Parking pot")
    n.add_argument("--json", action="store_true", help="the pot, clock and count as STATE has "
                   "them")
    what = n.add_subparsers(dest="night", metavar="WHAT")
    c = what.add_parser("count", help="count a player: bank night count 3 2M 500K")
    c.add_argument("card", nargs="?", type=integer, choices=range(1, CARD_COUNT + 1),
                   metavar=CARD_ARG)
    c.add_argument("amounts", nargs="*", metavar="AMOUNT", help="added (2M, 2M+; 1M-: taken "
                   "off)")
    c.add_argument("--end", action="store_true", help="leave the count")
    c = what.add_parser("clock", help="the game clock: MINUTES (set and start), start, stop, "
                        "off")
    c.add_argument("what")
    c = what.add_parser("bankrupt", help="a card's whole balance to a creditor or the bank")
    c.add_argument("card", type=integer, choices=range(1, CARD_COUNT + 1), metavar=CARD_ARG)
    c.add_argument("--to", type=integer, choices=range(1, CARD_COUNT + 1), metavar=CARD_ARG,
                   help="the creditor's card (none: the bank)")
    c = what.add_parser("pot", help="the Free Parking pot: on, off, in CARD AMOUNT, collect "
                        "CARD")
    c.add_argument("what", choices=("on", "off", "in", "collect"))
    c.add_argument("rest", nargs="*")
    return n


def _clear(bank):
    """The unit awake, both slots empty, nothing typed: where every sequence here starts."""
    state = bank.wake()
    for slot in ("L", "R"):
        if (state.get("slots") or {}).get(slot) is not None:
            state = bank.remove(slot)
    if state.get("entry"):
        state = bank.press("C")  # with no card in, C clears the entry (and never undoes)
    return state


def _refused(bank, state):
    why = bank.refusal(state)
    if why:
        raise Failed("the unit refused it: %s" % why)
    return state


def _amount_keys(text):
    """'2M' -> ['2', 'M'] and its sign, '+' (or '1M-' for '-'): the keys of an amount as the
    keypad types it."""
    sign = "-" if text.endswith("-") else "+"
    body = text.rstrip("+-")
    try:
        keys = split_keys([body])
    except ValueError as exc:
        said = str(exc)  # names the word already, where the word is the key it refuses
        raise UsageError(said if repr(body) in said else "%s: %s" % (text, said)) from None
    if not body or any(k in ("+", "-", "C", "DEAL") for k in keys):
        raise UsageError("an amount is digits, a point and K or M: %s is none" % text)
    return keys, sign


def show(bank, state, as_json=False, note=True):
    """The pot, the clock and the count, as STATE says them: in sentences, or STATE's three
    keys as JSON."""
    if as_json:
        say(json.dumps({k: state.get(k) for k in ("pot", "clock", "count")}))
        return
    kept = (state.get("count") or {}).get("cards")
    for line in sentences(bank, state, note) or [
            "no pot, no game clock; the count is off, its last results kept (bank night shows "
            "them)" if kept else "no game night: no pot, no game clock, no count"]:
        say(line)


def sentences(bank, state, note=False):
    """Game night as STATE says it, the players by their names; [] when none of it is on.
    note: with a count that is off, how to start it again, and with one on, that it stays on
    (said where the count is the subject)."""
    pot, clock, count = state.get("pot"), state.get("clock"), state.get("count")
    names = names_of(bank)
    profile = (bank.info or {}).get("profile")
    if WORDS is not None:
        lines = WORDS.night(pot, clock, count, profile, names, "en")
        if note and count and not count.get("on"):
            if count.get("cards"):
                lines.append(WORDS.counted(count, profile, names, "en"))  # kept once left
            lines.append("(the count is off; bank night count starts it again)")
        elif note and count:
            lines.append("(the count is on, for the next player: the unit's + and - count; "
                         "bank night count --end leaves it)")
        return lines
    # Installed without the firmware: the facts, without the unit's sentences.
    lines = []
    if pot is not None:
        lines.append("Free Parking pot: %s" % money(pot))
    if clock:
        lines.append("game clock: %s ms left%s" % (money(clock.get("left")),
                                                   "" if clock.get("running") else ", stopped"))
    if count and (note or count.get("on")):
        for place, card in enumerate(count.get("ranking") or [], 1):
            lines.append("%d. %s %s" % (place, card_label(card, names),
                                        money((count.get("cards") or {}).get(str(card)))))
    return lines


def cmd_night(bank, args):
    what = args.night
    if what is None:
        show(bank, bank.state(), args.json)
        return EXIT_OK
    if what == "bankrupt":
        _bankrupt(bank, args)  # a move, said as one: no game night's state
        return EXIT_OK
    state = {"count": _count, "clock": _clock, "pot": _pot}[what](bank, args)
    if what == "pot" and args.what in ("on", "off") and not args.json:
        # The switch as the window's panel says it: the pot's 0 alone does not say it is on.
        on = args.what == "on"
        say(WORDS.pot_switched(on, "OK", lang="en") if WORDS is not None else
            "the Free Parking pot is %s" % args.what)
    if what == "clock" and args.what.lower() == "off" and not args.json:
        say("the game clock is off")  # what is left of game night shows no clock
    show(bank, state, args.json, note=what == "count")
    return EXIT_OK


def _count_on(state):
    return bool((state.get("count") or {}).get("on"))


def _keys_mean_theirs(state):
    """Refused, with nothing pressed, where the keys would not mean what a sequence here
    means: in the count + and - are the count's (B19); at the clock's End the next key
    starts the count (B20)."""
    if _count_on(state):
        raise Failed("the count is on: leave it first (bank night count --end)")
    if (state.get("display") or {}).get("text") == "End":
        raise Failed("the game clock is over and shows End: the next key starts the count "
                     "(bank night count CARD AMOUNT...)")
    return state


def _count(bank, args):
    state = _clear(bank)
    if args.end:
        if args.card is not None or args.amounts:
            raise UsageError("--end takes no card and no amount")
        if _count_on(state):
            state = _refused(bank, bank.press("C"))  # no card, nothing typed: the count ends
        return state
    if args.card is None:
        raise UsageError("count needs a CARD, or --end")
    keys = [_amount_keys(a) for a in args.amounts]  # all checked before a key is pressed
    _count_takes(bank, keys)
    if not _count_on(state):
        if state.get("tally"):
            state = bank.press("C")  # the tally's total would keep + refused
        state = _refused(bank, bank.hold("+", HOLD_MS))  # B19: + held 3 s, no card in
        if not _count_on(state):
            raise Failed("the count did not start (is the game clock's End showing?)")
    bank.insert("L", args.card)
    try:
        for ks, sign in keys:
            state = _refused(bank, bank.press(*(ks + [sign])))
    finally:
        state = bank.remove("L")
    return state


def _count_takes(bank, keys):
    """The count takes B2's format in the unit's money, without its limits (as the tally):
    an amount it would refuse is refused here, before the count starts, by the unit's own
    rules where they are beside host_tools (else the unit's refusal says it)."""
    if WORDS is None:
        return
    from brain import money as amounts, profiles

    profile = (bank.info or {}).get("profile")
    prof = profiles.get(profile)
    for ks, _ in keys:
        entry = "".join(ks)
        err = prof and amounts.parse(entry, prof, False)[1]
        if err:
            raise Failed("the unit would refuse %s, so nothing was pressed: %s"
                         % (entry, refusal({"error": err, "entry": entry}, profile)))


def _clock(bank, args):
    what = args.what.lower()
    state = _clear(bank)
    if what in ("start", "stop"):
        keys = ["+" if what == "start" else "-"]
    elif what == "off":
        keys = ["0", "+"]
    elif what.isascii() and what.isdigit() and 1 <= int(what) <= 999:
        keys = list(what) + ["+"]
    else:
        raise UsageError("clock takes 1-999 minutes, start, stop or off")
    _keys_mean_theirs(state)
    # The clock's view: K, held 3 s while no clock is set (B20)
    state = _refused(bank, bank.hold("K", HOLD_MS) if state.get("clock") is None
                     else bank.press("K"))
    try:
        state = _refused(bank, bank.press(*keys))
    finally:
        state = bank.press("K")  # the view ends
    return state


def _bankrupt(bank, args):
    """B21, then the move it made, said (or its record, --json)."""
    if args.to == args.card:
        raise UsageError("a card cannot be its own creditor")
    _keys_mean_theirs(_clear(bank))
    bank.insert("R", args.card)
    try:
        if args.to is not None:
            bank.insert("L", args.to)
        _refused(bank, bank.hold("-", HOLD_MS))
    finally:
        for slot in ("L", "R"):
            state = bank.state()
            if (state.get("slots") or {}).get(slot) is not None:
                bank.remove(slot)
    got = bank.log(1)
    rec = got[-1] if got else {}
    if rec.get("kind") != "bankrupt" or rec.get("from") != args.card:
        raise Failed("the unit made no bankruptcy (see bank log)")
    if args.json:
        say(json.dumps(rec))
        return
    names = names_of(bank)
    to = rec.get("to")
    if WORDS is None:  # installed without the firmware: the facts
        say("%s is bankrupt: %s to %s" % (card_label(args.card, names), money(rec.get("amount")),
                                          to if to == "bank" else card_label(to, names)))
        return
    profile = (bank.info or {}).get("profile")
    say(WORDS.say("note.bankrupt", "en", amount=WORDS.amount(rec.get("amount"), profile),
                  src=WORDS.who(args.card, names, "en"),
                  dst=WORDS.say("bank", "en") if to == "bank" else WORDS.who(to, names, "en")))


def _pot(bank, args):
    what = args.what
    rest = args.rest
    if what in ("on", "off"):
        if rest:
            raise UsageError("pot %s takes nothing more" % what)
        line = "SET POT " + what.upper()
        return shapes.check(maint_errors(bank, lambda: bank.request(line)), shapes.STATE, line)
    try:
        card = int(rest[0]) if rest[0].isascii() else 0
    except (IndexError, ValueError):
        card = 0
    if not 1 <= card <= CARD_COUNT or len(rest) != (2 if what == "in" else 1):
        raise UsageError("pot in CARD AMOUNT, pot collect CARD")
    keys = _amount_keys(rest[1])[0] if what == "in" else []
    state = _clear(bank)
    if state.get("pot") is None:
        raise Failed("the Free Parking pot is off: bank night pot on (maintenance mode)")
    _keys_mean_theirs(state)
    bank.insert("R" if what == "in" else "L", card)
    try:
        state = _refused(bank, bank.press(*(keys + ["+"])))
    finally:
        state = bank.remove("R" if what == "in" else "L")
    return state
