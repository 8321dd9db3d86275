"""The lights' blink patterns (B13), as a function of time for every body."""

SLOW_MS = 500  # on, then off as long
FAST_MS = 125


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
    """Ticks lit(mode, .) next changes, or None."""
    if mode == "slow":
        return (now // SLOW_MS + 1) * SLOW_MS
    if mode == "fast":
        return (now // FAST_MS + 1) * FAST_MS
    return None
