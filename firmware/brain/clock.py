"""Ticks arithmetic: milliseconds modulo 2**30, as MicroPython's time.ticks_ms().

Spelled out, not borrowed from time, so the rules run the same on every interpreter and no
value ever outgrows a small int.
"""

try:
    from micropython import const
except ImportError:  # CPython
    const = int  # type: ignore[assignment]

_MASK = const((1 << 30) - 1)
_HALF = const(1 << 29)


def ticks_add(t, delta):
    return (t + delta) & _MASK


def ticks_diff(a, b):
    """a - b, signed: valid while the two are less than 2**29 ms (6 days) apart."""
    return ((a - b + _HALF) & _MASK) - _HALF


def sooner(a, b):
    """The sooner of two ticks, None for never."""
    if a is None:
        return b
    if b is None:
        return a
    return b if ticks_diff(b, a) < 0 else a


class RealClock:
    """Wall time; only HOLD waits on it (protocol/__init__.py)."""

    virtual = False

    def __init__(self, ticks_ms, sleep_ms):
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms

    def now(self):
        return self.ticks_ms() & _MASK
