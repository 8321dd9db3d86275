"""The case (case/case.scad) builds with OpenSCAD, with slots the cards of docs/drawings/ go in:
its numbers are case/dimensions.scad, which tools/drawings.py writes (test_drawings holds it
current). Skipped, saying so, where openscad is not installed (make case-deps)."""

import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCAD = os.path.join(ROOT, "case", "case.scad")


def render(tmp_path, part, *defines):
    if shutil.which("openscad") is None:
        pytest.skip("openscad is not installed (make case-deps)")
    out = tmp_path / ("%s.stl" % part)
    args = ["openscad", "-o", str(out), "-D", 'part="%s"' % part]
    for d in defines:
        args += ["-D", d]
    got = subprocess.run(args + [SCAD], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert not re.search(r"^(WARNING|ERROR)", got.stderr, re.M), got.stderr
    vertices = [tuple(float(v) for v in line.split()[1:])
                for line in out.read_text().splitlines() if line.strip().startswith("vertex")]
    assert vertices, "an empty model"
    return vertices


def box(vertices):
    return [round(max(v[i] for v in vertices) - min(v[i] for v in vertices), 2)
            for i in range(3)]


def test_the_case_builds_and_its_top_is_its_size(tmp_path):
    assert box(render(tmp_path, "top")) == [130, 150, 22]
    assert box(render(tmp_path, "tray")) == [130, 150, 14]


def test_the_slots_take_the_drawn_cards(tmp_path):
    # The slots' channels are as wide as the drawn card and its clearance (dimensions.scad,
    # tools/drawings.py), and the two are as far apart as the drawings say.
    with open(os.path.join(ROOT, "case", "dimensions.scad")) as f:
        dims = {k: float(v) for k, v in re.findall(r"^(\w+) = ([\d.]+);", f.read(), re.M)}
    width = dims["CARD_W"] + 2 * dims["CLEARANCE"]
    inner = [v for v in render(tmp_path, "top") if v[1] == 2 and 2 < v[2] < 12]
    xs = sorted({v[0] for v in inner})
    edges = [(a, b) for a in xs for b in xs if round(b - a, 2) == width]
    assert len(edges) == 2, xs
    assert round(edges[1][0] - edges[0][0], 2) == dims["SLOT_SPACING"]
