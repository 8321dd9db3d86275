"""The drawings a maker prints (docs/drawings/, tools/drawings.py): current with the numbers and
the pin map they are drawn from, at 1:1, and cards that the slot driver reads as the cards they
are, and as none face down or back end first (docs/rules.md, "The unit").
"""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import drawings  # noqa: E402
from board.drivers.slots import Slot  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def test_the_drawings_the_wiring_and_the_docs_tables_are_current():
    got = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "drawings.py"),
                          "--check"], capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stdout + got.stderr
    for path, data in drawings.outputs().items():
        with open(path) as f:
            assert f.read() == data, path


def test_every_drawing_prints_at_1_to_1():
    names = sorted(n for n in os.listdir(drawings.OUT) if n.endswith(".svg"))
    assert "cards.svg" in names and "slot-guide.svg" in names and len(names) >= 10
    for name in names:
        root = ET.parse(os.path.join(drawings.OUT, name)).getroot()
        w, h = root.get("width"), root.get("height")
        assert w.endswith("mm") and h.endswith("mm"), name
        assert [float(v) for v in root.get("viewBox").split()] == [0, 0, float(w[:-2]),
                                                                   float(h[:-2])], name


def card_paths():
    """The six cards' cut lines in cards.svg, in drawing order: [[(x, y), ...]]."""
    root = ET.parse(os.path.join(drawings.OUT, "cards.svg")).getroot()
    out = []
    for path in root.iter(SVG + "path"):
        if path.get("fill") == "none":
            nums = [float(v) for v in re.findall(r"-?\d+\.?\d*", path.get("d"))]
            pts = []
            for _cmd, args in re.findall(r"([MLA])([^MLAZ]*)", path.get("d")):
                vals = [float(v) for v in args.split()]
                pts.append((vals[-2], vals[-1]))
            assert nums
            out.append(pts)
    assert len(out) == 6
    return out


def test_each_card_is_drawn_its_size_with_its_notches_where_its_code_has_none():
    for n, pts in enumerate(card_paths(), 1):
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        x0, y0 = min(xs), min(ys)
        assert round(max(xs) - x0, 2) == drawings.CARD_W and round(max(ys) - y0, 2) == \
            drawings.CARD_L
        # a notch: points at the notch's depth below the leading edge, in pairs across it
        bottoms = sorted(x - x0 for x, y in pts if round(y - y0, 2) == drawings.NOTCH_D)
        centres = [round((a + b) / 2, 2) for a, b in zip(bottoms[0::2], bottoms[1::2],
                                                         strict=True)]
        assert centres == [drawings.position_x(i) for i in range(4) if not
                           drawings.tabs(n)[i]], n


def read_drawn(pts, face_down=False, back_first=False):
    """The card the slot driver reads from a drawn card pushed home against the switch levers
    at their drawn places: a lever is pressed where the edge meets it with no notch."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0 = min(xs), min(ys)
    notches = []
    for (xa, ya), (xb, yb) in zip(pts, pts[1:], strict=False):
        if round(ya - y0, 2) == drawings.NOTCH_D and round(yb - y0, 2) == drawings.NOTCH_D:
            notches.append((min(xa, xb) - x0, max(xa, xb) - x0))
    if back_first:
        notches = []  # the trailing edge: no notch
    if face_down:
        notches = [(drawings.CARD_W - b, drawings.CARD_W - a) for a, b in notches]

    def pressed(x):
        half = drawings.LEVER_W / 2
        return not any(a - 0.01 <= x - half and x + half <= b + 0.01 or a < x < b
                       for a, b in notches)

    class Contact:
        def __init__(self, x):
            self.x = x

        def value(self):
            return 0 if pressed(self.x) else 1  # closed reads 0

    slot = Slot([Contact(drawings.position_x(i)) for i in range(4)],
                Contact(drawings.SEATED_X))
    return slot.read()


def test_the_drawn_cards_read_as_themselves_and_as_none_the_wrong_way_round():
    for n, pts in enumerate(card_paths(), 1):
        assert read_drawn(pts) == n
        assert read_drawn(pts, face_down=True) is None
        assert read_drawn(pts, back_first=True) is None


def test_the_codes_are_written_as_the_card_is_held():
    # card 1's one tab is at position 0, the leftmost as the card is held face up
    assert drawings.as_held(1) == "T---"
    assert [drawings.as_held(n) for n in range(2, 7)] == ["-T--", "TT--", "T-T-", "TTT-",
                                                          "TT-T"]
    with open(os.path.join(ROOT, *"docs/hardware.md".split("/"))) as f:
        doc = f.read()
    assert "| 1 | 0 | 1, 2, 3 | `T---` |" in doc
    assert "`0001`" not in doc  # the old, mirrored way of writing card 1
