"""app.App on the simulated board: the Pico's loop, driven by a desktop body.

The loop is App's own (`step`: timers, keys, slots, picture, events); only its serial side and
its wait differ from the Pico's, because a desktop has any number of ports (desktop/ports.py)
and sleeps in its own event loop rather than in `select.poll` on USB:
- the headless server: `step`, then `select.poll` on the ports for `wait()` ms, then `io`;
- the terminal: the same with `select` over the keyboard and the ports;
- the window: Tk calls `step` from `after()` and schedules the next at `wait()`, and calls
  `io` from the ports' file handlers.
A front end's clicks and keys are events on the board (`press`, `release`, `insert`, `remove`),
taken by the next step as the Pico's scan takes the keypad's. Never deployed.
"""

from app import App
from board import lights
from brain.clock import ticks_diff
from desktop.ports import Ports
from desktop.simboard import SimBoard


class SimApp(App):
    def __init__(self, unit, clock, ports=None, board=None):
        self.ports = ports if ports is not None else Ports()
        App.__init__(self, board if board is not None else SimBoard(), unit, clock, None, None)
        self.step(clock.now())  # the first picture, as app.boot draws it

    def open_serial(self, stdin, stdout):
        pass  # no USB port: the ports serve (drain, io)

    def drain(self):
        self.ports.drain()

    def wait(self, now):
        """Milliseconds the body may sleep before the next step (0: at once; -1: until input):
        the unit's next deadline or a light's next blink, whichever is first. On a virtual
        clock time moves only when told (ADVANCE, HOLD): until input."""
        if self.board.pending() or self.ports.more():
            return 0
        # A port with no client yet (a pty) is looked at again soon, whatever the clock.
        wait = self.ports.recheck_ms if self.ports.waiting() else -1
        if self.clock.virtual:
            return wait
        modes = self.board.leds.modes
        for due in (self.unit.deadline(), lights.next_change(modes[0], now),
                    lights.next_change(modes[1], now)):
            if due is not None:
                left = ticks_diff(due, now)
                left = left if left > 0 else 0
                if wait < 0 or left < wait:
                    wait = left
        return wait

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
        """A card into slot; the error code the unit gave (slot-occupied, ...) or None."""
        self.refused = None
        self.board.slots[slot].push("in", card)
        self.step(self.clock.now())
        return self.refused

    def remove(self, slot):
        self.refused = None
        self.board.slots[slot].push("out")
        self.step(self.clock.now())
        return self.refused
