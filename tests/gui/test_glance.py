"""The window at a glance: nothing drawn over anything else, the unit in the middle of the
window, the sentence as wide as the window, and the window's own size within a small screen's,
banker panel open. Read from the drawn items' bounding boxes and the widgets' sizes on Xvfb,
not from pixels."""

import sys

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from tests.gui.hands import advance, settle
from simulator import frontend, options
from simulator.host import Host
from simulator.window import app, sizes

tk = pytest.importorskip("tkinter")

LONG = ("holding C: a new game in 2.0 s, every card back to the start; let go now for a plain "
        "C")


def maintenance(w):
    w.root.event_generate("<KeyPress>", keysym="d")
    w.root.update()
    advance(w, 3000)  # DEAL held 3 s
    w.root.event_generate("<KeyRelease>", keysym="d")
    settle(w)
    assert w.unit.maintenance


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def resize(w, width, height):
    w.root.geometry("%dx%d" % (width, height))
    w.root.update()
    w.root.update()


@pytest.mark.parametrize("size", [None, (300, 520), (900, 1000)])
def test_maintenance_is_said_off_the_banner(win, size):
    if size:
        resize(win, *size)
    maintenance(win)
    c = win.canvas
    label = c.bbox(win.maint_item)
    assert c.itemcget(win.maint_item, "text") == "MAINTENANCE"
    assert c.itemcget(win.maint_badge, "state") == "normal"
    assert not overlap(label, c.bbox("banner-text"))
    assert not overlap(label, c.bbox("banner"))
    # Over nothing else either: only the unit's body and its own badge are under it.
    under = set(c.find_overlapping(*label)) - {win.maint_item, win.maint_badge}
    assert under == set(c.find_withtag("body"))


def test_the_unit_is_centred_in_a_wide_window(win):
    resize(win, 1000, 900)
    body = win.canvas.bbox("body")
    assert abs((body[0] + body[2]) / 2 - win.root.winfo_width() / 2) <= 3
    assert body[1] > 0 and body[3] < win.canvas.winfo_height()
    # With the panel open, in the middle of what the panel leaves.
    win.toggle_panel()
    win.root.update()
    win.root.update()
    body = win.canvas.bbox("body")
    left = win.root.winfo_width() - win.panel.winfo_width()
    assert abs((body[0] + body[2]) / 2 - left / 2) <= 3
    # The mouse follows: a key clicked where it is drawn now is pressed.
    x0, y0, x1, y1 = win.canvas.bbox("key-7")
    win.canvas.event_generate("<ButtonPress-1>", x=(x0 + x1) // 2, y=(y0 + y1) // 2)
    win.canvas.event_generate("<ButtonRelease-1>", x=(x0 + x1) // 2, y=(y0 + y1) // 2)
    win.root.update()
    assert win.unit.entry == "7"


def test_the_sentence_uses_the_width_there_is(win):
    resize(win, 1300, 900)
    win.say(LONG)
    win.root.update()
    line = tk.font.Font(font=win.status_label.cget("font")).metrics("linespace")
    assert win.status_label.winfo_reqheight() < 2 * line  # one line, not a narrow column
    assert win.status_label.winfo_width() > 1200


def test_a_long_sentence_does_not_resize_the_window(win):
    win.root.update()
    size = (win.root.winfo_width(), win.root.winfo_height())
    win.say(LONG + "; " + LONG)
    win.root.update()
    assert (win.root.winfo_width(), win.root.winfo_height()) == size
    assert win.status_label.winfo_ismapped()


GAME = ("NAME 1 Abcdefghijkl", "NAME 2 Bob", "NAME 3 Chloe", "INSERT L 1", "KEY 1 0 0 K +",
        "NEWGAME", "KEY 2 0 0 K +", "NEWGAME", "REMOVE L", "INSERT L 3", "KEY 1 . 2 3 5 M +",
        "NEWGAME")


def measure():
    """In a process of its own, on $DISPLAY (Tk keeps a display open until its process ends):
    the window with the panel open and three kept games, measured."""
    host = Host(options.parse(["--virtual-clock", "--seed", "7", "--maintenance"]))
    for line in GAME:
        assert host.protocol.handle(line)[-1].startswith("OK"), line
    root = tk.Tk()
    w = app.Window(host, root=root, sound=frontend.Sound(None), panel=True)
    root.update()
    root.update()
    out = {"games": len(w.games), "panel_shown": bool(w.panel.winfo_ismapped()),
           "screen": (root.winfo_screenwidth(), root.winfo_screenheight()),
           "size": (root.winfo_width(), root.winfo_height()),
           "req": (root.winfo_reqwidth(), root.winfo_reqheight()),
           "canvas": (w.canvas.winfo_width(), w.canvas.winfo_height()),
           "body": w.canvas.bbox("body"),
           "panel": (w.panel.winfo_x(), w.panel.winfo_width(), w.panel.winfo_height()),
           "panel_req": (w.panel.winfo_reqwidth(), w.panel.winfo_reqheight()),
           "say_bottom": w.say_box.winfo_y() + w.say_box.winfo_height(),
           "main_h": w.main.winfo_height()}
    w.toggle_panel()
    root.update()
    out["without_panel"] = root.winfo_width()
    w.toggle_panel()
    root.update()
    out["panel_again"] = root.winfo_width()
    w.close()
    return out


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("screen", ["1024x600", "1366x768"])
def test_the_window_fits_a_small_screen_with_the_panel_open(screen, lang, quiet_env):
    # A netbook's and a small laptop's screen, three kept games with names in the panel: the
    # window asks for no more than the screen has, less its title bar and a desktop's panel.
    import json
    import subprocess
    import sys

    from tools.xvfb import Xvfb

    try:
        x = Xvfb(size=screen + "x24")
    except RuntimeError as why:
        pytest.skip(str(why))
    try:
        # in each language: the French labels are longer
        got = subprocess.run([sys.executable, __file__, lang],
                             env=dict(quiet_env, DISPLAY=x.display),
                             capture_output=True, text=True, timeout=60)
    finally:
        x.stop()
    assert got.returncode == 0, got.stderr
    m = json.loads(got.stdout)
    sw, sh = (int(v) for v in screen.split("x"))
    assert m["screen"] == [sw, sh]
    assert m["games"] == 3 and m["panel_shown"]
    width, height = m["size"]
    assert width <= sw - sizes.SCREEN_KEEPS[0] and height <= sh - sizes.SCREEN_KEEPS[1]
    assert m["req"][0] <= width and m["req"][1] <= height
    # Everything is in it: the whole unit, the whole panel, the sentence.
    x0, y0, x1, y1 = m["body"]
    assert x0 >= 0 and y0 >= 0 and x1 <= m["canvas"][0] and y1 <= m["canvas"][1]
    px, pw, ph = m["panel"]
    assert m["panel_req"][0] <= pw and m["panel_req"][1] <= ph and px + pw <= width
    assert m["say_bottom"] <= m["main_h"]
    # Hiding the panel gives its room back; showing it again stays on the screen.
    assert m["without_panel"] < width
    assert m["panel_again"] <= sw - sizes.SCREEN_KEEPS[0]


if __name__ == "__main__":
    import json

    from desktop import words

    words.set_lang(sys.argv[1] if len(sys.argv) > 1 else "en")

    print(json.dumps(measure()))
