"""Holtek HT1621 segment-LCD driver (the reference display: battery friendly).

Follows the HT1621 datasheet (Holtek, "HT1621 RAM Mapping 32x4 LCD Controller for I/O MCU"):
- "Command Format" and "Command Summary": a frame starts with CS low and a 3-bit mode ID:
  `100` COMMAND mode, then a 9-bit command (C8..C1 MSB first, then one don't-care bit);
  `101` WRITE mode, then the 6-bit RAM address A5..A0 (MSB first), then data nibbles
  D0 D1 D2 D3 (D0 first); in "successive address writing" further nibbles go to the next
  addresses. CS high ends the frame.
- "Timing Diagrams" (WRITE mode): DATA is latched on the rising edge of WR; "A.C.
  Characteristics": WR clock up to 150 kHz at 3 V (each phase >= 3.34 us). Each phase of the
  loop below is a few MicroPython calls, several microseconds on a 125 MHz RP2040; should a
  slow glass need more, `bit_delay_us` stretches the low phase.
- "Command Summary": SYS EN (0000-0001), LCD ON (0000-0011), BIAS 1/3 4 COMs (0010-1001),
  RC 256K (0001-1000), LCD OFF (0000-0010), SYS DIS (0000-0000: oscillator and bias generator
  off, the power-down mode of "D.C. Characteristics" I_STB, under 1 uA at 3 V).

The chip holds the picture in its own RAM and refreshes the glass itself, so nothing here runs
from a timer: a flash write that masks interrupts does not disturb the display.

The glass: the common 6-digit 7-segment HT1621 module ("PDC-6X1"; the evidence is in
docs/hardware.md, "The glass map: evidence"). Each digit is a byte over two RAM addresses, sent
most significant bit first: bits 7..4 are D0..D3 of the even address, bits 3..0 D0..D3 of the
odd one. The leftmost digit is at `digit_address[0]` = 10, the rightmost at 0. `segment_bits`
says which bit of a digit's byte lights each segment a-g. Bit 7 (`mark_bit`) of a byte is not
that digit's point: the glass has only three points, before its 4th, 5th and 6th digits, each
lit by the byte of the digit after it (`point_carrier`); bit 7 of the first three digits lights
the battery symbol's bars, which the unit leaves dark. So the unit's five cells are the glass's
digits 1-5 (`first_cell`), whose points are those after cells 1, 2 and 3, the ones amounts use
(14.995, 123.45, 2.5); digit 0 is the annunciator, showing `k_glyph` or `M_glyph`. Another glass:
change the class attributes.

Pins are duck-typed: anything with `.value(v)` (machine.Pin outputs).
"""

import time

try:
    from micropython import const
except ImportError:  # CPython: const() is MicroPython's compile-time constant; int(x) is x
    const = int  # type: ignore[assignment]  # not a def: a Pico would keep its code

# bit of a segment pattern -> bit of the module's digit byte: a b c d e f g
SEGMENT_BITS = (4, 5, 6, 3, 2, 0, 1)


# Command codes, "Command Summary" (the 8 bits after the 100 ID; a 9th don't-care bit follows)
_SYS_DIS = const(0x00)
_SYS_EN = const(0x01)
_LCD_OFF = const(0x02)
_LCD_ON = const(0x03)
_TIMER_DIS = const(0x04)
_WDT_DIS = const(0x05)
_TONE_OFF = const(0x08)
_RC_256K = const(0x18)
_BIAS_THIRD_4COM = const(0x29)


