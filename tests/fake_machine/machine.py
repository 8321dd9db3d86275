"""A fake `machine` module for tests, on CPython and on the MicroPython unix port.

It records what the drivers do, so tests can check it against the datasheets' frames:

- `Pin`: every level written to an output is appended to the module-wide `trace` as
  `(pin_id, level)`. An input reads `pin.level`, or, if a test set `pin.reader` (a function of
  no arguments), whatever that returns: that is how a test wires a keypad matrix or a card slot.
  Pins are kept per id in `pins`, so a test can find the pin a board built.
- `Pin.irq(handler, trigger, hard)`: as on rp2, the handler is called with the pin at an edge
  of its level that `trigger` selects. The level an input shows comes from the test's world
  (`pin.reader`), so the edges are looked for at every pin write (a driven row that pulls a
  column down) and whenever a test calls `sense()` after changing its world (a key pressed, a
  card pushed in), the moment the real pin's level would change.
- `PWM`: `freq()` and `duty_u16()` calls are recorded in `pwm.history` as `(freq, duty)`.
- `SPI`: bytes written are appended to `spi.written`.
- `Timer`: init() keeps the callback, which a test calls with `fire()`.
- `lightsleep`, `idle`, `reset`, `freq`, `unique_id` do nothing harmful and count calls.

Only what the firmware uses is here.
"""

trace = []  # (pin id, level) for every write to a pin, in order (the last TRACE_MAX or so)
TRACE_MAX = 4000  # a long run (main.py's loop) keeps only the recent past
pins = {}  # pin id -> the last Pin made for it
sleeps = []  # the ms of every lightsleep() call
resets = [0]
_irqs = []  # [pin, handler, trigger, last level] of every pin with an IRQ handler


def sense():
    """Call the IRQ handler of every pin whose level changed the way its trigger asks."""
    for entry in _irqs:
        pin = entry[0]
        level = pin.value()
        old = entry[3]
        if level != old:
            entry[3] = level
            edge = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
            if entry[2] & edge:
                entry[1](pin)


def clear():
    """Forget the trace and the sleeps (not the pins).

    list.clear(), not `del trace[:]`: MicroPython keeps the room of a list emptied by slice
    (4 KB after a boot), which bench/boot_mp.py would count as the firmware's heap.
    """
    trace.clear()
    sleeps.clear()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        # an unconnected input with a pull-up reads 1
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.reader = None
        self.irq_handler = None
        for entry in _irqs:
            if entry[0].id == id:  # a new Pin for the id: the old object's board is gone
                _irqs.remove(entry)
                break
        if value is not None:
            self.value(value)
        pins[id] = self

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.reader is not None:
                return 1 if self.reader() else 0
            return self.level
        self.level = 1 if v else 0
        trace.append((self.id, self.level))
        if len(trace) > TRACE_MAX:
            del trace[: TRACE_MAX // 2]
        if _irqs:
            sense()
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self.irq_handler = handler
        for entry in _irqs:
            if entry[0] is self:
                _irqs.remove(entry)
                break
        if handler is not None:
            _irqs.append([self, handler, trigger, self.value()])
        return None

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16
        self.history = []
        self.deinited = False

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self.history.append((self._freq, self._duty))
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.history.append((self._freq, self._duty))
        return None

    def deinit(self):
        self.deinited = True
        self._duty = 0
        self.history.append((self._freq, 0))


class SPI:
    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.written = bytearray()

    def write(self, buf):
        self.written.extend(buf)


class Timer:
    """A periodic timer a test fires by hand: callback is what init() set, None once
    deinit()."""

    def __init__(self, id=-1):
        self.callback = None
        self.period = None

    def init(self, mode=None, period=None, callback=None):
        self.period = period
        self.callback = callback

    def deinit(self):
        self.callback = None

    def fire(self):
        if self.callback is not None:
            self.callback(self)


def lightsleep(ms=None):
    sleeps.append(ms)


def idle():
    pass


def reset():
    resets[0] += 1
    raise SystemExit("machine.reset()")


def freq(hz=None):
    return 125000000


def unique_id():
    return b"\xe6\x61\x38\x62\x1b\x2c\x4e\x2a"
