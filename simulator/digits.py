"""The terminal's large seven-segment digits: drawn in full blocks at any size, and read back
from a screen (the tests read a real terminal's with read_big). The segments are the
firmware's (board/segments.py: bit 0 = a ... bit 6 = g, 0x80 the point)."""

LIT = "\u2588"  # a full block: a lit segment
BOX = "\u250c\u2500\u2510\u2502\u2514\u2518"  # the glass's frame: corners, sides
MIN_H = 5  # the smallest digits that still read as seven segments


def big_size(cols, hmax):
    """(cell width, digit height) for a terminal cols wide with hmax rows for the digits, or
    None if too small. A cell is as wide as the width allows, and a digit about 0.8 of that in
    rows (a terminal's character is about twice as tall as it is wide)."""
    cwmax = (cols - 8) // 5 - 2
    if hmax < MIN_H or cwmax < 4:
        return None
    h = max(MIN_H, min(hmax, cwmax * 4 // 5))
    cw = min(cwmax, h * 3 // 2 + 1)
    return cw, h


def big_digits(cells, lit, cw, h):
    """The 5 cells as h rows of text, each cell cw wide and followed by its decimal point and a
    space: full blocks for the lit segments (bit 0 = a ... bit 6 = g, 0x80 the point,
    board/segments.py), blanks for the rest."""
    t = 2 if cw >= 8 else 1  # the vertical strokes' width
    mid = (h - 1) // 2
    rows = []
    for y in range(h):
        row = ""
        for byte in cells:
            if not lit:
                byte = 0
            cell = [" "] * cw
            if (y == 0 and byte & 1) or (y == mid and byte & 64) or (y == h - 1 and byte & 8):
                for x in range(t, cw - t):
                    cell[x] = LIT
            upper = 0 < y < mid
            lower = mid < y < h - 1
            if (upper and byte & 32) or (lower and byte & 16):  # f, e: the left side
                for x in range(t):
                    cell[x] = LIT
            if (upper and byte & 2) or (lower and byte & 4):  # b, c: the right side
                for x in range(cw - t, cw):
                    cell[x] = LIT
            point = LIT if y == h - 1 and byte & 0x80 else " "
            row += "".join(cell) + point + " "
        rows.append(row)
    return rows


def read_big(lines):
    """What the framed digits on a screen show: (text, k, M), or None if no frame is drawn;
    the inverse of big_digits in its frame (the tests read a real terminal's screen with it)."""
    from board.segments import CHARS, CODES

    top = next((i for i, line in enumerate(lines) if line.lstrip().startswith(BOX[0])), None)
    if top is None:
        return None
    left = lines[top].index(BOX[0])
    inner = []
    for line in lines[top + 1:]:
        if line[left:left + 1] != BOX[3]:
            break
        inner.append(line[left + 1:].split(BOX[3])[0])
    h = len(inner)
    if h < MIN_H:
        return None
    cw = (len(inner[0]) - 4) // 5 - 2
    mid = (h - 1) // 2
    up, low = max(1, mid // 2), (mid + h - 1) // 2
    by_byte = {}
    for ch, g in zip(CHARS, CODES, strict=True):
        by_byte.setdefault(g, ch)
    text = ""
    for i in range(5):
        x = 1 + i * (cw + 2)
        byte = 0
        for bit, (r, c) in enumerate(((0, cw // 2), (up, cw - 1), (low, cw - 1), (h - 1, cw // 2),
                                      (low, 0), (up, 0), (mid, cw // 2))):
            if inner[r][x + c:x + c + 1] == LIT:
                byte |= 1 << bit
        if byte:
            text += by_byte.get(byte, "?")
        if inner[h - 1][x + cw:x + cw + 1] == LIT:
            text += "."
    ann = [row.rstrip()[-1:] for row in inner]
    return text, ann[-1] == "k", ann[0] == "M"
