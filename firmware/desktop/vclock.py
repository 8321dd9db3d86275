"""The virtual clock of the simulator (--virtual-clock) and the tests: time moves only when told.

Not imported on the Pico (main.py uses clock.RealClock), so it costs the unit no heap.
"""

from brain.clock import ticks_add, ticks_diff


def run_until(unit, start, target):
    """Let time pass from start to target, firing every timer of the unit on its own tick."""
    now = start
    while True:
        due = unit.deadline()
        if due is None or ticks_diff(due, target) > 0:
            break
        if ticks_diff(due, now) > 0:
            now = due
        if not unit.tick(now):
            break  # a deadline that changes nothing: never spin on it
    unit.tick(target)
    return target


class VirtualClock:
    """Time moves only when told (ADVANCE, HOLD): tests run a 50 s deal in microseconds."""

    virtual = True

    def __init__(self, start=0):
        self.t = ticks_add(start, 0)

    def now(self):
        return self.t

    def advance(self, unit, ms):
        self.t = run_until(unit, self.t, ticks_add(self.t, ms))
