"""Seven-segment glyphs, and a text laid out on the unit's 5 cells (B1).

A glyph is a byte: bit 0 = a (top) ... bit 6 = g (middle), bit 7 the point, the order of the
HT1621 and TM1637 datasheets' examples.
"""

CELLS = 5
DP = 0x80

#      a
#    f   b
#      g
#    e   c
#      d
# CHARS[i] shows CODES[i]: a string and bytes, not a dict, for the heap.
CHARS = "0123456789 -_AbCcdEFGHhIJLnoPrStUuvYy"
CODES = (b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x00\x40\x08"
         b"\x77\x7c\x39\x58\x5e\x79\x71\x3d\x76\x74\x06\x1e\x38\x54"
         b"\x5c\x73\x50\x6d\x78\x3e\x1c\x1c\x6e\x6e")

_POINT = 0xFF  # in _table: the character is a point
_table = None  # bytes: the code of each ASCII character from 32


def _code(ch):
    """A character's code, in its other case if missing, else a dash."""
    i = CHARS.find(ch)
    if i < 0:
        i = CHARS.find(ch.upper())
        if i < 0:
            i = CHARS.find(ch.lower())
    return CODES[i] if i >= 0 else 0x40


def _make_table():
    """Every printable ASCII character's code, once: a key press's text is then a lookup a
    character, not three searches."""
    global _table
    _table = bytes(_POINT if c == 46 else _code(chr(c)) for c in range(32, 128))
    return _table


def cells(text):
    """The 5 cells' bytes for text, right-aligned, its right end kept; a '.' lights the point of
    the cell before it: "14.995" is 5 cells."""
    table = _table or _make_table()
    out = []  # type: list[int]
    for ch in text:
        o = ord(ch) - 32
        code = table[o] if 0 <= o < 96 else _code(ch)
        if code == _POINT:
            if out and not out[-1] & DP:
                out[-1] |= DP
            else:
                out.append(DP)  # a point on its own: an entry typed as ".5"
        else:
            out.append(code)
    n = len(out)
    if n >= CELLS:
        return out if n == CELLS else out[n - CELLS:]
    return [0] * (CELLS - n) + out
