"""The red and green lights' blink patterns (B13's slow and fast flashing) as a pure function of
time, for every body."""

SLOW_MS = 500  # on 500 ms, off 500 ms
FAST_MS = 125  # on 125 ms, off 125 ms


def lit(mode, now):
    """Whether a light in mode ('off', 'on', 'slow', 'fast') is lit at ticks now."""
    if mode == "on":
        return True
    if mode == "slow":
        return (now // SLOW_MS) % 2 == 0
    if mode == "fast":
        return (now // FAST_MS) % 2 == 0
    return False


def next_change(mode, now):
    """Ticks at which lit(mode, .) next changes, or None: a host sleeps until then."""
    if mode == "slow":
        return (now // SLOW_MS + 1) * SLOW_MS
    if mode == "fast":
        return (now // FAST_MS + 1) * FAST_MS
    return None
