"""The deal timer (B13): DEAL starts a countdown of a random 13 to 50 s; the red light flashes
slowly, then fast for its last 5 s with a warning; at the end a tone, and the green light
flashes for 5 s. DEAL again while it runs ends it there.

The timer keeps its own state; the unit holds one from its first DEAL press (this module is
imported then, and kept: a unit that never deals never loads it) and plays the tones each
step returns.
"""

from brain.clock import ticks_add, ticks_diff

MIN_MS = 13000  # the seed's numbers
MAX_MS = 50000
WARN_MS = 5000  # the fast flashing and the warning, before the end
DONE_MS = 5000  # the green light, after it
# The tones (B18) the timer's steps sound; the unit plays them.
START = "click"
WARNING = "deal-warning"
END = "deal-end"


class Timer:
    def __init__(self, rng):
        self.rng = rng  # randint(lo, hi): the hardware's on a Pico (board/rng.py)
        self.phase = "idle"  # running, ending (its last WARN_MS), done (the green light)
        self.end = 0  # ticks the running deal ends, or ended
        self.at = 0  # ticks of the next step, unless idle

    def press(self, now):
        """The DEAL key: start the timer, or end the one running; the tone it sounds."""
        if self.phase == "running" or self.phase == "ending":
            self._finish(now)
            return END
        ms = self.rng.randint(MIN_MS, MAX_MS)
        self.phase = "running"
        self.end = ticks_add(now, ms)
        self.at = ticks_add(now, ms - WARN_MS)
        return START

    def step(self, now):
        """The next step, if one is due at now: the tone it sounds ("" for none); None when no
        step is due. A deal that ends (END) ended at `end`."""
        phase = self.phase
        if phase == "idle" or ticks_diff(now, self.at) < 0:
            return None
        if phase == "running":
            self.phase = "ending"
            self.at = self.end
            return WARNING
        if phase == "ending":
            self._finish(self.end)
            return END
        self.phase = "idle"  # the green light's 5 s are over
        return ""

    def stop(self):
        self.phase = "idle"

    def _finish(self, at):
        self.phase = "done"
        self.end = at
        self.at = ticks_add(at, DONE_MS)
