"""What the window and the terminal front end share: the unit's events, its outputs, its sound.

A front end is a body for the brain (docs/design.md, "The loop and the board"): it turns a
person's keys and card movements into events on the simulated board, which the unit's own loop
(app.App, as desktop/simapp.py's SimApp) takes at the clock's `now`, and draws the unit's
outputs back. No rule lives here: what a key does, what the display shows, when a light
flashes, is all the firmware's (brain/unit.py, board/segments.py, board/lights.py,
brain/tones.py, brain/money.py).
"""

import atexit
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from board import lights
from board import segments
from brain import tones
from brain.ledger import CARDS
from desktop.simapp import SimApp

TONE_SHOW_MIN_MS = 450  # a tone's name stays visible at least this long, even a 15 ms click


def state_dir():
    """Where an interactive simulator keeps its flash when no --state is given: the seed's
    unit keeps the balances when switched off, so the desktop one does too."""
    from simulator.xdg import state_home

    return state_home("bank-unit-simulator")


def interactive_host(host, opts):
    """The host an interactive front end runs: the one given, or, when no --state was asked
    for, one whose flash is kept between runs (a game can be stopped and resumed, as the seed
    says). BANK_SIM_STATE=none keeps nothing."""
    from simulator.xdg import state_env

    where = state_env()
    if opts.state is not None or where is None:
        return host
    from simulator.host import Host

    opts.state = where or state_dir()
    if where:
        opts.state_given = "BANK_SIM_STATE"
    return Host(opts)


class View:
    """A snapshot of everything a front end draws, compared to skip redraws that change
    nothing (an idle simulator draws nothing and wakes for nothing)."""

    __slots__ = ("power", "cells", "k", "M", "red", "green", "slots", "volume", "tone", "deal",
                 "entry", "error", "seq", "writes")

    def __eq__(self, other):
        return isinstance(other, View) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __ne__(self, other):
        return not self == other


class Session:
    """One person at one unit: inputs in, a View out, the next time anything visible changes.

    The loop is the unit's own, app.App on the simulated board (desktop/simapp.py), as on the
    Pico: a key or a card is an event on the board that App's next step takes, after the
    timers that are due; the front end calls `step` whenever it wakes and sleeps until
    `ms_to_change`."""

    def __init__(self, host, sound=None):
        self.host = host
        self.unit = host.unit
        self.clock = host.clock
        self.app = SimApp(host.unit, host.clock)
        self.sound = sound if sound is not None else Sound.default()
        self.tone = None  # the name of the tone shown, and until when (monotonic seconds)
        self.tone_until = 0.0
        self.tones_heard = []  # every tone, in order (the front ends' tests read it)
        self.unit.listeners.append(self._on_event)

    def _on_event(self, kind, arg):
        if kind == "tone":
            self.tones_heard.append(arg)
            self.tone = arg
            ms = max(TONE_SHOW_MIN_MS, sum(tones.TONES[arg][1::2]))
            self.tone_until = time.monotonic() + ms / 1000.0
            self.sound.play(arg, self.unit.ledger.volume)

    # -- inputs: exactly the keypad's and the slots' events -----------------------------------

    def key_down(self, key):
        self.app.press(key)

    def key_up(self, key, now=None):
        """now: when the key came up, if before now (the window's autorepeat filter)."""
        self.app.release(key, now)

    def card_in(self, slot, card):
        """None, or the error code the slot gave (slot-occupied, ...)."""
        return self.app.insert(slot, card)

    def card_out(self, slot):
        return self.app.remove(slot)

    def toggle_card(self, card, slot):
        """The keyboard's card key: a card in a slot comes out; one on the table goes into slot.
        Returns None or the error code the slot gave (slot-occupied, ...)."""
        slots = self.unit.slots
        for s in ("L", "R"):
            if slots[s] == card:
                return self.card_out(s)
        return self.card_in(slot, card)

    # -- outputs -------------------------------------------------------------------------------

    def step(self):
        """The loop's step: what is due happens, and its events go to the ports."""
        self.app.step(self.clock.now())

    def view(self):
        u = self.unit
        now = self.clock.now()
        v = View()
        v.power = u.power
        text, k, m = u.display()
        v.cells = tuple(segments.cells(text))
        v.k = k
        v.M = m
        v.red = lights.lit(u.red(), now)
        v.green = lights.lit(u.green(), now)
        v.slots = (u.slots["L"], u.slots["R"])
        v.volume = u.ledger.volume
        if self.tone is not None and time.monotonic() >= self.tone_until:
            self.tone = None
        v.tone = self.tone
        v.deal = u.deal_phase()
        v.entry = u.entry
        v.error = u.error
        v.seq = u.ledger.seq
        v.writes = u.ledger.store.writes  # the log changed (a new game keeps seq)
        return v

    def ms_to_change(self):
        """Milliseconds until something visible may change by itself, or None (until input)."""
        waits = []
        ms = self.app.wait(self.clock.now())  # the unit's next deadline, a light's next flash
        if ms >= 0:
            waits.append(ms)
        if self.tone is not None:
            waits.append(max(0, int((self.tone_until - time.monotonic()) * 1000) + 1))
        return min(waits) if waits else None

    def balances(self):
        bal = self.unit.ledger.bal
        return [(c, bal[c]) for c in range(1, CARDS + 1)]

    def recent(self, n):
        """The last n transactions, as the store keeps them."""
        return self.unit.ledger.store.records(n) if n else []

    @property
    def profile(self):
        return self.unit.ledger.profile


