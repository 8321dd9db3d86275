"""What a person sees on the unit's display module, from the display chip's own memory.

The pin suite decodes the chip's bus into the chip's state (the HT1621's 32 x 4-bit RAM, the
TM1637's six grid registers), as each datasheet defines it; this module then says which
segments of which digit of the module's glass that state lights, and what a player reads.

The wiring here (which RAM bit lights which segment of which digit) comes from the public
evidence listed in docs/hardware.md, "The glass map: evidence": working drivers for the same
modules and photos of those modules showing what the drivers sent. It is deliberately NOT
imported from firmware/: a firmware whose map is wrong must fail against it.

A segment pattern here is a string of the lit segments' letters, sorted ("abcdef" is a 0),
with the usual naming:

       a
     f   b
       g
     e   c
       d

so nothing in this module depends on any bit order but the chips' and the modules'.
"""

# -- glyphs: what a person reads a 7-segment pattern as --------------------------------------

# Written from the drawing above, not from firmware/segments.py. Each pattern a person reads as
# one character; where two characters share a pattern (S and 5, I and 1, O and 0, v and u,
# Y and y) the glass reads it as the first one listed, and looks() maps a text to that reading.
_READING = (
    ("0", "abcdef"), ("1", "bc"), ("2", "abdeg"), ("3", "abcdg"), ("4", "bcfg"),
    ("5", "acdfg"), ("6", "acdefg"), ("7", "abc"), ("8", "abcdefg"), ("9", "abcdfg"),
    ("-", "g"), ("_", "d"), ("A", "abcefg"), ("b", "cdefg"), ("C", "adef"), ("c", "deg"),
    ("d", "bcdeg"), ("E", "adefg"), ("F", "aefg"), ("G", "acdef"), ("H", "bcefg"),
    ("h", "cefg"), ("J", "bcde"), ("L", "def"), ("n", "ceg"), ("o", "cdeg"), ("P", "abefg"),
    ("r", "eg"), ("t", "defg"), ("U", "bcdef"), ("u", "cde"), ("y", "bcdfg"),
    # The unit's two annunciator glyphs (docs/hardware.md, "Display"): a K with its arm on
    # the top (a c e f g) and an M drawn as an arch (a b c e f). No other glyph uses them.
    ("k", "acefg"), ("M", "abcef"),
)
_SAME_AS = {"S": "5", "I": "1", "O": "0", "v": "u", "Y": "y"}

GLYPHS = {segs: ch for ch, segs in _READING}  # lit segments -> the character read
SEGMENTS_OF = {ch: segs for ch, segs in _READING}  # character -> its lit segments
for _ch, _twin in _SAME_AS.items():
    SEGMENTS_OF[_ch] = SEGMENTS_OF[_twin]
SEGMENTS_OF[" "] = ""
GLYPHS[""] = " "


def read(segments):
    """The character a person reads for a set of lit segments: ' ' if none, '?' if no glyph."""
    return GLYPHS.get("".join(sorted(segments)), "?")


def looks(text):
    """How text reads on a 7-segment glass: each character as the glass would read its pattern
    ("SErv" -> "5Eru", "PLAY" -> "PLAy"); '.' and unknown characters are kept."""
    out = []
    for ch in text:
        segs = SEGMENTS_OF.get(ch)
        out.append(ch if segs is None else read(segs))
    return "".join(out)


class _Glass:
    """Six 7-segment digits, left to right. Subclasses say which chip bit lights what.

    The unit's layout on the glass (docs/hardware.md): five cells, right-aligned text, each
    cell's point after it, and one digit that shows the k or M annunciator.
    """

    DIGITS = 6
    ANNUNCIATOR = 0  # the glass digit showing k or M
    CELLS = (1, 2, 3, 4, 5)  # the glass digits of the unit's five cells, left to right

    def digit_segments(self, digit):  # pragma: no cover - every glass defines it
        raise NotImplementedError

    def point_after(self, digit):  # pragma: no cover
        raise NotImplementedError

    def marks(self):
        """Lit symbols that are neither digits nor points (none on a plain glass)."""
        return []

    def digits(self):
        """What each digit reads as, left to right."""
        return [read(self.digit_segments(i)) for i in range(self.DIGITS)]

    def reading(self, digits=None):
        """The digits (all six unless told) as a person reads them, '.' after a lit point."""
        chars = self.digits()
        out = []
        for i in range(self.DIGITS) if digits is None else digits:
            out.append(chars[i])
            if self.point_after(i):
                out.append(".")
        return "".join(out)

    def text(self):
        """The five cells as the protocol's `text` would say it: no padding ("14.995").

        Characters that share a pattern read as one of them ("SErv" reads "5Eru"): compare
        with looks(text), not text."""
        return self.reading(self.CELLS).strip(" ")

    def annunciator(self):
        """'k', 'M' or '' from the annunciator digit (whatever else is read there, if lit)."""
        shown = self.digits()[self.ANNUNCIATOR]
        return "" if shown == " " else shown


