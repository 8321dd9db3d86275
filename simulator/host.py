"""Builds the unit the simulator runs, from the same firmware modules the Pico runs."""

import time

import clock as fwclock
import power
import profiles
import rng
import seeded
import transient
import vclock
from protocol import Protocol
from store import FileStore
from store_extra import MemoryStore
from unit import Unit

try:
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]  # MicroPython
    sleep_ms = time.sleep_ms  # type: ignore[attr-defined]
except AttributeError:

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def sleep_ms(ms):
        time.sleep(ms / 1000)


def _mkdirs(path):
    import os

    parts = path.rstrip("/").split("/")
    cur = "/" if path.startswith("/") else ""
    for p in parts:
        if not p:
            continue
        cur = cur + p if cur.endswith("/") or not cur else cur + "/" + p
        try:
            os.mkdir(cur)
        except OSError:
            pass


class Host:
    """One simulated unit: its store, random source, clock, brain and protocol."""

    def __init__(self, opts):
        transient.keep = True  # a desktop keeps the rare code imported (transient.py)
        if opts.profile is not None and profiles.get(opts.profile) is None:
            raise ValueError("unknown profile %s (world, classic, francs)" % opts.profile)
        if opts.state:
            _mkdirs(opts.state)
            self.store = FileStore(opts.state)
        else:
            self.store = MemoryStore()
        self.rng = seeded.Seeded(opts.seed) if opts.seed is not None else rng.Entropy()
        if opts.virtual_clock:
            self.clock = vclock.VirtualClock()
        else:
            self.clock = fwclock.RealClock(ticks_ms, sleep_ms)
        self.unit = Unit(self.store, self.rng, opts.profile)
        power.boot(self.unit, self.clock.now())
        if opts.maintenance:
            self.unit.maintenance = True
        self.protocol = Protocol(self.unit, self.clock)

    def ms_to_deadline(self):
        """How long the host may sleep before the unit needs a tick; -1 for 'until input'."""
        if self.clock.virtual:
            return -1
        due = self.unit.deadline()
        if due is None:
            return -1
        return max(0, fwclock.ticks_diff(due, self.clock.now()))

    def tick(self):
        if not self.clock.virtual:
            self.unit.tick(self.clock.now())
