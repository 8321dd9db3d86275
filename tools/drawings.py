"""Draw what a maker cuts, prints and glues, at 1:1, and the wiring, from the numbers the
firmware and the docs use: `python tools/drawings.py [--check]` (`make drawings`).

Writes docs/drawings/: the six cards with their notches and their leading edge (cards.svg),
the card codes as the card is held (codes.svg), the slot guide (slot-guide.svg) and the switch
mount (switch-mount.svg), in millimetres (width, height and viewBox in mm: printed at 100 %
they are the parts' size), and the wiring of the key matrix (one for each ready map in
pins.py), of the slots (contacts and RFID) and of the power (tools/wiring_svg.py, which also
draws docs/wiring.svg); the card codes and the dimensions in docs/hardware.md between its
`<!-- codes -->` and `<!-- dimensions -->` marks; and case/dimensions.scad for the case
(case/case.scad). Which card has a tab where is firmware/board/drivers/slots.py's CODES, the
one place it is said.
--check writes nothing and exits 1 naming what is not current.
"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "firmware"))
sys.path.insert(0, os.path.join(REPO, "tools"))

import wiring_svg  # noqa: E402
from board.drivers.slots import CODES  # noqa: E402

OUT = os.path.join(REPO, "docs", "drawings")

# -- the numbers, in mm (docs/hardware.md's dimension table is written from these) -----------
CARD_W = 40.0  # the leading edge: the card goes in short edge first
CARD_L = 54.0
CARD_T = 1.6  # FR4 blank; 2.0 mm plastic fits the same slot
CORNER_R = 3.0  # the trailing corners only: the leading edge stays square to press evenly
POSITIONS = 4  # code positions across the leading edge
PITCH = 8.0  # between code positions, centred on the leading edge
NOTCH_W = 3.0
NOTCH_D = 5.0
OVERRUN = 3.5  # how far the leading edge, seated, pushes a code switch's lever past its rest
SEATED_DEEPER = 2.0  # the seated switch's lever rests this much deeper: it closes last
SEATED_X = 38.2  # the seated lever's centre from the card's left edge: always a tab there
CLEARANCE = 0.5  # each side of the card in the slot
SLOT_GAP = 2.2  # the slot's height: the card's thickness and room to slide
INSERT = 30.0  # the card's depth in the slot, seated: the rest stands out to be held
RAIL = 6.0  # each rail of the slot guide
LEVER_W = 3.0  # the lever windows in the stop wall
SWITCH = (12.8, 5.8, 6.5)  # the lever microswitch's body: length, thickness, height (D2F-L)
LEVER_REACH = 7.5  # the lever's tip in front of the body, at rest: measure yours
WALL = LEVER_REACH - OVERRUN  # the stop wall: the bodies stand behind it, the levers reach
# through its windows into the card's path
SLOT_SPACING = 70.0  # the two slots' centres; RFID antennas need 60 at least
LABEL = 4.0  # text size


def position_x(i):
    """Code position i's centre, from the card's left edge as it is held (face up, the leading
    edge away from the holder): position 0 is the leftmost, bit 0 of its code."""
    return CARD_W / 2 + (i - (POSITIONS - 1) / 2) * PITCH


def tabs(card):
    """[True where card has a tab], positions 0 to 3 left to right as held."""
    code = next(c for c, n in CODES.items() if n == card)
    return [bool(code >> i & 1) for i in range(POSITIONS)]


def as_held(card):
    """The card's code written as the card is held: T a tab, - a notch, left to right."""
    return "".join("T" if t else "-" for t in tabs(card))


def dimensions():
    """[(what, mm, where it matters)] for docs/hardware.md."""
    return [
        ("card", "%g × %g × %g" % (CARD_W, CARD_L, CARD_T),
         "the %g mm edge goes in first (the leading edge)" % CARD_W),
        ("code positions", ", ".join("%g" % position_x(i) for i in range(POSITIONS)),
         "centres from the card's left edge, face up, leading edge away"),
        ("notch", "%g wide × %g deep" % (NOTCH_W, NOTCH_D), "where the code has no tab"),
        ("seated switch", "%g from the left edge, %g deeper" % (SEATED_X, SEATED_DEEPER),
         "always a tab there: it closes last, on every card"),
        ("lever overrun", "%g (code), %g (seated)" % (OVERRUN, OVERRUN - SEATED_DEEPER),
         "past the lever's rest, the card seated: more than the switch's travel"),
        ("stop wall", "%g thick" % WALL, "the lever's reach (%g) less its overrun" %
         LEVER_REACH),
        ("slot", "%g wide × %g high × %g deep" % (CARD_W + 2 * CLEARANCE, SLOT_GAP, INSERT),
         "%g mm of the card stands out" % (CARD_L - INSERT)),
        ("slots apart", "%g" % SLOT_SPACING, "centre to centre (RFID: 60 at least)"),
    ]


