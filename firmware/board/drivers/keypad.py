"""Key matrix: open-drain rows driven low one at a time, pulled-up columns (docs/hardware.md,
"Keypad"); which key each switch is, is the pin map's.

It debounces on the first edge (as Peter Hinch's micropython-async Pushbutton): a change is
reported at once, then that key is ignored for `debounce_ms`. Between presses every row is
driven low, so a closing switch pulls its column low at once and the loop sleeps until that
edge. The edge's interrupt finds which switch closed, so a tap over before the loop's next scan
(the loop busy with a long reply) is still a press and a release.
"""

from brain.clock import ticks_diff


class Keypad:
    debounce_ms = 30  # >= 20: longer than any bounce, shorter than the fastest double tap

    def __init__(self, rows, cols, layout):
        self.rows = rows
        self.cols = cols
        self.layout = layout
        n = len(rows) * len(cols)
        self._down = bytearray(n)  # each switch, debounced
        self._since = [0] * n  # ticks of the last accepted change
        self._seen = bytearray(n)  # a change was ever accepted (no lockout before the first)
        self.held = 0  # keys down (debounced)
        self._row_down = bytearray(len(rows))  # a bit per column (8 at most): _down, by row
        self._changed = None  # ticks of the last accepted change, None before the first
        self.listening = False
        self.armed = False  # every row driven low, waiting for a column's edge
        self.woke = False  # a column fell (or was low) since idle() armed the matrix
        self.tapped = -1  # the switch the first such edge found closed, until a scan tells
        self._open_at = None  # when a scan first found it open again
        for r in rows:
            r.value(1)

    def listen(self, trigger, ticks):
        """Wake on a press: trigger is Pin.IRQ_FALLING; ticks the loop's clock (time.ticks_ms),
        by which an edge tells a chattering contact in its lockout from a tap."""
        self._ticks = ticks
        for pin in self.cols:
            pin.irq(handler=self._edge, trigger=trigger, hard=True)
        self.listening = True

    def _edge(self, pin):
        # Hard IRQ: pins and stores, nothing allocated. Every row is low while armed: one at a
        # time says which switch closed (each edge of a bounce is another look; the edges of
        # the look itself are not).
        self.woke = True
        if not self.armed or self.tapped >= 0:
            return
        self.armed = False
        # A key in its lockout (armed by watch()) may still chatter, and one held down is no
        # tap: neither is taken.
        now = self._ticks()
        seen, since = self._seen, self._since  # pairs: a longer tuple would be allocated
        down = self._down
        rows, cols = self.rows, self.cols
        for r in rows:
            r.value(1)
        for r in range(len(rows)):
            rows[r].value(0)
            for c in range(len(cols)):
                i = r * len(cols) + c
                if not cols[c].value() and not down[i] and not (
                        seen[i] and ticks_diff(now, since[i]) < self.debounce_ms):
                    self.tapped = i
            rows[r].value(1)
        for r in rows:
            r.value(0)
        self.armed = True

    def idle(self, now):
        """Arms the matrix and returns True when nothing needs a scan until a column falls; a
        switch already closed leaves woke set."""
        changed = self._changed
        if changed is not None and ticks_diff(now, changed) >= self.debounce_ms:
            # Every key's lockout is over: forgotten, or a key last used 2**29 ms (6.2 days)
            # before would read as changed just now, and stay locked as long again.
            changed = self._changed = None
            seen = self._seen
            for i in range(len(seen)):
                seen[i] = 0
        if not self.listening or self.held or changed is not None or self.tapped >= 0:
            return False
        self._arm()
        return True

    def watch(self):
        """Before the loop is busy for a while (a host's command): armed even while a lockout
        runs or a key is down, so that a tap meanwhile is found at its edge (one in a held
        key's column makes none)."""
        if self.listening and self.tapped < 0:
            self._arm()

    def _arm(self):
        if not self.armed:
            self.woke = False  # the edges of the scan's own row changes
            for r in self.rows:
                r.value(0)
            self.armed = True
        for c in self.cols:
            if not c.value():
                self.woke = True
                break

    def scan(self, now):
        """[(kind, key), ...], kind 'down' or 'up'; () when nothing happened, allocating
        nothing."""
        events = None
        cols = self.cols
        ncols = len(cols)
        debounce = self.debounce_ms
        down = self._down
        if self.armed:
            self.armed = False
            for r in self.rows:
                r.value(1)  # one row at a time from here on
        row_down = self._row_down
        for r, row_pin in enumerate(self.rows):
            # The row's columns first, as one mask: the work below is for keys closed or down.
            row_pin.value(0)
            closed_mask = 0
            bit = 1
            for col_pin in cols:
                if not col_pin.value():
                    closed_mask |= bit
                bit <<= 1
            row_pin.value(1)
            active = closed_mask | row_down[r]
            if not active:
                continue  # nothing closed, nothing to release
            keys = self.layout[r]
            c = -1
            while active:
                c += 1
                bit = active & 1
                active >>= 1
                if not bit:
                    continue
                key = keys[c]
                if key is None:
                    continue
                i = r * ncols + c
                closed = (closed_mask >> c) & 1
                if closed != down[i]:
                    if self._seen[i] and ticks_diff(now, self._since[i]) < debounce:
                        continue  # still bouncing from the change just reported
                    down[i] = closed
                    row_down[r] ^= 1 << c
                    self._since[i] = now
                    self._seen[i] = 1
                    self._changed = now
                    self.held += 1 if closed else -1
                    if events is None:
                        events = []
                    events.append(("down" if closed else "up", key))
        tapped = self.tapped
        if tapped >= 0:
            # Open at a scan: a bounce, or the tap is over. Still open a debounce later, over;
            # over at once when another key moved since, which it came before (reported
            # after, a "-" tapped ahead of a digit committed another entry than the one typed).
            if down[tapped] or (self._open_at is None and events is None):
                self._open_at = None if down[tapped] else now
            elif events is not None or ticks_diff(now, self._open_at) >= debounce:
                key = self.layout[tapped // ncols][tapped % ncols]
                if key is not None:
                    self._since[tapped] = self._changed = now
                    self._seen[tapped] = 1
                    events = [("down", key), ("up", key)] + (events or [])
                self._open_at = None
            if self._open_at is None:
                self.tapped = -1
        return events or ()
