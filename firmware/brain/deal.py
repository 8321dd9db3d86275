"""The deal timer (B13): DEAL starts a countdown of a random 13 to 50 s; the red light flashes
slowly, then fast for its last 5 s with a warning; at the end a tone, and the green light
flashes for 5 s. DEAL again while it runs ends it there.

The unit keeps the timer's state (`deal`: idle, running, ending, done; `_deal_end`, and
`_deal_at`, the ticks of the next step); its tuning is here. This code runs only
at the DEAL key and at those steps, a few times a game, so the unit reaches it through
transient.call and a Pico keeps it off its heap in between, with the hardware random source.
"""

from brain.clock import ticks_add, ticks_diff

MIN_MS = 13000  # the seed's numbers
MAX_MS = 50000
WARN_MS = 5000  # the fast flashing and the warning, before the end
DONE_MS = 5000  # the green light, after it


def press(unit, now):
    """The DEAL key: start the timer, or end the one running."""
    if unit.deal == "running" or unit.deal == "ending":
        _finish(unit, now)
        return
    rng = unit.rng
    if rng is None:  # a Pico: numbers from the hardware, drawn only here
        from board.rng import Entropy

        rng = Entropy()
    ms = rng.randint(MIN_MS, MAX_MS)
    unit.deal = "running"
    unit._deal_end = ticks_add(now, ms)
    unit._deal_at = ticks_add(now, ms - WARN_MS)
    unit._tone("click")


def tick(unit, now):
    """Take every step of the timer that is due at now (the unit's tick found the first one)."""
    while unit.deal != "idle" and ticks_diff(now, unit._deal_at) >= 0:
        deal = unit.deal
        unit.rev += 1
        if deal == "running":
            unit.deal = "ending"
            unit._deal_at = unit._deal_end
            unit._tone("deal-warning")
        elif deal == "ending":
            _finish(unit, unit._deal_end)
        else:
            unit.deal = "idle"  # the green light's 5 s are over


def _finish(unit, at):
    unit.deal = "done"
    unit._deal_at = ticks_add(at, DONE_MS)
    unit._last = at  # B16: a deal end counts as activity
    unit._tone("deal-end")