# -- SVG in mm ---------------------------------------------------------------------------------

def svg(w, h, title, body):
    return "\n".join([
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" '
        'viewBox="0 0 %g %g" font-family="DejaVu Sans, Arial, sans-serif" font-size="%g">'
        % (w, h, w, h, LABEL),
        '<title>%s</title>' % wiring_svg.esc(title),
        '<rect width="%g" height="%g" fill="white"/>' % (w, h),
        '<text x="8" y="10" font-size="5" font-weight="bold">%s</text>' % wiring_svg.esc(title),
        '<text x="8" y="15.5" font-size="3" fill="#555">Generated by tools/drawings.py at 1:1: '
        'print at 100 %, then check the 50 mm bar.</text>',
        '<g stroke="black" stroke-width="0.3"><line x1="%g" y1="%g" x2="%g" y2="%g"/>'
        '<line x1="%g" y1="%g" x2="%g" y2="%g"/><line x1="%g" y1="%g" x2="%g" y2="%g"/></g>'
        % (w - 58, h - 8, w - 8, h - 8, w - 58, h - 10, w - 58, h - 6, w - 8, h - 10, w - 8,
           h - 6),
        '<text x="%g" y="%g" font-size="3" text-anchor="middle">50 mm</text>'
        % (w - 33, h - 10),
    ] + body + ["</svg>"]) + "\n"


def text(x, y, s, size=LABEL, anchor="start", weight="normal", fill="black"):
    return ('<text x="%.2f" y="%.2f" font-size="%g" text-anchor="%s" font-weight="%s" '
            'fill="%s">%s</text>' % (x, y, size, anchor, weight, fill, wiring_svg.esc(s)))


def edge_path(x0, y0, card, depth):
    """From the leading edge's left end along its tabs and notches to its right end (the
    leading edge at the top, face up), and down that side to depth: path commands."""
    t = tabs(card)
    d = ["M %.2f %.2f" % (x0, y0 + depth), "L %.2f %.2f" % (x0, y0)]
    for i in range(POSITIONS):
        if not t[i]:
            left, right = x0 + position_x(i) - NOTCH_W / 2, x0 + position_x(i) + NOTCH_W / 2
            d += ["L %.2f %.2f" % (left, y0), "L %.2f %.2f" % (left, y0 + NOTCH_D),
                  "L %.2f %.2f" % (right, y0 + NOTCH_D), "L %.2f %.2f" % (right, y0)]
    d += ["L %.2f %.2f" % (x0 + CARD_W, y0), "L %.2f %.2f" % (x0 + CARD_W, y0 + depth)]
    return d


def card_outline(x0, y0, card):
    """The cut line of a card whose leading edge is at the top, face up: a path."""
    r = CORNER_R
    d = edge_path(x0, y0, card, CARD_L - r)
    d += ["A %g %g 0 0 1 %.2f %.2f" % (r, r, x0 + CARD_W - r, y0 + CARD_L),
          "L %.2f %.2f" % (x0 + r, y0 + CARD_L),
          "A %g %g 0 0 1 %.2f %.2f" % (r, r, x0, y0 + CARD_L - r), "Z"]
    return '<path d="%s" fill="none" stroke="black" stroke-width="0.25"/>' % " ".join(d)


def arrow(x, y0, y1):
    """An arrow from y0 to y1 (the way the card goes)."""
    head = 2.5 if y1 < y0 else -2.5
    return ('<g stroke="#c53030" stroke-width="0.6" fill="#c53030"><line x1="%g" y1="%g" '
            'x2="%g" y2="%g"/><path d="M %g %g L %g %g L %g %g Z"/></g>'
            % (x, y0, x, y1 + head, x - 1.8, y1 + head, x, y1, x + 1.8, y1 + head))


def cards():
    body = []
    for n in range(1, 7):
        col, row = (n - 1) % 2, (n - 1) // 2
        x0, y0 = 18 + col * (CARD_W + 20), 28 + row * (CARD_L + 16)
        body.append(card_outline(x0, y0, n))
        body.append(arrow(x0 + CARD_W / 2, y0 + 17, y0 + NOTCH_D + 2))
        body.append(text(x0 + CARD_W / 2, y0 + 21.5, "this edge first", 2.6, "middle",
                         fill="#c53030"))
        body.append(text(x0 + CARD_W / 2, y0 + 38, str(n), 15, "middle", "bold"))
        body.append(text(x0 + CARD_W / 2, y0 + 44.5, "face up", 2.6, "middle"))
        body.append(text(x0 + CARD_W / 2, y0 + 49, "code %s" % as_held(n), 2.6, "middle"))
    w, h = 18 * 2 + CARD_W * 2 + 20, 28 + 3 * (CARD_L + 16) + 6
    return svg(w, h, "Bank cards 1-6, face up, cut on the lines", body)


