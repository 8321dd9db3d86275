"""The game clock (B20), and its view on the unit.

All it does happens as the time left crosses a whole minute: the warnings, the end, and the
copy the store keeps, so a power cut costs at most a minute.
"""

from brain.clock import ticks_add, ticks_diff

MINUTE = 60000
MOST = 999  # minutes: the five cells show three digits and the seconds
WARN = (5 * MINUTE, MINUTE)  # the warnings, as time left
SHOW_MS = 3000  # a warning's time left on the display


class Clock:
    def __init__(self, kept=None):
        self.minutes = 0  # 0: no clock
        self.left = 0  # ms left, when not running
        self.running = False
        self.end = 0  # ticks the running clock reaches 0
        self.mark = 0  # ms left when last looked at: warnings cross it (step)
        self.seen = True  # the End picture was answered by a key
        self.at = 0  # ticks the unit last told it: what its view and STATE show
        if kept is not None:
            self.minutes, self.left, running, seen = kept
            self.mark = self.left
            self.seen = bool(seen)
            self.running = bool(running) and self.left > 0

    def kept(self):
        """(minutes, ms left, running 0/1, End seen 0/1), or None with no clock."""
        if not self.minutes:
            return None
        return (self.minutes, self.left, 1 if self.running else 0, 1 if self.seen else 0)

    def over(self):
        return self.minutes and not self.running and not self.left

    def ending(self):
        """Over, its End not yet answered by a key."""
        return self.over() and not self.seen

    def left_at(self, now):
        if not self.running:
            return self.left
        left = ticks_diff(self.end, now)
        return left if left > 0 else 0

    def resume(self, now):
        """At boot: running, it runs on from what was kept."""
        self.at = now
        if self.running:
            self.end = ticks_add(now, self.left)

    def set(self, minutes, now):
        """A new length, started; 0 takes the clock away."""
        self.minutes = minutes
        self.left = self.mark = minutes * MINUTE
        self.seen = True
        self.running = minutes > 0
        self.end = ticks_add(now, self.left)
        self.at = now

    def start(self, now):
        self.running = True
        self.end = ticks_add(now, self.left)
        self.at = now

    def stop(self, now):
        self.left = self.mark = self.left_at(now)
        self.running = False

    def due(self):
        """Ticks of the next whole minute the running clock crosses, or None."""
        if not self.running:
            return None
        return ticks_add(self.end, -((self.mark - 1) // MINUTE) * MINUTE)

    def step(self, now):
        """None (nothing due), "minute" (to keep), "warning" or "end"."""
        if not self.running:
            return None
        old = self.mark
        new = self.left_at(now)
        if (old + MINUTE - 1) // MINUTE == (new + MINUTE - 1) // MINUTE:
            return None  # still within the same minute
        self.mark = self.left = new
        if not new:
            self.running = False
            self.seen = False
            return "end"
        for w in WARN:
            if old > w >= new:
                return "warning"
        return "minute"

    def text(self, now):
        """The time left: "90.00"."""
        if not self.minutes:
            return "--.--"
        s = (self.left_at(now) + 999) // 1000
        return "%d.%02d" % (s // 60, s % 60)

    def next_second(self, now):
        """Ticks the text changes next, or None while stopped."""
        if not self.running:
            return None
        left = self.left_at(now)
        return ticks_add(self.end, -((left - 1) // 1000) * 1000) if left else None


def keep(unit, clock):
    """clock (None: no clock) kept (B17) and made the unit's; False, refused and as it was,
    if the store failed."""
    err = unit.ledger.set("t", None if clock is None else clock.kept())
    if err:
        unit._refuse(err)
        return False
    unit.game_clock = clock
    unit.rev += 1
    unit._emit("clock", None)
    return True


def view_key(unit, key, now):
    """A key in the clock's view: True if the view took it."""
    entry = unit.entry
    clk = unit.game_clock
    if key in "0123456789" and len(key) == 1:
        if len(entry) >= 3:
            unit._refuse("bad-entry")
            return True
        return False  # typed as any entry
    if key == "." or key == "M":
        unit._refuse("bad-entry")
        return True
    if key == "K":
        unit.view = None
        unit._clear_entry()
        unit._tone("click")
        return True
    if key == "+":
        if entry:
            minutes = int(entry)
            if minutes > MOST:
                unit._refuse("bad-entry")
                return True
            clock = Clock()
            clock.set(minutes, now)
            if keep(unit, clock if minutes else None):
                unit._clear_entry()
                unit._tone("click")
            return True
        if clk is None or clk.over() or clk.running:
            if clk is None or clk.over():
                unit._refuse("no-clock")
            return True
        clk.start(now)
        if keep(unit, clk):
            unit._tone("click")
        else:
            clk.stop(now)
        return True
    if key == "-":
        if entry:
            unit._refuse("bad-entry")
            return True
        if clk is None or clk.over():
            unit._refuse("no-clock")
            return True
        if clk.running:
            clk.stop(now)
            if keep(unit, clk):
                unit._tone("click")
            else:
                clk.start(now)
        return True
    if key == "C":
        return False  # on its release: clear()
    unit.view = None  # DEAL: the view ends, and the key acts ...
    unit._clear_entry()  # ... the minutes typed with it, which are no amount
    return False


def stepped(unit, clk, step, now):
    """A step of Clock.step on the unit: kept, said, and a warning's or the end's tone and
    picture."""
    unit.ledger.set("t", clk.kept())  # failed, the clock runs on (B20: kept next minute)
    unit._emit("clock", None)
    unit.rev += 1
    if step == "minute":
        return
    if not unit.power:
        unit.wake(now)  # B20: a unit switched off wakes for a warning and the end
    unit._last = now
    if step == "warning":
        unit._show((clk.text(now), False, False), now, SHOW_MS)
        unit._tone("clock-warning")
    else:
        unit.view = None
        # A key held through the end does nothing, C's new game (B11) too: End is shown.
        unit.held = None
        unit._c_fired = True
        unit._clear_entry()
        unit._tone("clock-end")
