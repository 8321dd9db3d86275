"""Seven-segment glyphs and the layout of a display text on the unit's 5 cells (B1).

A glyph is a byte of segments, bit 0 = a (top) ... bit 6 = g (middle), bit 7 = the decimal
point: the order of the HT1621 and TM1637 datasheets' examples and of most modules.
"""

CELLS = 5
DP = 0x80

#      a
#    f   b
#      g
#    e   c
#      d
GLYPHS = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    " ": 0x00, "-": 0x40, "_": 0x08,
    "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E, "E": 0x79, "F": 0x71,
    "G": 0x3D, "H": 0x76, "h": 0x74, "I": 0x06, "J": 0x1E, "L": 0x38, "n": 0x54,
    "o": 0x5C, "P": 0x73, "r": 0x50, "S": 0x6D, "t": 0x78, "U": 0x3E, "u": 0x1C,
    "v": 0x1C, "Y": 0x6E, "y": 0x6E,
}


def glyph(ch):
    g = GLYPHS.get(ch)
    if g is None:
        g = GLYPHS.get(ch.upper(), GLYPHS.get(ch.lower(), 0x40))  # unknown: a dash
    return g


def cells(text):
    """The 5 cells' segment bytes for text, right-aligned; a '.' lights the point of the cell
    before it ("14.995" -> 5 cells, the '4' with its point). Text too long keeps its right end."""
    out = []
    for ch in text:
        if ch == "." and out and not out[-1] & DP:
            out[-1] |= DP
        elif ch == ".":
            out.append(DP)  # a point on its own (an entry typed as ".5")
        else:
            out.append(glyph(ch))
    if len(out) > CELLS:
        out = out[len(out) - CELLS:]
    return [0] * (CELLS - len(out)) + out
