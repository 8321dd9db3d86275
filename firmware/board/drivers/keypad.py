"""Key matrix: open-drain rows driven low one at a time, pulled-up columns (docs/hardware.md,
"Keypad"); which key each switch is, is the pin map's.

It debounces on the first edge (as Peter Hinch's micropython-async Pushbutton): a change is
reported at once, then that key is ignored for `debounce_ms`. Between presses every row is
driven low, so a closing switch pulls its column low at once and the loop sleeps until that
edge. The edge's interrupt looks at the matrix as a scan does and keeps what changed, in order,
and while the loop is busy (a checkpoint, a long reply: watch()) a timer looks too: keys
pressed and let go meanwhile are still presses and releases, in the order they came.
"""

from brain.clock import ticks_diff


class Keypad:
    debounce_ms = 30  # >= 20: longer than any bounce, shorter than the fastest double tap
    # While the loop is busy (watch()), the matrix is also looked at this often: a release
    # makes no edge, and a key let go and pressed again in that time is two presses.
    look_ms = 10
    kept = 32  # changes a busy loop's turn keeps, a press and a release each: 16 taps

    def __init__(self, rows, cols, layout):
        if len(layout) < len(rows) or [r for r in layout[:len(rows)] if len(r) < len(cols)]:
            raise ValueError("KEYPAD has not a key (or None) for each row and column")
        self.rows = rows
        self.cols = cols
        self.layout = layout
        n = len(rows) * len(cols)
        self._down = bytearray(n)  # each switch, debounced
        self._since = [0] * n  # ticks of the last accepted change
        self._seen = bytearray(n)  # a change was ever accepted (no lockout before the first)
        self.held = 0  # keys down (debounced)
        self._row_down = bytearray(len(rows))  # a bit per column (8 at most): _down, by row
        self._closed = bytearray(len(rows))  # ... and as the last look found them
        self._changes = bytearray(self.kept)  # the switch, +128 for a release, until a scan
        self._n = 0
        self._looked = 0  # ticks of the last look, and the columns it found a switch closed in
        self._cols_closed = 0
        self._changed = None  # ticks of the last accepted change, None before the first
        self.listening = False
        self.armed = False  # every row driven low, waiting for a column's edge
        self.woke = False  # a column fell (or was low) since the matrix was armed
        for r in rows:
            r.value(1)

    def listen(self, trigger, ticks, timer=None):
        """Wake on a press: trigger is Pin.IRQ_FALLING; ticks the loop's clock (time.ticks_ms),
        by which a look tells a chattering contact in its lockout from a press; timer a
        machine.Timer for the looks while the loop is busy. A release makes no edge (rp2040py
        latches a rising one whenever a column reads high, changed or not): the timer's next
        look, the next press's or the next scan finds it."""
        self._ticks = ticks
        for pin in self.cols:
            pin.irq(handler=self._edge, trigger=trigger, hard=True)
        self.listening = True
        self._timer = timer
        self._timed = False
        self._looker = self._timed_look  # made once: watch() allocates nothing

    def _edge(self, pin):
        # Hard IRQ: pins and stores, nothing allocated. A look drives the rows, so a column a
        # switch closes makes edges of its own; they, and the bounce of a contact just looked
        # at, come within a lockout of that look and are no news.
        self.woke = True
        if not self.armed:
            return
        now = self._ticks()
        if (self._cols_closed >> self.cols.index(pin)) & 1 and ticks_diff(
                now, self._looked) < self.debounce_ms:
            return
        self._look_armed(now)

    def _timed_look(self, timer):
        # A soft callback (v1.25.0's Timer has no hard one): it runs between the busy turn's
        # bytecodes, never inside the edge's look.
        self.woke = True  # the next turn scans, which ends these looks
        if self.armed:
            self._look_armed(self._ticks())

    def _look_armed(self, now):
        self.armed = False  # an edge the look makes is not looked at within it
        for r in self.rows:
            r.value(1)
        self._look(now)
        for r in self.rows:
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
        if not self.listening or self.held or changed is not None:
            return False
        self._arm()
        return True

    def watch(self):
        """Before the loop is busy for a while (a key's work, a host's command): armed even
        while a lockout runs or a key is down, and looked at every look_ms until the next scan,
        so that keys pressed meanwhile are seen (a key in a held key's column makes no edge:
        its column is low already)."""
        if self.listening:
            self._arm()
            if self._timer is not None and not self._timed:
                self._timed = True
                self._timer.init(period=self.look_ms, callback=self._looker)

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
        """[(kind, key), ...], kind 'down' or 'up', in the order they came; () when nothing
        happened, allocating nothing."""
        if self.listening and self._timed:
            self._timed = False
            self._timer.deinit()
        if self.armed:
            self.armed = False  # first: the edge's look is the scan's from here on
            for r in self.rows:
                r.value(1)
        self._look(now)
        n = self._n
        if not n:
            return ()
        ncols = len(self.cols)
        events = []
        for j in range(n):
            i = self._changes[j]
            switch = i & 127
            key = self.layout[switch // ncols][switch % ncols]
            events.append(("up" if i & 128 else "down", key))
        self._n = 0
        return events

    def _look(self, now):
        """Every row in turn, each accepted change kept: releases first, which a press's edge
        found over, so came before it. Nothing allocated (the edge's IRQ runs it)."""
        cols = self.cols
        closed = self._closed
        seen = 0
        for r in range(len(self.rows)):
            row = self.rows[r]
            row.value(0)
            mask = 0
            bit = 1
            for c in cols:
                if not c.value():
                    mask |= bit
                bit <<= 1
            row.value(1)
            closed[r] = mask
            seen |= mask
        self._looked = now
        self._cols_closed = seen
        self._keep(now, 0)
        self._keep(now, 1)

    def _keep(self, now, pressed):
        ncols = len(self.cols)
        down, row_down = self._down, self._row_down
        for r in range(len(self.rows)):
            moved = (self._closed[r] ^ row_down[r]) & (self._closed[r] if pressed else row_down[r])
            c = 0
            while moved:
                if moved & 1 and self.layout[r][c] is not None:
                    i = r * ncols + c
                    if self._n < self.kept and not (
                            self._seen[i] and ticks_diff(now, self._since[i]) < self.debounce_ms):
                        down[i] = pressed
                        row_down[r] ^= 1 << c
                        self._since[i] = self._changed = now
                        self._seen[i] = 1
                        self.held += 1 if pressed else -1
                        self._changes[self._n] = i if pressed else i + 128
                        self._n += 1
                moved >>= 1
                c += 1
