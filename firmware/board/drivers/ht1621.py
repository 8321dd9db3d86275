"""Holtek HT1621 segment-LCD driver, on the 6-digit "PDC-6X1" glass: the reference display.

Three wires: CS low, a 3-bit mode ID (100 command, 101 write), then its bits MSB first, DATA
latched on WR's rising edge. WR may run at 150 kHz at 3 V, 3.34 us a phase: a phase here is a
few MicroPython calls, longer, and `bit_delay_us` stretches it for a slower glass. The chip
refreshes the glass itself, so a flash write that masks interrupts does not disturb it.

The glass map, its class attributes, is docs/hardware.md's "The glass map: evidence": another
glass changes them.
"""

import time

try:
    from micropython import const
except ImportError:  # CPython
    const = int  # type: ignore[assignment]

SEGMENT_BITS = (4, 5, 6, 3, 2, 0, 1)  # the digit byte's bit of a, b, ... g

# "Command Summary": the 8 bits after the 100 ID
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
    digits = 6
    cells = 5  # digits first_cell .. first_cell + cells - 1
    first_cell = 1
    annunciator = 0  # the digit that shows k or M
    digit_address = (10, 8, 6, 4, 2, 0)  # left to right
    segment_bits = SEGMENT_BITS
    mark_bit = 7  # a point, or a battery bar
    point_carrier = (-1, -1, 3, 4, 5, -1)  # the digit whose mark is the point after each
    bit_delay_us = 0  # extra WR-low time a bit, for a glass that needs a slower clock
    k_glyph = 0x75  # a c e f g
    M_glyph = 0x37  # a b c e f: an arch

    def __init__(self, cs, wr, data):
        self.cs = cs
        self.wr = wr
        self.data = data
        self._shown = None
        self._on = False
        self._lit = False  # LCD ON sent since the last LCD OFF
        self._plan = None
        cs.value(1)
        wr.value(1)
        data.value(1)
        # Dark until the first picture: the RAM powers up holding anything.
        self._start()

    def _frame(self, head, count, data_bytes):
        """count bits of head, then data_bytes' bytes, MSB first.

        The time from a key to its digit is mostly these bits: bound methods looked up once,
        DATA written only when the bit changes (the chip reads it at WR's rising edge).
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
        """100, C7..C0, a don't-care bit."""
        self._frame((0b100 << 9) | (code << 1), 12, b"")

    def _update(self, frame):
        """frame, the RAM from address 0, written from its first byte that changed to its last
        by successive address writing: a byte's bits 7..4 are D0..D3 of one address, bits 3..0
        those of the next."""
        shown = self._shown
        first = 0
        last = len(frame) - 1
        if shown is not None:
            while frame[first] == shown[first]:
                first += 1
            while frame[last] == shown[last]:
                last -= 1
        self._frame((0b101 << 6) | 2 * first, 9, frame[first:last + 1])
        self._shown = frame

    def _start(self):
        """The controller running, the glass as it was."""
        for code in (_BIAS_THIRD_4COM, _RC_256K, _TIMER_DIS, _WDT_DIS, _TONE_OFF, _SYS_EN):
            self.command(code)
        self._on = True
        self._shown = None

    def off(self):
        """Blank, and the controller powered down (SYS DIS)."""
        self.command(_LCD_OFF)
        self.command(_SYS_DIS)
        self._on = False
        self._lit = False
        self._shown = None

    def _plan_all(self):
        """Where each cell's byte and point go in the frame, and each a-g pattern as this
        glass's digit byte: worked out once, a press's picture is then lookups."""
        address = self.digit_address
        carrier = self.point_carrier
        bits = self.segment_bits
        at = bytearray(self.cells)
        points = bytearray(self.cells)  # 0xFF: no point
        for i in range(self.cells):
            digit = self.first_cell + i
            at[i] = address[digit] >> 1
            points[i] = 0xFF if carrier[digit] < 0 else address[carrier[digit]] >> 1
        mapped = bytearray(128)
        for p in range(128):
            for i in range(7):
                if p & (1 << i):
                    mapped[p] |= 1 << bits[i]
        self._plan = (bytes(at), bytes(points), bytes(mapped))
        return self._plan

    def show_patterns(self, patterns, k, M):
        """Five cells' patterns, left to right, and the annunciator; only changes are written.
        A point where the glass has none moves the text to the nearest cell that has one: left
        while the first cell is blank (an entry typed "2." shows "2." and a blank), else right,
        the digits pushed off the right end dropped as B1 drops those that do not fit (1.2345 M
        shows 1.234, not 12345); with none, it is left out, never lit as a battery bar."""
        frame = bytearray(self.digits)  # in RAM order
        at, points, mapped = self._plan or self._plan_all()
        n = len(patterns)
        for i in range(n):
            if patterns[i] & 0x80:
                if points[i] == 0xFF:
                    if i and not patterns[0] and points[i - 1] != 0xFF:
                        patterns = bytes(patterns[1:]) + b"\0"  # left, a blank after it
                    else:
                        for j in range(i + 1, n):
                            if points[j] != 0xFF:
                                patterns = bytes(j - i) + bytes(patterns[:i - j])
                                break
                break  # the one point a text has
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
            # Only now: SYS DIS kept the picture from before off(), which LCD ON would show.
            self.command(_LCD_ON)
            self._lit = True
