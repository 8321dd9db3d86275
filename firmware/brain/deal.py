"""The deal timer (B13): the unit holds one from its first DEAL and plays the tones it returns."""

from brain.clock import ticks_add, ticks_diff

MIN_MS = 13000
MAX_MS = 50000
WARN_MS = 5000  # the fast flashing and the warning, before the end
DONE_MS = 5000  # the green light, after it
START = "click"
WARNING = "deal-warning"
END = "deal-end"


class Timer:
    def __init__(self, rng):
        self.rng = rng  # randint(lo, hi)
        self.phase = "idle"  # running, ending (its last WARN_MS), done (the green light)
        self.end = 0  # ticks the running deal ends, or ended
        self.at = 0  # ticks of the next step, unless idle

    def press(self, now):
        """DEAL: starts the timer, or ends the one running; the tone."""
        if self.phase == "running" or self.phase == "ending":
            self._finish(now)
            return END
        ms = self.rng.randint(MIN_MS, MAX_MS)
        self.phase = "running"
        self.end = ticks_add(now, ms)
        self.at = ticks_add(now, ms - WARN_MS)
        return START

    def step(self, now):
        """None when no step is due at now, else its tone ("" for none); END ended at `end`."""
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
        self.phase = "idle"
        return ""

    def stop(self):
        self.phase = "idle"

    def _finish(self, at):
        self.phase = "done"
        self.end = at
        self.at = ticks_add(at, DONE_MS)
