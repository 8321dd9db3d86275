"""The serial protocol, version 1 (docs/protocol.md), shared by the Pico and the simulator.

`Protocol(unit, clock).handle(line)` takes one line (bytes or str, without its newline) and
returns the lines to send back: event lines first (after EVENTS ON), then exactly one reply.
A refused command changes nothing: arguments are checked in full before anything is pressed.
Changes go through the unit's methods with the Protocol's `via`, which the log records:
"serial" for a port's lines; "key" only for lines from the unit's own controls (the simulator
window's banker panel), the person at the unit as its keypad is.
"""

import gc
import time

import jsonw
from brain import night
from brain.clock import ticks_add, ticks_diff
from brain.ledger import (AMOUNT, CARDS, FROM, FROM_AFTER, KIND, POT, SEQ, TO, TO_AFTER, UNDOES,
                          VIA)
from brain.unit import KEYS, SLOTS
from protocol import names
from protocol.names import whole
from version import VERSION

MAX_LINE = 200
TOO_LONG = object()  # what LineReader returns for a line it had to skip
OURS = 2  # LineReader.over for a line skipped that is one of the unit's own (ours())
NO_GAME = ("ERR no-game no good copy of the game (Err6): none is invented; hold C for 3 s on "
           "the unit for a new game")
BAD_KEY = "ERR bad-key keys are 0-9 . M K C DEAL + -"
TOO_LONG_REPLY = "ERR line-too-long lines end within %d bytes" % MAX_LINE
MS_RANGE = "ERR bad-argument ms is a whole number from 0 to %d"
HOLD_MAX_MS = 600000  # on a virtual clock, where a hold costs no one any time
# On a real clock a hold is waited out, and every other client (and the Pico's keypad, the
# window) waits with it: long enough for the 3 s holds (B11, maintenance), not ten minutes.
HOLD_REAL_MAX_MS = 10000
ADVANCE_MAX_MS = 24 * 3600 * 1000
# Commands that take no argument: handle() refuses one, before the command runs.
NO_ARGS = ("STATE", "BALANCES", "MEM", "MAINT", "NEWGAME", "BACKUP", "GAMES", "NAMES")
NIGHT = ("pot", "clock", "count")  # game night (B19-B22), as STATE and the events show it


class LineReader:
    """Bytes in, whole lines out: \\r ignored, lines over MAX_LINE skipped (reported once).
    A line is a command only once its newline has come: the bytes of a line its sender never
    finished (it went away, its input ended) are dropped, never acted on."""

    def __init__(self):
        self.drop()

    def push(self, b):
        """Take one byte (an int); a finished line (bytes), TOO_LONG, or None."""
        if b == 10:
            # a line of ours come back, too long to read whole, is no command either
            line = None if self.over == OURS else TOO_LONG if self.over else bytes(self.buf)
            self.drop()
            return line
        if b == 13 or self.over:
            return None
        if len(self.buf) >= MAX_LINE:
            over = OURS if ours(bytes(self.buf).split(b" ", 1)[0]) else True
            self.drop()
            self.over = over
        else:
            self.buf.append(b)
        return None

    def drop(self):
        """Forget a half line (its sender went away before its newline)."""
        self.buf = bytearray()
        self.over = False

    def partial(self):
        """Bytes of an unfinished line are waiting."""
        return bool(self.buf) or self.over


def ours(word):
    """Whether a line's first word is a reply's or an event's (OK, ERR, !): the unit's own line
    come back from a host's terminal left echoing (Linux opens a serial port with ECHO on). It
    is answered by nothing, lest the unit and the echo answer each other for ever. word: str,
    or bytes (a line too long to read whole)."""
    return word.upper() in (("OK", "ERR", "!") if isinstance(word, str) else (b"OK", b"ERR", b"!"))


def _card_json(card):
    return "pot" if card == POT else card if card else "bank"


def txn_json(rec, bal=None, profile=None):
    """A transaction as the protocol shows it. "balances" is what the move left on the cards it
    touched; a restore brings a whole game back, so it carries all six (bal: the ledger's list
    after it), the pot's if it holds money (B22), and the profile (profile): a host that follows
    the records alone has every balance."""
    if bal is not None:
        after = list(_all_balances(bal))
        if bal[POT]:
            after.append(("pot", bal[POT]))
    else:
        after = [("pot" if c == POT else str(c), a)
                 for c, a in ((rec[FROM], rec[FROM_AFTER]), (rec[TO], rec[TO_AFTER])) if c]
    fields = [("seq", rec[SEQ]), ("kind", rec[KIND]), ("from", _card_json(rec[FROM])),
              ("to", _card_json(rec[TO])), ("amount", rec[AMOUNT]), ("balances", tuple(after))]
    if rec[UNDOES]:
        fields.append(("undoes", rec[UNDOES]))
    if profile is not None:
        fields.append(("profile", profile))
    fields.append(("via", rec[VIA]))
    return tuple(fields)


