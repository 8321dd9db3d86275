"""`make screenshot`: docs/simulator.png, the real window on Xvfb in the middle of a game.

The game is played through the window's own protocol port (as any host tool would), plus one
real key click, so the picture shows what a person sees: two cards in the slots, a transfer's
payee balance, the deal timer's red light, the banker panel with its log.
"""

import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools import xvfb  # noqa: E402


def main(argv):
    out = argv[0] if argv else os.path.join(ROOT, "docs", "simulator.png")
    missing = xvfb.missing_tools()
    if missing:
        sys.stderr.write("screenshot: missing %s (make gui-deps)\n" % ", ".join(missing))
        return 2
    with tempfile.TemporaryDirectory() as state, xvfb.Xvfb() as x:
        env = x.env({"BANK_SIM_SOUND": "off", "BANK_SIM_STATE": state, "BANK_SIM_PANEL": "1"})
        w = xvfb.LiveWindow(x.display, ["--seed", "11"], env=env)
        try:
            for line in ("INSERT L 1", "KEY M", "REMOVE L", "INSERT R 3", "KEY 4 5 0 K -",
                         "REMOVE R", "INSERT R 2", "INSERT L 4", "KEY 1 . 2 5 M -"):
                reply = w.command(line)
                if not reply.startswith("OK"):
                    raise RuntimeError("%s: %s" % (line, reply))
            w.wait_shown(("16.25", False, True), timeout=5)  # the payee, card 4 (B6)
            w.click_key("DEAL")  # a real click: the deal timer's red light starts flashing
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                if w.command("STATE").find('"red": "slow"') >= 0:
                    break
            # Catch the red light lit: it flashes 500 ms on, 500 ms off (lights.py).
            time.sleep(0.05)
            for _ in range(40):
                _w, _h, rgb = w.grab()
                i = (138 * _w + 67) * 3
                if rgb[i] > 200:
                    break
                time.sleep(0.03)
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            subprocess.run(["import", "-window", w.wid, out], env=env, check=True, timeout=10)
        finally:
            w.stop()
    print("screenshot: " + out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
