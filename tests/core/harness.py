"""A unit on a virtual clock, for the core's plain tests (CPython and MicroPython alike)."""

import startup
from board import rng
from desktop import seeded
from desktop.vclock import VirtualClock
from protocol import Protocol
from desktop.memfs import MemFS
from store import FileStore
from brain.unit import Unit


class Rig:
    def __init__(self, profile=None, seed=1, store=None, maintenance=False):
        self.store = store if store is not None else FileStore("bank", MemFS())
        self.clock = VirtualClock()
        # seed None: the hardware's random numbers, as a Pico draws them (rng.Entropy)
        self.unit = Unit(self.store, rng.Entropy() if seed is None else seeded.Seeded(seed),
                         profile, maintenance)
        self.tones = []
        self.txns = []
        self.games = 0
        self.unit.listeners.append(self._hear)
        startup.boot_unit(self.unit, self.clock.now())

    def _hear(self, kind, arg):
        if kind == "tone":
            self.tones.append(arg)
        elif kind == "txn":
            self.txns.append(arg)
        elif kind == "game":
            self.games += 1

    def press(self, *keys):
        """Each key down and up at once, as a quick press; keys may be '150K' strings."""
        u = self.unit
        for group in keys:
            for k in ([group] if group in ("DEAL",) else list(group)):
                now = self.clock.now()
                u.key_down(k, now)
                u.key_up(k, now)
        return self

    def hold(self, key, ms):
        u = self.unit
        u.key_down(key, self.clock.now())
        self.clock.advance(u, ms)
        u.key_up(key, self.clock.now())
        return self

    def insert(self, slot, card):
        return self.unit.card_in(slot, card, self.clock.now())

    def remove(self, slot):
        return self.unit.card_out(slot, self.clock.now())

    def advance(self, ms):
        self.clock.advance(self.unit, ms)
        return self

    def text(self):
        return self.unit.display()[0]

    def shown(self):
        return self.unit.display()

    def bal(self, card):
        return self.unit.ledger.bal[card]

    def take_tones(self):
        t = self.tones
        self.tones = []
        return t


def proto_rig(profile=None, seed=1):
    r = Rig(profile, seed)
    return r, Protocol(r.unit, r.clock)


def cut_lines(reader, data):
    """Every complete line a protocol.LineReader cuts from data (bytes), in order: what a
    port's bytes make, fed byte by byte as the loop's serial side pushes them."""
    out = []
    for b in data:
        line = reader.push(b)
        if line is not None:
            out.append(line)
    return out