def _all_balances(bal):
    return tuple((str(c), bal[c]) for c in range(1, CARDS + 1))


def _restored(ledger, recs):
    """{index: the balances after it} for LOG's restores, worked out backwards from the
    ledger's now: each record after one carries its own move, and a restore itself moves
    nothing (the store's log folds from its base to the balances; a seq skipped after damage
    moved none)."""
    got = {}
    bal = list(ledger.bal)
    for i in range(len(recs) - 1, -1, -1):
        rec = recs[i]
        if rec[KIND] == "restore":
            got[i] = list(bal)
            continue
        if rec[FROM]:
            bal[rec[FROM]] += rec[AMOUNT]
        if rec[TO]:
            bal[rec[TO]] -= rec[AMOUNT]
    return got


def _log_pieces(recs, restored, profile):
    """LOG's JSON list, a record a piece, oldest first: each written only when asked for, so
    that a unit's loop reads its keys between them (App.write) and a record's objects are
    garbage before the next's are made."""
    last = len(recs) - 1
    for i, rec in enumerate(recs):
        bal = restored.get(i)
        text = jsonw.dumps(txn_json(rec) if bal is None else txn_json(rec, bal, profile))
        yield ("[" if not i else ", ") + text + ("]" if i == last else "")


def _ok(pieces):
    yield "OK "
    yield from pieces


