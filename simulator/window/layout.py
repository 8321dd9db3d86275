"""The drawn unit's geometry and colours, in its own coordinates (W x H at scale 1).

No Tk here: the window draws with it (unit.py, big.py), finds what the mouse is on with it
(inputs.py), and the tools that drive the real window from outside read its pixels with it
(tools/xvfb.py).
"""

TITLE = "Monopoly bank unit (simulator)"

# Colours. The LCD lights its segments dark on a pale glass; switched off, the glass goes dark.
BODY = "#e9e2cf"
BODY_EDGE = "#a89f86"
BANNER = "#c8102e"
GLASS_ON = "#b9c7a4"
GLASS_OFF = "#2d332a"
SEG_ON = "#18200f"
SEG_GHOST = "#acba97"
SEG_OFF = "#323a2f"  # a dead LCD shows no ghosts, only a faint pattern in the dark glass
RED_ON, RED_OFF = "#ff2a2a", "#5c1a1a"
GREEN_ON, GREEN_OFF = "#27e05a", "#1b4a27"
KEY_FACE, KEY_DOWN, KEY_TEXT = "#fbfaf6", "#c9c4b4", "#222222"
CARD_COLOURS = {1: "#d62828", 2: "#1d4ed8", 3: "#15803d", 4: "#eab308", 5: "#7e22ce",
                6: "#c2410c"}

W, H = 480, 784
SLOT_Y = 92  # the slots' mouths, on the unit's top edge
SLOTS_X = {"L": (70, 210), "R": (270, 410)}
CARD_W, CARD_H = 64, 92
TRAY_Y = 676
DISPLAY = (48, 172, 432, 286)  # the LCD glass
BANNER_BOX = (36, 118, W - 36, 158)  # the red banner with the unit's name
CELL_X0, CELL_W, CELL_GAP, CELL_Y0, CELL_H, SEG_T = 66, 56, 12, 190, 80, 9
KEY_W, KEY_H, KEY_GAP_X, KEY_GAP_Y, KEYS_X0, KEYS_Y0 = 80, 46, 16, 12, 56, 338
KEY_ROWS = (
    ("7", "8", "9", "C"),
    ("4", "5", "6", "M"),
    ("1", "2", "3", "K"),
    ("0", ".", "DEAL"),
    ("+", "-"),
)
MIN_SCALE = 0.5  # below it the keys' labels no longer fit their keys


def key_rects():
    """{key: (x0, y0, x1, y1)} on the canvas: the keypad's layout (the GUI tests click these)."""
    out = {}
    for row, keys in enumerate(KEY_ROWS):
        y0 = KEYS_Y0 + row * (KEY_H + KEY_GAP_Y)
        if len(keys) == 2:  # + and - are the wide green and red keys at the bottom
            wide = (4 * KEY_W + 3 * KEY_GAP_X - KEY_GAP_X) // 2
            for i, k in enumerate(keys):
                x0 = KEYS_X0 + i * (wide + KEY_GAP_X)
                out[k] = (x0, y0, x0 + wide, y0 + KEY_H + 8)
            continue
        for col, k in enumerate(keys):
            x0 = KEYS_X0 + col * (KEY_W + KEY_GAP_X)
            w = KEY_W if k != "DEAL" else 2 * KEY_W + KEY_GAP_X
            out[k] = (x0, y0, x0 + w, y0 + KEY_H)
    return out


def tray_pos(card):
    """The top-left corner of a card lying on the table below the unit."""
    return (28 + (card - 1) * (CARD_W + 12), TRAY_Y)


def slot_pos(slot):
    x0, x1 = SLOTS_X[slot]
    return ((x0 + x1 - CARD_W) // 2, SLOT_Y - CARD_H + 14)


def segment_polys(x, y, w, h, t):
    """The 7 segments a-g of one cell as polygons, plus the decimal point's oval."""
    m = y + h // 2
    ht = t // 2

    def horiz(yc):
        return (x + t, yc, x + t + ht, yc - ht, x + w - t - ht, yc - ht, x + w - t, yc,
                x + w - t - ht, yc + ht, x + t + ht, yc + ht)

    def vert(xc, ya, yb):
        return (xc, ya + ht, xc + ht, ya + t, xc + ht, yb - t, xc, yb - ht, xc - ht, yb - t,
                xc - ht, ya + t)

    a = horiz(y + ht)
    g = horiz(m)
    d = horiz(y + h - ht)
    f = vert(x + ht, y, m)
    b = vert(x + w - ht, y, m)
    e = vert(x + ht, m, y + h)
    c = vert(x + w - ht, m, y + h)
    dp = (x + w + 2, y + h - t, x + w + 2 + t, y + h)
    return (a, b, c, d, e, f, g), dp
