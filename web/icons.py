"""The page's app icons (web/manifest.webmanifest): the unit drawn flat, as PNG files of any
size, by `make web` (web/build.py). Drawn here, not committed as images, so one small script
is the icons' source; no imaging library: rows of pixels and zlib.

    python web/icons.py SIZE > icon.png

The drawing fills the whole square (a "maskable" icon: a launcher may crop it to a circle or
a rounded square, which cuts only the table's green around the unit).
"""

import struct
import sys
import zlib

TABLE = (0x1F, 0x3B, 0x2D)
BODY = (0x2F, 0x32, 0x36)
BANNER = (0xC8, 0x10, 0x2E)
GLASS = (0xB9, 0xC7, 0xA4)
SEGMENT = (0x18, 0x20, 0x0F)
KEY = (0xF4, 0xF2, 0xEC)
PLUS = (0x16, 0xA3, 0x4A)
MINUS = (0xDC, 0x26, 0x26)
CLEAR = (0xF4, 0xB1, 0x83)

# The segments a..g of one digit, as rectangles in a 1 x 2 cell (firmware/board/segments.py's
# order), and the digits the icon's display shows: "15", a player's 15 M.
_SEG = {"a": (0, 0, 1, 0.25), "b": (0.75, 0, 1, 1.1), "c": (0.75, 0.9, 1, 2),
        "d": (0, 1.75, 1, 2), "e": (0, 0.9, 0.25, 2), "f": (0, 0, 0.25, 1.1),
        "g": (0, 0.875, 1, 1.125)}
_DIGITS = {"1": "bc", "5": "afgcd"}


def _shapes():
    """(x0, y0, x1, y1, colour, corner radius), as fractions of the side, painted in order."""
    out = [(0, 0, 1, 1, TABLE, 0), (0.2, 0.12, 0.8, 0.88, BODY, 0.06),
           (0.25, 0.17, 0.75, 0.26, BANNER, 0.02), (0.25, 0.3, 0.75, 0.5, GLASS, 0.015)]
    x = 0.48
    for d in "15":
        for seg in _DIGITS[d]:
            a, b, c, e = _SEG[seg]
            out.append((x + a * 0.07, 0.33 + b * 0.07, x + c * 0.07, 0.33 + e * 0.07, SEGMENT, 0))
        x += 0.11
    colours = [[KEY, KEY, KEY, CLEAR], [KEY, KEY, KEY, KEY], [PLUS, PLUS, MINUS, MINUS]]
    for row, cols in enumerate(colours):
        for col, colour in enumerate(cols):
            x0 = 0.27 + col * 0.118
            y0 = 0.56 + row * 0.1
            out.append((x0, y0, x0 + 0.09, y0 + 0.07, colour, 0.012))
    return out


def _inset(r, dy):
    """How far a rounded corner of radius r pulls the row dy pixels from the edge inwards."""
    if dy >= r:
        return 0
    d = r - dy - 0.5
    return int(round(r - (r * r - d * d) ** 0.5)) if d > 0 else 0


def pixels(size):
    rows = [bytearray(size * 3) for _ in range(size)]
    for x0, y0, x1, y1, colour, radius in _shapes():
        px0, py0 = int(round(x0 * size)), int(round(y0 * size))
        px1, py1 = int(round(x1 * size)), int(round(y1 * size))
        r = radius * size
        for y in range(py0, py1):
            inset = _inset(r, min(y - py0, py1 - 1 - y))
            a, b = px0 + inset, px1 - inset
            if b > a:
                rows[y][a * 3:b * 3] = bytes(colour) * (b - a)
    return rows


def png(size):
    """The icon, size x size, as a PNG file's bytes (8-bit RGB, no filter)."""
    raw = b"".join(b"\0" + bytes(row) for row in pixels(size))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0,
                                                               0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    sys.stdout.buffer.write(png(int(sys.argv[1]) if len(sys.argv) > 1 else 192))
