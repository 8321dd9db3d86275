"""Key matrix scanner: the unit's 17 keys on a matrix of rows and columns (at most 8), debounced,
with down and up events.

Which key each switch is comes from the pin map (pins.KEYPAD: the reference's 17 switches, a
4x4 membrane and one switch, or a 4x5 membrane; docs/hardware.md, "Keypad").
A matrix of normally-open switches (see docs/hardware.md): rows are open-drain outputs,
columns are inputs with pull-ups. Scanning drives one row low at a time (the others released
high); a closed switch pulls its column low. Open-drain rows mean two keys held in one column
never short a driven-high row to a driven-low one (the classic failure of push-pull rows).

Debouncing acts on the first edge (the method of Peter Hinch's micropython-async `Pushbutton`):
a change of a key is reported at once, then that key is ignored for `debounce_ms`, so contact
bounce (under ~10 ms for ordinary tactile switches, e.g. the Omron B3F datasheet's bounce
time) can give neither a second event nor latency. How long a key is held is the unit's to
time (B11: C held 3 s), from its down event.

Between presses nothing need be scanned: `idle(now)` drives every row low
once no key is down and no lockout runs, so a closing switch pulls its column low at once; with
`listen(trigger)` each column's falling edge sets `woke` from a hard IRQ (a store, nothing
allocated), and the loop sleeps until then. `scan()` releases the rows again first.

Time is given, never read: `scan(now)` takes ticks, deadlines are computed with
ticks_add/ticks_diff. Pins are duck-typed: `.value()`, and `.irq()` for `listen`.
"""

from brain.clock import ticks_diff


class Keypad:
    debounce_ms = 30  # >= 20: longer than any bounce, shorter than the fastest double tap

    def __init__(self, rows, cols, layout):
        self.rows = rows
        self.cols = cols
        self.layout = layout
        n = len(rows) * len(cols)
        self._down = bytearray(n)  # debounced state of each position
        self._since = [0] * n  # ticks of the last accepted change
        self._seen = bytearray(n)  # a change was ever accepted (no lockout before the first)
        self.held = 0  # keys down (debounced)
        self._row_down = bytearray(len(rows))  # debounced: a bit per column (8 at most)
        self._changed = None  # ticks of the last accepted change, None before the first
        self.listening = False  # listen() called: the columns' IRQs set woke
        self.armed = False  # every row driven low, waiting for a column's edge
        self.woke = False  # a column fell (or was low) since idle() armed the matrix
        for r in rows:
            r.value(1)  # released: the idle state between scans

    def listen(self, trigger):
        """Wake on a press: `trigger` is the pins' falling-edge IRQ flag (Pin.IRQ_FALLING)."""
        for pin in self.cols:
            pin.irq(handler=self._edge, trigger=trigger, hard=True)
        self.listening = True

    def _edge(self, pin):
        self.woke = True  # hard IRQ: a store, nothing allocated

    def idle(self, now):
        """Arm the matrix and return True when nothing needs a scan until a column falls: no key
        down and no debounce lockout running (a press in it is seen once it ends). A switch
        already closed leaves `woke` set, so the next turn scans."""
        if not self.listening or self.held or (self._changed is not None
                         and ticks_diff(now, self._changed) < self.debounce_ms):
            return False
        if not self.armed:
            self.woke = False  # the edges of the scan's own row changes
            for r in self.rows:
                r.value(0)
            self.armed = True
        for c in self.cols:
            if not c.value():
                self.woke = True
                break
        return True

    def scan(self, now):
        """Read the matrix once; return the events [(kind, key), ...], kind 'down' or 'up'.

        Call it every few ms (faster than debounce_ms). Returns an empty tuple when nothing
        happened, allocating nothing.
        """
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
            # The row's columns first, as one bit mask: the per-key work below is only for a
            # key closed or down, so a press's first scan is short.
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
        return events or ()
