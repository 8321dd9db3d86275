"""Titan Micro TM1637 LED driver (datasheet V2.4), on a 6-digit module: the LED display option.

Two open-drain wires, data LSB first, an ACK clock after each byte. The chip scans the LEDs
itself, so a flash write that masks interrupts does not make the display flicker. Digits 0-4
are the unit's cells, digit 5 the annunciator. Pins: CLK an output, DIO open drain.
"""

try:
    from micropython import const
except ImportError:  # CPython
    const = int  # type: ignore[assignment]

_DATA_WRITE = const(0x40)  # to the display registers, the address auto-incremented
_ADDRESS = const(0xC0)
_DISPLAY_ON = const(0x88)
_DISPLAY_OFF = const(0x80)


class TM1637:
    brightness = 2  # 0-7
    digits = 6
    cells = 5
    annunciator = 5
    grid_order = (2, 1, 0, 5, 4, 3)  # the grid of each digit, left to right
    k_glyph = 0x75  # a c e f g
    M_glyph = 0x37  # a b c e f

    def __init__(self, clk, dio):
        self.clk = clk
        self.dio = dio
        self._shown = None
        self._lit = False  # DISPLAY_ON sent since the last DISPLAY_OFF
        clk.value(1)
        dio.value(1)

    def _start(self):
        self.dio.value(1)
        self.clk.value(1)
        self.dio.value(0)  # DIO falls while CLK is high
        self.clk.value(0)

    def _stop(self):
        self.clk.value(0)
        self.dio.value(0)
        self.clk.value(1)
        self.dio.value(1)  # DIO rises while CLK is high

    def _byte(self, b):
        # The bits are most of the time from a key to its digit: bound methods looked up once,
        # DIO written only when the bit changes (the chip reads it at CLK's rising edge).
        clk = self.clk.value
        dio = self.dio.value
        last = -1
        for i in range(8):
            clk(0)
            bit = (b >> i) & 1
            if bit != last:
                dio(bit)
                last = bit
            clk(1)
        clk(0)  # the ninth clock: DIO released, the chip's ACK
        dio(1)
        clk(1)
        clk(0)

    def frame(self, data):
        self._start()
        for b in data:
            self._byte(b)
        self._stop()

    def show_patterns(self, patterns, k, M):
        """Five cells' patterns, left to right, and the annunciator; only changes are written."""
        grids = bytearray(self.digits)
        order = self.grid_order
        for i in range(self.cells):
            grids[order[i]] = patterns[i] & 0xFF
        grids[order[self.annunciator]] = self.M_glyph if M else (self.k_glyph if k else 0)
        if grids == self._shown:
            return
        self._update(grids)

    def _update(self, grids):
        """From the first grid that changed to the last, then on if off: the picture is in
        before it lights."""
        shown = self._shown
        first = 0
        last = len(grids) - 1
        if shown is not None:
            while grids[first] == shown[first]:
                first += 1
            while grids[last] == shown[last]:
                last -= 1
        self.frame((_DATA_WRITE,))
        self.frame(bytes((_ADDRESS | first,)) + grids[first:last + 1])
        if not self._lit:
            self.frame((_DISPLAY_ON | (self.brightness & 7),))
            self._lit = True
        self._shown = grids

    def off(self):
        self.frame((_DISPLAY_OFF,))
        self._shown = None
        self._lit = False
