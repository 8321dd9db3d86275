"""The window as it opens on a 1366 x 768 laptop's screen (360 x 704, the banker panel closed):
the drawn unit keeps its size when the sentence under it wraps to three lines, and F11 makes
the display's digits clearly larger. Measured in a process of its own on an Xvfb of that size
(Tk keeps a display open until its process ends), from the drawn items and the widgets."""

import json
import os
import subprocess
import sys

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from tests.gui.hands import advance, settle
from simulator import frontend, options
from simulator.host import Host
from simulator.window import app, layout

tk = pytest.importorskip("tkinter")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def keys(w, *syms, state=0):
    for s in syms:
        w.root.event_generate("<KeyPress>", keysym=s, state=state)
        w.root.event_generate("<KeyRelease>", keysym=s, state=state)
        settle(w)


def digit_width(c, tag):
    """The width of the first cell's seven segments as drawn with tag on canvas c."""
    segs = c.find_withtag(tag)[:7]
    xs = [x for s in segs for x in c.coords(s)[0::2]]
    return max(xs) - min(xs)


def measure():
    host = Host(options.parse(["--virtual-clock", "--seed", "7"]))
    root = tk.Tk()
    w = app.Window(host, root=root, sound=frontend.Sound(None))
    root.update()
    root.focus_force()
    root.update()
    line = tk.font.Font(font=w.status_label.cget("font")).metrics("linespace")
    out = {"size": (root.winfo_width(), root.winfo_height()), "lines": []}
    for name in ("NAME 3 Ann", "NAME 1 Bob"):
        w.desk.handle(name)
    w.read_names()
    keys(w, "F3", state=1)  # card 3 into R
    keys(w, "F1")  # card 1 into L
    advance(w, 1000)
    for syms in ((), ("2", "0", "m", "plus")):  # a line, then '+' with two cards: three
        keys(w, *syms)
        root.update()
        out["lines"].append((round(w.status_label.winfo_reqheight() / line), w.scale,
                             w.canvas.winfo_height(), w.status_label.cget("text")))
    keys(w, "c", "F1")
    out["unit_digit"] = digit_width(w.canvas, "seg")
    keys(w, "F11")
    advance(w, 100)
    root.update()
    out["large"] = (w.large, root.winfo_width(), root.winfo_height(),
                    digit_width(w.big, "big-seg"))
    keys(w, "F11")
    root.update()
    out["back"] = (w.large, root.winfo_width(), root.winfo_height())
    w.close()
    return out


@pytest.fixture(scope="module")
def laptop(quiet_env_module):
    from tools.xvfb import Xvfb

    try:
        x = Xvfb(size="1366x768x24")
    except RuntimeError as why:
        pytest.skip(str(why))
    try:
        got = subprocess.run([sys.executable, __file__], cwd=ROOT,
                             env=dict(quiet_env_module, DISPLAY=x.display),
                             capture_output=True, text=True, timeout=120)
    finally:
        x.stop()
    assert got.returncode == 0, got.stderr[-2000:]
    return json.loads(got.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def quiet_env_module(tmp_path_factory, xdisplay):
    env = dict(os.environ, BANK_SIM_SOUND="off", PYTHONPATH=ROOT, LANG="C.UTF-8",
               BANK_SIM_STATE=str(tmp_path_factory.mktemp("flash")))
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(name, None)
    return env


def test_the_drawn_unit_keeps_its_size_when_the_sentence_wraps_to_three_lines(laptop):
    assert laptop["size"] == [360, 704]  # as the window opens there
    (one, _s1, h1, said1), (three, s3, h3, said3) = laptop["lines"]
    assert one == 1 and said1 == "Ann (card 3): 15 M"
    assert three == 3 and said3.startswith("with two cards in, press")
    assert (s3, h3) == (_s1, h1)  # the unit did not shrink, the canvas did not jump


def test_f11_makes_the_digits_clearly_larger_and_f11_again_gives_the_window_back(laptop):
    large, width, height, big = laptop["large"]
    assert large and big >= 1.5 * laptop["unit_digit"], laptop
    assert width <= 1366 and height == 704
    assert laptop["back"] == [False, 360, 704]
    assert laptop["unit_digit"] == pytest.approx(layout.CELL_W * laptop["lines"][0][1], abs=2)


if __name__ == "__main__":
    print(json.dumps(measure()))