def codes():
    body = [text(8, 24, "Each card's leading edge seen face up, the edge away from you: "
                 "position 0 is the leftmost.", 3),
            text(8, 29, "T: a tab presses its switch (bit i of the code); -: a notch "
                 "leaves it open.", 3)]
    for n in range(1, 7):
        y = 40 + (n - 1) * 16
        x0 = 40
        body.append(text(10, y + 4, "card %d" % n, 4, weight="bold"))
        body.append('<path d="%s" fill="#f3e3b0" stroke="black" stroke-width="0.25"/>'
                    % " ".join(edge_path(x0, y, n, 9) + ["Z"]))
        for i in range(POSITIONS):
            body.append(text(x0 + position_x(i), y - 1.2, str(i), 2.5, "middle", fill="#555"))
        code = sum(1 << i for i, t in enumerate(tabs(n)) if t)
        body.append(text(x0 + CARD_W + 8, y + 5, as_held(n), 5, weight="bold"))
        body.append(text(x0 + CARD_W + 28, y + 5, "CODES 0b%s" % format(code, "04b"), 3,
                         fill="#555"))
    return svg(150, 150, "Card codes as the card is held", body)


def slot_guide():
    w = CARD_W + 2 * CLEARANCE
    x0, y0 = 20, 40  # the stop wall's inner face
    outer = w + 2 * RAIL
    body = [
        text(8, 24, "Top view: floor plate with two rails %g mm high; a roof plate the same "
             "size on top." % SLOT_GAP, 3.2),
        text(8, 29, "The card slides up the page and stops at the wall; the levers come "
             "through its windows.", 3.2),
        '<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="black" '
        'stroke-width="0.25"/>' % (x0 - RAIL, y0 - WALL, outer, INSERT + WALL),
    ]
    for side in (x0 - RAIL, x0 + w):
        body.append('<rect x="%g" y="%g" width="%g" height="%g" fill="#ddd" stroke="black" '
                    'stroke-width="0.25"/>' % (side, y0, RAIL, INSERT))
    body.append('<rect x="%g" y="%g" width="%g" height="%g" fill="#bbb" stroke="black" '
                'stroke-width="0.25"/>' % (x0 - RAIL, y0 - WALL, outer, WALL))
    for x in [position_x(i) for i in range(POSITIONS)] + [SEATED_X]:
        body.append('<rect x="%g" y="%g" width="%g" height="%g" fill="white" stroke="black" '
                    'stroke-width="0.25"/>' % (x0 + CLEARANCE + x - LEVER_W / 2, y0 - WALL,
                                               LEVER_W, WALL))
    body.append(arrow(x0 + w / 2, y0 + INSERT + 12, y0 + INSERT - 4))
    body.append(text(x0 + w / 2, y0 + INSERT + 17, "card in, leading edge first", 3,
                     "middle", fill="#c53030"))
    body.append(text(x0 + outer + 2, y0 + 2, "stop wall, %g thick, 5 lever windows %g wide"
                     % (WALL, LEVER_W), 3))
    body.append(text(x0 + outer + 2, y0 + INSERT / 2, "rails %g wide, %g high" % (RAIL,
                     SLOT_GAP), 3))
    body.append(text(x0 + outer + 2, y0 + INSERT / 2 + 5, "channel %g wide, %g deep"
                     % (w, INSERT), 3))
    return svg(150, 110, "Slot guide (one a slot; the slots %g mm apart)" % SLOT_SPACING,
               body)


def switch_mount():
    length, thick, _height = SWITCH
    x0, y0 = 30, 75  # the stop line: the card's leading edge, seated
    w = CARD_W + 2 * CLEARANCE
    body = [
        text(8, 24, "Top view: the switches behind the stop wall (grey, dashed), their "
             "levers through its windows.", 3),
        text(8, 29, "The card comes up the page; seated, its leading edge is on the red "
             "line. Levers at rest, %g mm in front of" % LEVER_REACH, 3),
        text(8, 34, "the bodies (LEVER_REACH: measure your switch; the wall is then %g "
             "thick)." % WALL, 3),
        '<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#888" '
        'stroke-width="0.25" stroke-dasharray="1,1"/>' % (x0, y0 - WALL, w, WALL),
        '<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="#c53030" stroke-width="0.3" '
        'stroke-dasharray="1.5,1"/>' % (x0 - 6, y0, x0 + w + 6, y0),
    ]
    rests = [(position_x(i), OVERRUN, str(i)) for i in range(POSITIONS)] + [
        (SEATED_X, OVERRUN - SEATED_DEEPER, "S")]
    for x, past, label in rests:
        cx = x0 + CLEARANCE + x
        front = y0 + past - LEVER_REACH  # the body's front face
        body.append('<rect x="%g" y="%g" width="%g" height="%g" fill="#eee" stroke="black" '
                    'stroke-width="0.25"/>' % (cx - thick / 2, front - length, thick, length))
        body.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black" stroke-width="0.6"/>'
                    % (cx, front, cx, y0 + past))
        body.append(text(cx, front - length - 1.5, label, 3, "middle", "bold"))
    body.append(text(x0 + w + 8, y0 - 20, "0-3: the code switches, their levers at rest %g "
                     "in front of the red line" % OVERRUN, 3))
    body.append(text(x0 + w + 8, y0 - 15, "S: the seated switch, %g deeper: at rest %g in "
                     "front of it," % (SEATED_DEEPER, OVERRUN - SEATED_DEEPER), 3))
    body.append(text(x0 + w + 8, y0 - 10, "so it closes last. A tab pushes its lever back "
                     "to the red line; a notch (%g deep) never reaches it" % NOTCH_D, 3))
    return svg(190, 110, "Switch mount: five lever microswitches per slot", body)


