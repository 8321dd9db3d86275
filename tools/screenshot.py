"""`make screenshot`: the real window on Xvfb, in docs/ (README, "Two commands"):

- simulator.png: the whole unit in the middle of a game with the banker panel (named players,
  their log, the previous games), the deal timer's red light lit;
- simulator-big.png: the same window resized larger, everything scaled with it;
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

from tools import xvfb  # noqa: E402

GAME = ("NAME 1 Ann", "NAME 2 Bob", "NAME 3 Chloe", "NAME 4 Dev", "INSERT L 1", "KEY M",
        "REMOVE L", "INSERT R 3", "KEY 4 5 0 K -", "REMOVE R", "INSERT R 2", "INSERT L 4",
        "KEY 1 . 2 5 M -")


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
    was_lit = True
    for _ in range(60):
        _w, _h, rgb = w.grab()
        lit = _red_on(_w, rgb)
        if lit and not was_lit:
            return
        was_lit = lit
        time.sleep(0.02)


def _red_on(width, rgb):
    # The light's own red (layout.RED_ON), wherever the window's size has put the light.
    for y in range(110, 260, 3):
        for x in range(40, 160, 3):
            i = (y * width + x) * 3
            if rgb[i] > 240 and rgb[i + 1] < 60 and rgb[i + 2] < 60:
                return True
    return False


def snap(w, env, path, settle=0.3):
    time.sleep(settle)  # let Tk draw what it was told
    subprocess.run(["import", "-window", w.wid, path], env=env, check=True, timeout=10)
    print("screenshot: " + path)


def window(x, state, extra, args=("--seed", "11")):
    env = x.env(dict({"BANK_SIM_SOUND": "off", "BANK_SIM_STATE": state}, **extra))
    return xvfb.LiveWindow(x.display, list(args), env=env), env


def main(argv):
    out = argv[0] if argv else os.path.join(ROOT, "docs")
    if out.endswith(".png"):  # the old form: one file named; the others go beside it
        out = os.path.dirname(os.path.abspath(out))
    missing = xvfb.missing_tools()
    if missing:
        sys.stderr.write("screenshot: missing %s (make gui-deps)\n" % ", ".join(missing))
        return 2
    os.makedirs(out, exist_ok=True)
    with xvfb.Xvfb(size="1400x1200x24") as x:
        with tempfile.TemporaryDirectory() as state:
            w, env = window(x, state, {"BANK_SIM_PANEL": "1"})
            try:
                play(w, GAME)
                w.wait_shown(("16.25", False, True), timeout=5)  # the payee, Dev (B6)
                w.click_key("DEAL")  # a real click: the deal timer's red light starts flashing
                red_lit(w)
                snap(w, env, os.path.join(out, "simulator.png"), 0)
                w.xdo("windowsize", "--sync", w.wid, "1060", "1160")
                time.sleep(0.5)
                red_lit(w)
                snap(w, env, os.path.join(out, "simulator-big.png"), 0)
            finally:
                w.stop()
        with tempfile.TemporaryDirectory() as state:
            w, env = window(x, state, {"BANK_SIM_LARGE": "1"})
            try:
                w.xdo("windowsize", "--sync", w.wid, "1000", "620")
                play(w, GAME[:4] + ("INSERT R 3", "INSERT L 1", "KEY 5 0 0 K -"))
                time.sleep(1.2)  # the payer's balance, then the payee's (B6)
                w.keys("2", "0", "m", "minus")  # real keys: Chloe cannot pay 20 M
                time.sleep(0.1)
                snap(w, env, os.path.join(out, "simulator-large-display.png"))
            finally:
                w.stop()
        with tempfile.TemporaryDirectory() as state:
            w, env = window(x, state, {})
            try:
                play(w, GAME[:4] + ("INSERT R 3", "INSERT L 1", "KEY 5 0 0 K -"))
                time.sleep(1.2)
                w.keys("2", "0", "m", "minus")
                time.sleep(0.1)
                snap(w, env, os.path.join(out, "simulator-error.png"))
            finally:
                w.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
