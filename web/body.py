"""The page's body for the brain: the unit, its store, clock and protocol, put together as the
headless simulator's Host does (simulator/host.py), under MicroPython's webassembly port.

The page (unit.js) calls `call(op, a, b)` for every input and reads back one JSON view of the
outputs; nothing here decides anything a rule decides. The store is the firmware's own
FileStore on the port's in-memory file system; the page copies each file it changed into the
browser's storage once the call returns (docs/web.md, "The game kept").
"""

import json
import sys

from brain import clock as fwclock
from board import lights
from brain import money
from brain import profiles
from desktop import seeded
from board import segments
from store import load as storeload
from brain import tones
import transient
from desktop import vclock
from brain.ledger import AMOUNT, FROM, KIND, SEQ, TO, UNDOES
from protocol import Protocol
from store import FileStore, OsFS
from brain.unit import Unit

import js  # the webassembly port's bridge to the page

LOG_LINES = 12


def _ticks_ms():
    return int(js.performance.now())


def _sleep_ms(ms):
    # HOLD over the page's console holds the key for real: the page freezes for that long, as
    # the desktop window does (README, "Status").
    end = js.performance.now() + ms
    while js.performance.now() < end:
        pass


class WebFS(OsFS):
    """The port's in-memory file system, each file the store finished writing copied into the
    browser's storage before done() returns: a write is kept when the store says it is (B17),
    and the store's format and its power-cut rules are the ones the unit has."""

    def __init__(self):
        OsFS.__init__(self)
        self._os_remove = self.remove
        self.open = self._open
        self.remove = self._remove
        self.writing = None

    def _open(self, path, mode="r"):
        f = open(path, mode)
        if "w" in mode or "a" in mode:
            self.writing = path
        return f

    def done(self, f):
        try:
            OsFS.done(self, f)
        finally:
            path = self.writing
            self.writing = None
            if path is not None and not js.bankPersist(path):
                # Not kept (the browser's storage full, say): the write failed, as a full
                # flash's would, and the file is back as kept. The store refuses the change.
                raise OSError(28)

    def _remove(self, path):
        self._os_remove(path)
        js.bankForget(path)


class Page:
    def __init__(self, state_dir, seed, virtual, profile, maintenance):
        transient.keep = True  # memory to spare: keep the rare code imported (transient.py)
        if profile is not None and profiles.get(profile) is None:
            raise ValueError("unknown profile %s (world, classic, francs)" % profile)
        self.store = FileStore(state_dir, WebFS())
        self.rng = seeded.Seeded(seed)
        if virtual:
            self.clock = vclock.VirtualClock()
        else:
            self.clock = fwclock.RealClock(_ticks_ms, _sleep_ms)
        self.unit = Unit(self.store, self.rng, profile)
        self.unit.boot(self.clock.now())
        if maintenance:
            self.unit.maintenance = True
        self.protocol = Protocol(self.unit, self.clock)
        self.tones = []  # tones sounded since the page last looked
        self.unit.listeners.append(self._on_event)
        self._log_key = None
        self._log = []
        self.names = self._names()

    def _names(self):
        """The six names the banker gave (protocol NAME, the issue "At the table"), or None
        from a firmware without them."""
        try:
            from protocol import names
        except ImportError:
            return None
        try:
            return list(names.get(self.store))
        except OSError:
            return None

    def _on_event(self, kind, arg):
        if kind == "tone":
            self.tones.append(arg)

    def now(self):
        now = self.clock.now()
        if not self.clock.virtual:
            self.unit.tick(now)  # timers that are due happen before the input, as on the Pico
        return now

    # -- the outputs, as one view ---------------------------------------------------------

    def _recent(self):
        led = self.unit.ledger
        key = (led.seq, self.store.writes)
        if key != self._log_key:
            self._log_key = key
            try:
                recs = storeload.records(led, LOG_LINES)
            except OSError:
                recs = []
            self._log = [self._txn_text(r) for r in reversed(recs)]
        return self._log

    def _amount(self, amount):
        text, k, m = money.fmt(amount, self.unit.ledger.profile)
        return text + (" M" if m else " k" if k else "")

    def _txn_text(self, rec):
        def who(c):
            return str(c) if c else "bank"

        line = "#%d %s %s>%s %s" % (rec[SEQ], rec[KIND], who(rec[FROM]), who(rec[TO]),
                                    self._amount(rec[AMOUNT]))
        if rec[UNDOES]:
            line += " (undoes #%d)" % rec[UNDOES]
        return line

    def view(self):
        u = self.unit
        now = self.clock.now()
        text, k, m = u.display()
        due = u.deadline()
        for mode in (u.red, u.green):
            nxt = lights.next_change(mode, now)
            if nxt is not None and (due is None or fwclock.ticks_diff(nxt, due) < 0):
                due = nxt
        wait = -1 if due is None or self.clock.virtual else max(0, fwclock.ticks_diff(due, now))
        led = u.ledger
        heard = self.tones
        self.tones = []
        return json.dumps({
            "power": u.power, "text": text, "cells": segments.cells(text) if u.power else [],
            "k": k, "M": m, "red": lights.lit(u.red, now), "green": lights.lit(u.green, now),
            "slots": [u.slots["L"], u.slots["R"]], "deal": u.deal, "volume": u.volume,
            "error": u.error, "entry": u.entry, "tones": heard,
            "profile": led.profile.name, "seq": led.seq, "store": u.store_status,
            "balances": [[b, self._amount(b)] for b in led.bal[1:]],
            "log": self._recent(), "wait": wait, "names": self.names,
            "events": self.protocol.drain() if self.protocol.events else [],
        })


page = None


def start(state_dir, seed, virtual, profile, maintenance):
    global page
    page = Page(state_dir, seed, virtual, profile or None, maintenance)
    return json.dumps({"tones": tones.TONES})


def call(op, a=None, b=None):
    """One input from the page, then the view. op: 'down'/'up' (a: the key), 'in' (a: the
    slot, b: the card), 'out' (a: the slot), 'tick', 'view'."""
    p = page
    u = p.unit
    if op == "down":
        u.key_down(a, p.now())
    elif op == "up":
        u.key_up(a, p.now())
    elif op == "in":
        u.card_in(a, int(b), p.now())
    elif op == "out":
        u.card_out(a, p.now())
    elif op == "tick":
        p.now()
    return p.view()


def send(line):
    """One protocol line, as the serial port takes it: the reply lines, as the other bodies
    give them, joined by newlines."""
    page.now()
    out = page.protocol.handle(line)
    page.names = page._names()  # NAME is the only way they change
    return "\n".join(out)


if "--selftest" in sys.argv:  # pragma: no cover - a quick look under the unix port
    print(start("/tmp/web-body", 1, True, None, False))
