"""Titan Micro TM1637 LED driver (the LED display option: runs from 3.3 V logic).

Follows the TM1637 datasheet (Titan Micro Electronics, V2.4):
- "Interface interpretation": a two-wire bus, CLK and DIO, both open drain with pull-ups on the
  module. Start: DIO falls while CLK is high. Stop: DIO rises while CLK is high. Data bits go
  LSB first, DIO changed while CLK is low and read by the chip on the CLK rising edge; after
  each byte a ninth clock in which the chip pulls DIO low (ACK).
- "Data command setting": 0x40 = write to the display registers, addresses auto-increment.
- "Address command setting": 0xC0 | address (0-5), followed by the data bytes.
- "Display control": 0x80 | 0x08 (display on) | brightness 0-7; 0x80 alone = display off.
- "Display register address": each grid is one byte, SEG1..SEG8 = bit 0..bit 7, which on
  7-segment modules is a b c d e f g dp: the same bit order as segments.py.

The chip scans the LEDs itself, so nothing here runs from a timer: a flash write that masks
interrupts does not make the display flicker.

The module: a 6-digit TM1637 board whose grids run 2 1 0 5 4 3 from the left (`grid_order`).
Digits 0-4 are the unit's five cells; digit 5 is the annunciator cell showing `k_glyph` or
`M_glyph`. Pins are duck-typed `.value()`: CLK an output, DIO an open-drain pin (value(1)
releases it; reading it gives the line level, the chip's ACK).
"""


class TM1637:
    DATA_WRITE = 0x40
    ADDRESS = 0xC0
    DISPLAY_ON = 0x88
    DISPLAY_OFF = 0x80

    brightness = 2  # 0-7: the pulse width of "Display control"
    digits = 6
    cells = 5
    annunciator = 5
    grid_order = (2, 1, 0, 5, 4, 3)  # grid address of each digit, left to right
    k_glyph = 0x75  # a c e f g
    M_glyph = 0x37  # a b c e f

    def __init__(self, clk, dio):
        self.clk = clk
        self.dio = dio
        self._shown = None
        self._lit = False  # Display control ON sent since the last OFF
        self.acks = 0  # bytes the chip acknowledged: 0 means no display is there
        clk.value(1)
        dio.value(1)

    # -- the bus ----------------------------------------------------------------------------

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
        # Bound methods looked up once, DIO written only when the bit changes (the chip reads
        # it at CLK's rising edge): the bits are most of the time from a key to its digit.
        clk = self.clk.value
        dio = self.dio.value
        last = -1
        for i in range(8):  # LSB first
            clk(0)
            bit = (b >> i) & 1
            if bit != last:
                dio(bit)
                last = bit
            clk(1)
        clk(0)  # the ninth clock: release DIO, the chip pulls it low
        dio(1)
        clk(1)
        if not dio():
            self.acks += 1
        clk(0)

    def frame(self, data):
        """One start .. stop frame carrying the bytes `data`."""
        self._start()
        for b in data:
            self._byte(b)
        self._stop()

    # -- the display ------------------------------------------------------------------------

    def show_patterns(self, patterns, k, M):
        """Show five cell patterns (left to right) and an annunciator; writes only changes."""
        grids = bytearray(self.digits)
        order = self.grid_order
        for i in range(self.cells):
            grids[order[i]] = patterns[i] & 0xFF
        grids[order[self.annunciator]] = self.M_glyph if M else (self.k_glyph if k else 0)
        if grids == self._shown:
            return
        self._update(grids)

    def _update(self, grids):
        """Write the grids from the first that differs from what is shown to the last (the
        addresses auto-increment), then switch on if off: the picture is in before it lights."""
        shown = self._shown
        first = 0
        last = len(grids) - 1
        if shown is not None:
            while grids[first] == shown[first]:
                first += 1
            while grids[last] == shown[last]:
                last -= 1
        self.frame((self.DATA_WRITE,))
        self.frame(bytes((self.ADDRESS | first,)) + grids[first:last + 1])
        if not self._lit:
            self.frame((self.DISPLAY_ON | (self.brightness & 7),))
            self._lit = True
        self._shown = grids

    def off(self):
        self.frame((self.DISPLAY_OFF,))
        self._shown = None
        self._lit = False