# -- sound -----------------------------------------------------------------------------------

RATE = 22050
LEVELS = (0.0, 0.12, 0.5)  # amplitude per volume (B12): off, soft, loud


def wav_bytes(name, volume):
    """The tone's notes (tones.TONES) as a mono 8-bit WAV: a square wave, like the piezo's."""
    amp = LEVELS[volume]
    frames = bytearray()
    notes = tones.TONES[name]  # flat: Hz, ms, Hz, ms, ...
    for freq, ms in zip(notes[0::2], notes[1::2], strict=True):
        n = RATE * ms // 1000
        if not freq or not amp:
            frames.extend(b"\x80" * n)
            continue
        half = RATE / (2.0 * freq)
        hi = int(128 + 127 * amp)
        lo = int(128 - 127 * amp)
        frames.extend(hi if int(i / half) % 2 == 0 else lo for i in range(n))
    head = b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVE"
    fmt = b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, RATE, RATE, 1, 8)
    return head + fmt + b"data" + struct.pack("<I", len(frames)) + bytes(frames)


class Sound:
    """Plays tones through paplay or aplay where there are any, in a child process, never
    waiting for it. Like the piezo, one tone at a time: a new one cuts the one playing.
    BANK_SIM_SOUND=off silences it (the tones still show on screen)."""

    def __init__(self, player=None):
        self.player = player
        self.proc = None
        self.files = {}
        self.dir = None

    @classmethod
    def default(cls):
        if os.environ.get("BANK_SIM_SOUND", "").lower() in ("off", "0", "no"):
            return cls(None)
        for exe in ("paplay", "aplay"):
            path = shutil.which(exe)
            if path:
                return cls([path] if exe == "paplay" else [path, "-q"])
        return cls(None)

    @property
    def available(self):
        return self.player is not None

    def _file(self, name, volume):
        key = (name, volume)
        path = self.files.get(key)
        if path is None:
            if self.dir is None:
                self.dir = tempfile.mkdtemp(prefix="bank-unit-tones-")
                atexit.register(shutil.rmtree, self.dir, True)
            path = os.path.join(self.dir, "%s-%d.wav" % (name, volume))
            with open(path, "wb") as f:
                f.write(wav_bytes(name, volume))
            self.files[key] = path
        return path

    def play(self, name, volume):
        if self.player is None or not volume or name not in tones.TONES:
            return
        self.stop()
        try:
            self.proc = subprocess.Popen(
                self.player + [self._file(name, volume)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)
        except OSError:
            self.player = None  # no sound here after all; the tones still show

    def stop(self):
        p = self.proc
        if p is not None:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(0.05)
                except subprocess.TimeoutExpired:
                    pass
            self.proc = None


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
