"""Key matrix scanner: 17 keys on 4 rows x 5 columns, debounced, with up/down/long events.

A matrix of normally-open switches (see docs/hardware.md): rows are open-drain outputs,
columns are inputs with pull-ups. Scanning drives one row low at a time (the others released
high); a closed switch pulls its column low. Open-drain rows mean two keys held in one column
never short a driven-high row to a driven-low one (the classic failure of push-pull rows).

Debouncing acts on the first edge (the method of Peter Hinch's micropython-async `Pushbutton`):
a change of a key is reported at once, then that key is ignored for `debounce_ms`, so contact
bounce (under ~10 ms for ordinary tactile switches, e.g. the Omron B3F datasheet's bounce
time) can give neither a second event nor latency. A key still held `long_ms` after its down
event also gives one 'long' event.

Time is given, never read: `scan(now)` takes ticks, deadlines are computed with
ticks_add/ticks_diff. Pins are duck-typed: only `.value()` is used.
"""

from clock import ticks_diff

# The 17 keys of the unit on the reference keypad, row by row (None: no switch there).
LAYOUT = (
    ("7", "8", "9", "C", "DEAL"),
    ("4", "5", "6", "K", "-"),
    ("1", "2", "3", "M", "+"),
    ("0", ".", None, None, None),
)


class Keypad:
    debounce_ms = 30  # >= 20: longer than any bounce, shorter than the fastest double tap
    long_ms = 1000

    def __init__(self, rows, cols, layout):
        self.rows = rows
        self.cols = cols
        self.layout = layout
        n = len(rows) * len(cols)
        self._down = bytearray(n)  # debounced state of each position
        self._long = bytearray(n)  # the long event of this press was given
        self._since = [0] * n  # ticks of the last accepted change
        self._seen = bytearray(n)  # a change was ever accepted (no lockout before the first)
        for r in rows:
            r.value(1)  # released: the idle state between scans

    def scan(self, now):
        """Read the matrix once; return the events [(kind, key), ...], kind 'down'/'up'/'long'.

        Call it every few ms (faster than debounce_ms). Returns an empty tuple when nothing
        happened, allocating nothing.
        """
        events = None
        ncols = len(self.cols)
        debounce = self.debounce_ms
        for r, row_pin in enumerate(self.rows):
            row_pin.value(0)
            keys = self.layout[r]
            for c, col_pin in enumerate(self.cols):
                key = keys[c]
                if key is None:
                    continue
                i = r * ncols + c
                closed = 0 if col_pin.value() else 1
                if closed != self._down[i]:
                    if self._seen[i] and ticks_diff(now, self._since[i]) < debounce:
                        continue  # still bouncing from the change just reported
                    self._down[i] = closed
                    self._since[i] = now
                    self._seen[i] = 1
                    self._long[i] = 0
                    if events is None:
                        events = []
                    events.append(("down" if closed else "up", key))
                elif (closed and not self._long[i]
                      and ticks_diff(now, self._since[i]) >= self.long_ms):
                    self._long[i] = 1
                    if events is None:
                        events = []
                    events.append(("long", key))
            row_pin.value(1)
        return events or ()