def check_fit():
    """The parts the numbers describe fit together (raises AssertionError)."""
    xs = [position_x(i) for i in range(POSITIONS)]
    assert NOTCH_W < PITCH and xs[0] - NOTCH_W / 2 > 0 and xs[-1] + NOTCH_W / 2 < CARD_W
    assert OVERRUN < NOTCH_D  # a lever in a notch is never pressed
    assert OVERRUN - SEATED_DEEPER > 0  # the seated switch closes at all
    assert all(abs(SEATED_X - x) >= NOTCH_W / 2 + LEVER_W / 2 for x in xs)
    assert SEATED_X + LEVER_W / 2 <= CARD_W + CLEARANCE
    bodies = sorted(xs + [SEATED_X])
    assert all(b - a >= SWITCH[1] for a, b in zip(bodies, bodies[1:], strict=False))
    assert CARD_T < SLOT_GAP and INSERT < CARD_L and WALL >= 2


def scad():
    lines = ["// Generated by tools/drawings.py from the numbers the drawings use: do not edit."]
    for name in ("CARD_W", "CARD_L", "CARD_T", "CLEARANCE", "SLOT_GAP", "INSERT", "RAIL",
                 "SLOT_SPACING", "SWITCH"):
        value = globals()[name]
        if isinstance(value, tuple):
            value = "[%s]" % ", ".join("%g" % v for v in value)
        else:
            value = "%g" % value
        lines.append("%s = %s;" % (name, value))
    return "\n".join(lines) + "\n"


def outputs():
    """{path: text} of every file this writes."""
    check_fit()
    out = {os.path.join(OUT, name): draw() for name, draw in (
        ("cards.svg", cards), ("codes.svg", codes), ("slot-guide.svg", slot_guide),
        ("switch-mount.svg", switch_mount))}
    for name, drawn in wiring_svg.diagrams().items():
        out[os.path.join(OUT, name)] = drawn
    out[os.path.join(REPO, "docs", "wiring.svg")] = wiring_svg.draw()
    out[os.path.join(REPO, "case", "dimensions.scad")] = scad()
    hw = os.path.join(REPO, *"docs/hardware.md".split("/"))
    with open(hw) as f:
        out[hw] = with_table(f.read())
    return out


def _between(doc, mark, rows):
    start, end = "<!-- %s -->\n" % mark, "<!-- /%s -->\n" % mark
    i, j = doc.index(start) + len(start), doc.index(end)
    return doc[:i] + "\n".join(rows) + "\n" + doc[j:]


def with_table(doc):
    """docs/hardware.md with its card codes and its dimensions written from these numbers."""
    codes = ["| card | tabs at | notches at | as held |", "| --- | --- | --- | --- |"]
    for n in range(1, 7):
        t = tabs(n)
        codes.append("| %d | %s | %s | `%s` |" % (
            n, ", ".join(str(i) for i in range(POSITIONS) if t[i]),
            ", ".join(str(i) for i in range(POSITIONS) if not t[i]), as_held(n)))
    dims = ["| part | mm | |", "| --- | --- | --- |"]
    dims += ["| %s | %s | %s |" % row for row in dimensions()]
    return _between(_between(doc, "codes", codes), "dimensions", dims)


def main(argv):
    stale = []
    for path, data in outputs().items():
        try:
            with open(path) as f:
                same = f.read() == data
        except OSError:
            same = False
        if same:
            continue
        stale.append(os.path.relpath(path, REPO))
        if "--check" not in argv:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(data)
    if "--check" in argv:
        if stale:
            print("not current (python tools/drawings.py): " + ", ".join(stale))
            return 1
        return 0
    for path in stale:
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