class HT1621:
    digits = 6  # digits on the glass
    cells = 5  # the unit's cells: digits first_cell .. first_cell + cells - 1
    first_cell = 1
    annunciator = 0  # the digit that shows k or M
    digit_address = (10, 8, 6, 4, 2, 0)  # RAM address of each digit, left to right
    segment_bits = SEGMENT_BITS
    mark_bit = 7  # the bit of a digit's byte that lights a point or a battery bar
    # The digit whose mark is the point after each digit; -1: the glass has no point there.
    point_carrier = (-1, -1, 3, 4, 5, -1)
    bit_delay_us = 0  # extra WR-low time per bit, if a module needs a slower clock
    # The annunciator glyphs as segment patterns (bit 0 = a ... bit 6 = g):
    k_glyph = 0x75  # a c e f g: the usual seven-segment "K"
    M_glyph = 0x37  # a b c e f: the usual seven-segment "M" (an arch)

    def __init__(self, cs, wr, data):
        self.cs = cs
        self.wr = wr
        self.data = data
        self._shown = None
        self._on = False
        self._lit = False  # LCD ON sent since the last LCD OFF
        self._mapped = None  # map_pattern's table (_map_all)
        self._plan = None  # each cell's place in a frame (_plan_all)
        cs.value(1)
        wr.value(1)
        data.value(1)
        # The controller runs, the glass stays dark: its RAM powers up holding anything, which
        # LCD ON now would show until the first picture; show_patterns lights it after that.
        self._start()

    # -- the frames -------------------------------------------------------------------------

    def _frame(self, head, count, data_bytes):
        """CS low, `count` bits of `head` MSB first, then each byte of data_bytes MSB first
        (write()), CS high.

        The time from a key to its digit is mostly these bits, so each
        costs as few calls as it can: the pins' bound methods are looked up once, and DATA is
        written only when the bit differs from the one before (the chip reads it only at WR's
        rising edge).
        """
        wr = self.wr.value
        data = self.data.value
        delay = self.bit_delay_us
        last = -1
        i = 0
        n = len(data_bytes)
        value = head
        mask = 1 << (count - 1)
        self.cs.value(0)
        while True:
            while mask:
                wr(0)
                bit = 1 if value & mask else 0
                if bit != last:
                    data(bit)
                    last = bit
                if delay:
                    time.sleep_us(delay)
                wr(1)  # latched on this rising edge
                mask >>= 1
            if i == n:
                break
            value = data_bytes[i]
            i += 1
            mask = 0x80
        self.cs.value(1)

    def command(self, code):
        """One COMMAND-mode frame: 100, C7..C0, one don't-care bit."""
        self._frame((0b100 << 9) | (code << 1), 12, b"")

    def write(self, address, data_bytes):
        """One WRITE-mode frame with successive address writing from `address`.

        Each byte fills two addresses, sent most significant bit first: bits 7, 6, 5, 4 are D0,
        D1, D2, D3 of the first address, bits 3..0 those of the next.
        """
        self._frame((0b101 << 6) | address, 9, data_bytes)

    def _update(self, frame):
        """Write the bytes of frame (the RAM image from address 0, a byte per two addresses)
        from the first that differs from what is shown to the last: one successive-address
        write, the whole image after on()."""
        shown = self._shown
        first = 0
        last = len(frame) - 1
        if shown is not None:
            while frame[first] == shown[first]:
                first += 1
            while frame[last] == shown[last]:
                last -= 1
        self.write(2 * first, frame[first:last + 1])
        self._shown = frame

    # -- the display ------------------------------------------------------------------------

    def _start(self):
        """The controller running, the glass left as it was (dark after off())."""
        for code in (_BIAS_THIRD_4COM, _RC_256K, _TIMER_DIS, _WDT_DIS, _TONE_OFF, _SYS_EN):
            self.command(code)
        self._on = True
        self._shown = None

    def off(self):
        """Blank and power the controller down (SYS DIS): under a microamp."""
        self.command(_LCD_OFF)
        self.command(_SYS_DIS)
        self._on = False
        self._lit = False
        self._shown = None

    def _map_all(self):
        """map_pattern of every a-g pattern, once: looked up, a press's picture is built in a
        tenth of the time, for 128 bytes."""
        self._mapped = bytes(self.map_pattern(p) for p in range(128))
        return self._mapped

    def map_pattern(self, pattern):
        """A segment pattern's a-g (bit 0 = a ... bit 6 = g) as this glass's digit byte."""
        out = 0
        bits = self.segment_bits
        for i in range(7):
            if pattern & (1 << i):
                out |= 1 << bits[i]
        return out

    def _plan_all(self):
        """Where each cell's byte and point go in the frame, worked out from the glass map once:
        a press's picture is then a few lookups a cell. 0xFF: no point."""
        address = self.digit_address
        carrier = self.point_carrier
        at = bytearray(self.cells)
        points = bytearray(self.cells)
        for i in range(self.cells):
            digit = self.first_cell + i
            at[i] = address[digit] >> 1
            points[i] = 0xFF if carrier[digit] < 0 else address[carrier[digit]] >> 1
        self._plan = (bytes(at), bytes(points), self._mapped or self._map_all())
        return self._plan

    def show_patterns(self, patterns, k, M):
        """Show five cell patterns (left to right) and an annunciator; writes only changes.

        A cell's point (bit 7 of its pattern) goes to its `point_carrier`; where the glass has
        no point there it is left out rather than lighting a battery bar.
        """
        frame = bytearray(self.digits)  # the digits' bytes in RAM order, from address 0
        at, points, mapped = self._plan or self._plan_all()
        mark = 1 << self.mark_bit
        i = 0
        for pattern in patterns:
            frame[at[i]] |= mapped[pattern & 0x7F]
            if pattern & 0x80 and points[i] != 0xFF:
                frame[points[i]] |= mark
            i += 1
        address = self.digit_address
        glyph = self.M_glyph if M else (self.k_glyph if k else 0)
        frame[address[self.annunciator] >> 1] |= mapped[glyph & 0x7F]
        if not self._on:
            self._start()
        if frame != self._shown:
            self._update(frame)
        if not self._lit:
            # Only now: the RAM still holds the picture from before off() (SYS DIS keeps it),
            # which LCD ON before the write would show for the length of a frame.
            self.command(_LCD_ON)
            self._lit = True