class Protocol:
    def __init__(self, unit, clock, via="serial"):
        self.unit = unit
        self.clock = clock
        self.via = via
        self.events = False
        self.pending = []
        # A unit's port takes LOG's and BACKUP's replies as pieces made as they are sent: LOG
        # 200 whole in one piece found no room in a Pico's heap beside a long game's, and made
        # at once it kept the keys waiting (docs/performance.md, "A long game").
        self.pieces = False
        # A unit's heap in use before the firmware and after boot (app.py; either may be None);
        # None where there is no unit's heap (the simulator).
        self.heap = None  # type: tuple | None
        unit.listeners.append(self._on_event)

    def ok_pieces(self, pieces):
        """OK and a JSON value given in pieces (strings): for a unit's port, an iterator that
        App.write draws from as the port takes them; one string for every other body."""
        return _ok(pieces) if self.pieces else "OK " + "".join(pieces)

    def no_game(self):
        """NO_GAME while the unit has no good copy of the game (Err6, B17), else None."""
        return None if self.unit.ledger.ready else NO_GAME

    def slot_card(self, args):
        """(slot, card) of `<L|R> <1-6>`, or None (INSERT's, WRITECARD's)."""
        if len(args) == 2 and args[0].upper() in SLOTS:
            card = whole(args[1])
            if card is not None and 1 <= card <= CARDS:
                return args[0].upper(), card
        return None

    def _on_event(self, kind, arg):
        if not self.events:
            return
        led = self.unit.ledger
        if kind == "tone":
            body = (("name", arg),)
        elif kind == "txn":
            restore = arg[KIND] == "restore"
            body = txn_json(arg, led.bal, led.profile.name) if restore else txn_json(arg)
        elif kind == "game":
            # The balances the new game starts from: a host following the events needs no
            # BALANCES to know them (B11).
            kind, body = "newgame", (("profile", arg), ("balances", _all_balances(led.bal)))
        elif kind == "power":
            body = (("power", arg),)
        elif kind in NIGHT:  # the setting, the clock or the count as STATE has it now
            body = ((kind, self._night()[NIGHT.index(kind)]),)
        else:
            return
        self.pending.append("! %s %s" % (kind, jsonw.dumps(body)))
        count = led.count
        if kind == "txn" and count is not None and [
                c for c in (arg[FROM], arg[TO]) if 0 < c <= CARDS and count[c] is not None]:
            self._on_event("count", None)  # a counted card's count follows its balance (B19)

    def drain(self):
        """Event lines that happened between commands (a real clock's timers)."""
        out = self.pending
        self.pending = []
        return out

    def handle(self, line):
        reply = self._reply(line)
        out = self.drain()  # the events a command made go before its reply
        if reply is not None:  # blank lines are ignored
            out.append(reply)
        return out

    def _reply(self, line):
        if line is TOO_LONG:
            return TOO_LONG_REPLY
        if isinstance(line, str):
            try:
                line = line.encode()
            except UnicodeError:  # CPython's lone surrogates: no UTF-8 holds them
                return "ERR bad-line " + names.NOT_UTF8
        wide = False
        for b in line:
            if b < 32 or b == 127:
                if b != 9 and b != 13:
                    return "ERR bad-line a line has no control characters"
            elif b > 127:
                wide = True
        if len(line) > MAX_LINE:
            return TOO_LONG_REPLY
        if wide:  # only a player's name may be other than ASCII (NAME's text)
            line, err = names.wide_line(line)
            if err:
                return "ERR bad-line " + err
        else:
            line = line.decode()
        # Split at spaces only: str.split() with no argument splits at Unicode spaces on
        # CPython and at ASCII ones on MicroPython, and a name must read the same on both.
        # A \r is ignored (the serial port's LineReader drops it; a page's bank.send does not).
        words = [w for w in line.replace("\t", " ").replace("\r", "").split(" ") if w]
        if not words:
            return None
        if ours(words[0]):
            return None
        name = words[0].upper()
        fn = COMMANDS.get(name)
        if fn is None:
            # The extensions are a host tool's, rarely a unit's: their code takes the heap
            # only from the first (docs/performance.md has the figure).
            from protocol import extensions

            fn = extensions.COMMANDS.get(name)
        if fn is None:  # unknown, never an exception (a Pico would restart)
            return "ERR unknown-command " + words[0][:24]
        if name in NO_ARGS and len(words) > 1:
            return "ERR bad-argument %s takes no argument" % name
        return fn(self, words[1:])

    def _ok_state(self):
        u = self.unit
        text, k, m = u.display()
        pot, clock, count = self._night()
        slots = u.slots
        return "OK " + jsonw.dumps((
            ("power", "on" if u.power else "off"),
            ("display", (("text", text), ("k", k), ("M", m))),
            ("red", u.red()), ("green", u.green()),
            ("slots", (("L", slots["L"]), ("R", slots["R"]))),
            ("entry", u.entry), ("deal", u.deal_phase()), ("sound", u.ledger.volume),
            ("error", u.error), ("tally", u.tally), ("maintenance", u.maintenance),
            ("pot", pot), ("clock", clock), ("count", count)))

    def _night(self):
        """(pot, clock, count) as STATE shows them (docs/protocol-extensions.md)."""
        u = self.unit
        led = u.ledger
        if not u.night_on and not led.pot_on and not led.bal[POT] and led.count is None:
            return None, None, None
        return night.state(u)

    def _hello(self, args):
        u = self.unit
        return "OK " + jsonw.dumps((
            ("device", "bank-unit"), ("firmware", VERSION), ("protocol", 1),
            ("profile", u.ledger.profile.name), ("store", u.store_status),
        ))

    def _key(self, args):
        keys = []
        for word in args:
            k = word.upper()
            if k in KEYS:
                keys.append(k)
                continue
            # "150K" and "1M-" are 1 5 0 K and 1 M -: an amount and what to do with it. A sign
            # that is not last ("-5") is no key of the unit's, nor an amount: refused whole,
            # rather than taken as - (a payment of the entry) and then a new entry.
            for i, c in enumerate(k):
                if c not in KEYS or (c in "+-" and i != len(k) - 1):
                    return BAD_KEY
                keys.append(c)
        if not keys:
            return "ERR bad-argument KEY needs at least one key"
        u = self.unit
        for k in keys:
            now = self.clock.now()
            u.tick(now)
            u.key_down(k, now, self.via)
            u.key_up(k, now, self.via)
        return self._ok_state()

    def _hold(self, args):
        if len(args) != 2:
            return "ERR bad-argument HOLD <key> <ms>"
        k = args[0].upper()
        if k not in KEYS:
            return BAD_KEY
        ms = whole(args[1])
        virtual = self.clock.virtual
        most = HOLD_MAX_MS if virtual else HOLD_REAL_MAX_MS
        if ms is None or ms > most:
            return MS_RANGE % most + (
                "" if virtual else " on a real clock (all else waits while the key is held)")
        u = self.unit
        now = self.clock.now()
        u.tick(now)
        u.key_down(k, now, self.via)
        if virtual:
            self.clock.advance(u, ms)
        else:
            _hold_real(self.clock, u, ms)
        u.key_up(k, self.clock.now(), self.via)
        return self._ok_state()

    def _insert(self, args):
        got = self.slot_card(args)
        if got is None:
            return "ERR bad-argument INSERT <L|R> <1-%d>" % CARDS
        slot, card = got
        now = self.clock.now()
        self.unit.tick(now)
        err = self.unit.card_in(slot, card, now)
        if err == "slot-occupied":
            return "ERR slot-occupied slot %s holds a card already" % slot
        if err == "card-in-use":
            return "ERR card-in-use card %d is in the other slot" % card
        return self._ok_state()

    def _remove(self, args):
        slot = args[0].upper() if len(args) == 1 else None
        if slot not in SLOTS:
            return "ERR bad-argument REMOVE <L|R>"
        now = self.clock.now()
        self.unit.tick(now)
        if self.unit.card_out(slot, now) == "slot-empty":
            return "ERR slot-empty slot %s has no card" % slot
        return self._ok_state()

    def _state(self, args):
        self.unit.tick(self.clock.now())
        return self._ok_state()

    def _balances(self, args):
        return self.no_game() or "OK " + jsonw.dumps(_all_balances(self.unit.ledger.bal))

    def _log(self, args):
        if len(args) > 1:
            return "ERR bad-argument LOG [n]"
        n = whole(args[0]) if args else 20
        if n is None:
            return "ERR bad-argument n is a whole number of at most 12 digits"
        refused = self.no_game()
        if refused:
            return refused
        ledger = self.unit.ledger
        recs = ledger.store.records(n)
        if not recs:
            return "OK []"
        return self.ok_pieces(_log_pieces(recs, _restored(ledger, recs), ledger.profile.name))

    def _advance(self, args):
        if not self.clock.virtual:  # whatever follows: there is no such command here
            return "ERR unsupported this clock is real; ADVANCE needs --virtual-clock"
        if len(args) != 1:
            return "ERR bad-argument ADVANCE <ms>"
        ms = whole(args[0])
        if ms is None or ms > ADVANCE_MAX_MS:
            return MS_RANGE % ADVANCE_MAX_MS
        self.clock.advance(self.unit, ms)
        return self._ok_state()

    def _events(self, args):
        if len(args) != 1 or args[0].upper() not in ("ON", "OFF"):
            return "ERR bad-argument EVENTS ON|OFF"
        self.events = args[0].upper() == "ON"
        return "OK"

    def _mem(self, args):
        # The unit's heap, measured where it runs (the Pico's budgets, make bench): here, so
        # that measuring it loads nothing more.
        if self.heap is None:
            return "ERR unsupported only a unit (main.py) reports its heap"
        base, booted = self.heap
        # The collection is timed too: how long a unit's heap, as play has left it, keeps the
        # loop from a key (its budget is docs/performance.md's).
        t = time.ticks_us()  # type: ignore[attr-defined]
        gc.collect()
        took = ticks_diff(time.ticks_us(), t)  # type: ignore[attr-defined]
        return "OK " + jsonw.dumps((
            ("firmware", None if base is None or booted is None else booted - base),
            ("boot", booted), ("now", gc.mem_alloc()), ("free", gc.mem_free()),
            ("gc_us", took)))


def _hold_real(clock, unit, ms):
    """HOLD on a real clock (clock.RealClock): the key stays down for ms of wall time, and the
    unit's timers fire on the way (C held 3 s starts a new game, B11)."""
    target = ticks_add(clock.now(), ms)
    while True:
        left = ticks_diff(target, clock.now())
        if left <= 0:
            break
        due = unit.deadline()
        if due is not None:
            left = min(left, max(0, ticks_diff(due, clock.now())))
        clock.sleep_ms(min(left, 20))
        unit.tick(clock.now())
    unit.tick(clock.now())


COMMANDS = {
    "HELLO": Protocol._hello, "KEY": Protocol._key, "HOLD": Protocol._hold,
    "INSERT": Protocol._insert, "REMOVE": Protocol._remove, "STATE": Protocol._state,
    "BALANCES": Protocol._balances, "LOG": Protocol._log, "ADVANCE": Protocol._advance,
    "EVENTS": Protocol._events, "MEM": Protocol._mem,
}
