"""app.App on the simulated board: the Pico's loop, driven by a desktop body.

The loop is App's own (`step`: the inputs, the timers, the picture, the events; `wait_ms`: how
long to sleep); only its serial side differs from the Pico's, because a desktop has any number
of ports (desktop/ports.py) and sleeps in its own event loop rather than in `select.poll` on
USB:
- the headless server: `step`, then `select.poll` on the ports for `wait()` ms, then `io`;
- the terminal: the same with `select` over the keyboard and the ports;
- the window: Tk calls `step` from `after()` and schedules the next at `wait()`, and calls
  `io` from the ports' file handlers.
A front end's clicks and keys are events on the board (`press`, `release`, `insert`, `remove`),
taken by the next step as the Pico's scan takes the keypad's. Never deployed.
"""

import gc

from app import App
from desktop.ports import Ports
from desktop.simboard import SimBoard


class SimApp(App):
    collect_every = 65536  # bytes allocated between collections on MicroPython

    def __init__(self, unit, clock, ports=None, board=None):
        if hasattr(gc, "threshold"):  # MicroPython: the unix port, the page
            # No pause here collects as the Pico's loop does (App.sleep): collected only once
            # full, the heap has the game's records strewn all over it, and a long reply
            # (LOG 200) finds no run of free blocks that long.
            gc.threshold(self.collect_every)
        self.ports = ports if ports is not None else Ports()
        App.__init__(self, board if board is not None else SimBoard(), unit, clock)
        self.step(clock.now())  # the first picture, as app.boot draws it

    def open_serial(self):
        pass  # no USB port: the ports serve (drain, io)

    def serial(self):
        pass  # the ports' lines are answered by io, at what the body's wait saw

    def drain(self):
        self.ports.drain()

    def wait(self, now):
        """Milliseconds the body may sleep before the next step (0: at once; -1: until input):
        App's wait_ms, and at once while a port has lines to answer. On a virtual clock time
        moves only when told (ADVANCE, HOLD): until input."""
        if self.ports.more():
            return 0
        wait = self.wait_ms(now, not self.clock.virtual)
        if self.ports.waiting() and (wait is None or wait > self.ports.recheck_ms):
            wait = self.ports.recheck_ms  # a port with no client yet (a pty): looked at soon
        return -1 if wait is None else wait

    def io(self, ready):
        """What the body's wait saw on the ports: accepted, read, answered, sent."""
        return self.ports.io(ready)

    # -- a front end's hands ------------------------------------------------------------------

    def press(self, key, now=None):
        self.board.keypad.push("down", key)
        self.step(self.clock.now() if now is None else now)

    def release(self, key, now=None):
        """now: when the key came up, if that was before now (the window's autorepeat
        filter waits a moment before it believes a release)."""
        self.board.keypad.push("up", key)
        self.step(self.clock.now() if now is None else now)

    def insert(self, slot, card):
        """A card into slot; the error code the unit gives (slot-occupied, ...) or None. A
        card the unit refuses is not put in: a drawn slot takes what a real one could not."""
        err = self.unit.card_refusal(slot, card)
        if err is None:
            self.board.slots[slot].push("in", card)
        self.step(self.clock.now())
        return err

    def remove(self, slot):
        err = self.unit.card_refusal(slot)
        if err is None:
            self.board.slots[slot].push("out")
        self.step(self.clock.now())
        return err