class HT1621Glass(_Glass):
    """The common 6-digit HT1621 LCD module ("PDC-6X1", 2.4"), from the chip's display RAM.

    `ram` is the HT1621's 32 x 4-bit RAM as its datasheet defines it: ram[address] is the
    nibble D3..D0 (bit 3 .. bit 0) of that address, as "WRITE Mode (Successive Address
    Writing)" fills it (101, A5..A0, then D0 D1 D2 D3 for each address in turn).

    The module's wiring, from the evidence (docs/hardware.md): digit i (0 = leftmost) is the
    two addresses 10 - 2i and 11 - 2i, the leftmost digit at 10 and the rightmost at 0
    (anxzhu's segment-map.jpg; every driver's update() writes its leftmost character there).
    The drivers send each digit as a byte, most significant bit first, 0x10 = a, 0x20 = b,
    0x40 = c, 0x08 = d, 0x04 = e, 0x01 = f, 0x02 = g, 0x80 = the extra mark; the datasheet then
    puts bits 7, 6, 5, 4 in D0..D3 of the even address and bits 3..0 in D0..D3 of the odd one:
    """

    # segment -> (address offset within the digit, data bit D0..D3)
    WIRING = {
        "a": (0, 3), "b": (0, 2), "c": (0, 1),
        "f": (1, 3), "g": (1, 2), "e": (1, 1), "d": (1, 0),
    }
    MARK = (0, 0)  # D0 of the even address: the digit's extra mark (0x80 in the drivers)
    # What that mark is, digit by digit: the three points sit before digits 3, 4 and 5 (the
    # glass reads 888.8.8.8); the first three digits' marks are the battery symbol's parts
    # (5N44P's setBatteryLevel, anxzhu's bat1..bat3: 10 = top bar, 8 = middle, 6 = bottom).
    BATTERY = {0: "battery top", 1: "battery middle", 2: "battery bottom"}
    POINT_BEFORE = (3, 4, 5)

    def __init__(self, ram):
        if len(ram) != 32 or any(not 0 <= n <= 15 for n in ram):
            raise ValueError("the HT1621 RAM is 32 nibbles")
        self.ram = list(ram)

    def _lit(self, digit, where):
        offset, bit = where
        return bool(self.ram[10 - 2 * digit + offset] >> bit & 1)

    def digit_segments(self, digit):
        return "".join(s for s, where in sorted(self.WIRING.items()) if self._lit(digit, where))

    def point_after(self, digit):
        return digit + 1 in self.POINT_BEFORE and self._lit(digit + 1, self.MARK)

    def marks(self):
        return [name for digit, name in sorted(self.BATTERY.items())
                if self._lit(digit, self.MARK)]

    def unused_lit(self):
        """Addresses 12..31 are wired to nothing on this module: lit bits there are a sign of
        a frame sent to the wrong place."""
        return [a for a in range(12, 32) if self.ram[a]]


class TM1637Glass(_Glass):
    """The common 6-digit TM1637 LED module (two 3-digit 0.56" tubes), from its grid registers.

    `grids` is the six display registers, addresses 0xC0..0xC5 as indices 0..5, each the byte
    SEG8..SEG1 (bit 7 .. bit 0) of that grid (TM1637 datasheet, "Display register address").
    The module's wiring (docs/hardware.md): SEG1..SEG7 light a..g and SEG8 the digit's own
    point, after it; the digits left to right are grids 2 1 0 5 4 3 (mcauser's
    micropython-tm1637 examples/robotdyn-6-digit-decimal: "digits left to right are grid3,
    grid2, grid1, grid6, grid5, grid4"; jasonacox's TM1637TinyDisplay6 digitmap {2,1,0,5,4,3}).

    Every digit has its point, so the unit keeps its annunciator on the right here.
    """

    GRID_OF_DIGIT = (2, 1, 0, 5, 4, 3)
    SEGMENT_OF_BIT = "abcdefg"  # bit i of a grid byte (SEG i+1) lights this segment
    ANNUNCIATOR = 5
    CELLS = (0, 1, 2, 3, 4)

    def __init__(self, grids):
        if len(grids) != 6 or any(not 0 <= b <= 255 for b in grids):
            raise ValueError("the TM1637 has six grid bytes")
        self.grids = list(grids)

    def digit_segments(self, digit):
        byte = self.grids[self.GRID_OF_DIGIT[digit]]
        return "".join(s for i, s in enumerate(self.SEGMENT_OF_BIT) if byte >> i & 1)

    def point_after(self, digit):
        return bool(self.grids[self.GRID_OF_DIGIT[digit]] & 0x80)
