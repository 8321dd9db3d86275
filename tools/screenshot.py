"""`make screenshot`: the real window on Xvfb, in docs/ (README, "Two commands"):

- simulator.png: the window at the size it opens at on a 1366 x 768 laptop, banker panel open,
  in the middle of a game: named players, their log, a previous game, the deal timer's red
  light lit;
- simulator-1024x600.png: the same on a 1024 x 600 netbook's screen, the whole screen grabbed:
  the window fits it;
- simulator-1920x1080.png: the window filling a 1920 x 1080 screen: the unit in the middle,
  the sentence under it as wide as the window, here a refused payment said in words;
- simulator-large-display.png: the large-display mode (F11), the unit's display filling the
  window, for a table to read from across it;
- simulator-error.png: a refused payment, with the window saying why in words.

The game is played through the window's own protocol port (as any host tool would), plus real
key clicks and key presses, so each picture shows what a person sees.
"""

import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from simulator.window import layout  # noqa: E402
from tools import xvfb  # noqa: E402

GAME = ("NAME 1 Ann", "NAME 2 Bob", "NAME 3 Chloe", "NAME 4 Dev", "INSERT L 1", "KEY M",
        "REMOVE L", "INSERT R 3", "KEY 4 5 0 K -", "REMOVE R", "INSERT R 2", "INSERT L 4",
        "KEY 1 . 2 5 M -")
# A game played, then a new one (C held 3 s: the first is kept, the panel lists it), played.
TWO_GAMES = GAME + ("REMOVE L", "REMOVE R", "HOLD C 3000") + GAME[4:]
REFUSED = GAME[:4] + ("INSERT R 3", "INSERT L 1", "KEY 5 0 0 K -")
RED_LIGHT = (67, 138)  # the red light's middle, in the drawing (layout.py)


def play(w, lines):
    for line in lines:
        reply = w.command(line)
        if not reply.startswith("OK"):
            raise RuntimeError("%s: %s" % (line, reply))


def red_lit(w):
    """Return just after the red light came on: it flashes 500 ms on, 500 ms off (lights.py),
    and a picture takes a good part of that, so wait for the light to go on, not for it on."""
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if w.command("STATE").find('"red": "slow"') >= 0:
            break
    x, y = w.at(*RED_LIGHT)
    was_lit = True
    for _ in range(60):
        width, _h, rgb = w.grab()
        i = (y * width + x) * 3
        lit = xvfb._near(tuple(rgb[i:i + 3]), layout.RED_ON)
        if lit and not was_lit:
            return
        was_lit = lit
        time.sleep(0.02)


def snap(w, env, path, settle=0.3, window=None):
    time.sleep(settle)  # let Tk draw what it was told
    subprocess.run(["import", "-window", window or w.wid, path], env=env, check=True,
                   timeout=10)
    print("screenshot: " + path)


def window(x, state, extra, args=("--seed", "11")):
    env = x.env(dict({"BANK_SIM_SOUND": "off", "BANK_SIM_STATE": state}, **extra))
    return xvfb.LiveWindow(x.display, list(args), env=env), env


def mid_game(out, screen, name, whole_screen=False):
    """The window as it opens on that screen, panel open, two games played, DEAL pressed."""
    with xvfb.Xvfb(size=screen + "x24") as x, tempfile.TemporaryDirectory() as state:
        w, env = window(x, state, {"BANK_SIM_PANEL": "1"})
        try:
            play(w, TWO_GAMES)
            w.wait_shown(("16.25", False, True), timeout=5)  # the payee, Dev (B6)
            w.click_key("DEAL")  # a real click: the deal timer's red light starts flashing
            red_lit(w)
            snap(w, env, os.path.join(out, name), 0, "root" if whole_screen else None)
        finally:
            w.stop()


def main(argv):
    out = argv[0] if argv else os.path.join(ROOT, "docs")
    if out.endswith(".png"):  # the old form: one file named; the others go beside it
        out = os.path.dirname(os.path.abspath(out))
    missing = xvfb.missing_tools()
    if missing:
        sys.stderr.write("screenshot: missing %s (make gui-deps)\n" % ", ".join(missing))
        return 2
    os.makedirs(out, exist_ok=True)
    mid_game(out, "1366x768", "simulator.png")
    mid_game(out, "1024x600", "simulator-1024x600.png", whole_screen=True)
    with xvfb.Xvfb(size="1920x1080x24") as x, tempfile.TemporaryDirectory() as state:
        w, env = window(x, state, {"BANK_SIM_PANEL": "1"})
        try:
            w.xdo("windowsize", "--sync", w.wid, "1920", "1080")
            w.locate()
            play(w, REFUSED)
            time.sleep(1.2)  # the payer's balance, then the payee's (B6)
            w.keys("2", "0", "m", "minus")  # real keys: Chloe cannot pay 20 M
            snap(w, env, os.path.join(out, "simulator-1920x1080.png"))
        finally:
            w.stop()
    with xvfb.Xvfb(size="1366x768x24") as x:
        with tempfile.TemporaryDirectory() as state:
            w, env = window(x, state, {"BANK_SIM_LARGE": "1"})
            try:
                w.xdo("windowsize", "--sync", w.wid, "1000", "620")
                play(w, REFUSED)
                time.sleep(1.2)
                w.keys("2", "0", "m", "minus")
                time.sleep(0.1)
                snap(w, env, os.path.join(out, "simulator-large-display.png"))
            finally:
                w.stop()
        with tempfile.TemporaryDirectory() as state:
            w, env = window(x, state, {})
            try:
                play(w, REFUSED)
                time.sleep(1.2)
                w.keys("2", "0", "m", "minus")
                time.sleep(0.1)
                snap(w, env, os.path.join(out, "simulator-error.png"))
            finally:
                w.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
