"""Ticks arithmetic and the Pico's clock (the simulator's and the tests' virtual clock, which
the Pico never imports, is in desktop/vclock.py).

Ticks are milliseconds modulo 2**30, as MicroPython's ``time.ticks_ms()``. The arithmetic is
spelled out here (not borrowed from ``time``) so the core is a pure function of the ticks it is
given and behaves the same on CPython, the unix port and the Pico, forever: no value ever
outgrows a small int.
"""

try:
    from micropython import const
except ImportError:  # CPython: const() is MicroPython's compile-time constant; int(x) is x
    const = int  # type: ignore[assignment]  # not a def: a Pico would keep its code

TICKS_PERIOD = const(1 << 30)
_MASK = const((1 << 30) - 1)  # const: folded into the code, not kept in the module
_HALF = const(1 << 29)


def ticks_add(t, delta):
    return (t + delta) & _MASK


def ticks_diff(a, b):
    """a - b as a signed distance, valid while the two are less than ~6 days apart."""
    return ((a - b + _HALF) & _MASK) - _HALF


class RealClock:
    """Wall time from the host. Waiting is real too: HOLD on a real unit holds the key for its
    ms (protocol/__init__.py does it with sleep_ms, the only code that ever waits on this
    clock)."""

    virtual = False

    def __init__(self, ticks_ms, sleep_ms):
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms

    def now(self):
        return self.ticks_ms() & _MASK
