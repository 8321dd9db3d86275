"""`make web-screenshots`: docs/web-phone.png, docs/web-landscape.png, docs/web-desktop.png.

The page built as `make web` builds it, served on 127.0.0.1, in headless Chromium at a phone's
size (portrait and landscape) and a desktop's, a short game played over its own protocol
first so the display, the lights and the banker panel have something to show.

    python tools/web_screenshots.py [DIR]
"""

import os
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "web"), os.path.join(ROOT, "tests", "web")]

SHOTS = (  # name, width, height, scale, mobile
    ("web-phone.png", 360, 740, 2, True),
    ("web-landscape.png", 740, 360, 2, True),
    ("web-desktop.png", 1280, 800, 1, False),
)
GAME = ("INSERT L 1", "KEY 2M+", "REMOVE L", "INSERT L 4", "INSERT R 3", "KEY 750K-",
        "REMOVE L", "REMOVE R", "INSERT L 2", "KEY 1.25M+", "REMOVE L", "INSERT L 4",
        "INSERT R 2", "KEY 1.25M-")


def main(argv):
    import build
    from browserpage import Page, start_chromium, stop_chromium

    from simulator import web

    out = argv[0] if argv else os.path.join(ROOT, "docs")
    site = os.path.join(tempfile.mkdtemp(prefix="bank-web-"), "web")
    build.build(site)
    srv = web.server(site, 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    origin = "http://127.0.0.1:%d" % srv.server_address[1]
    try:
        for name, w, h, scale, mobile in SHOTS:
            drv = start_chromium(w, h, mobile)
            try:
                drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": w, "height": h, "deviceScaleFactor": scale, "mobile": mobile})
                page = Page(drv, origin, "seed=7").load()
                for line in GAME:
                    page.send(line)
                time.sleep(1.2)  # the payer's balance, then the payee's (B6)
                page.drv.execute_script("bank.act('tick')")
                drv.save_screenshot(os.path.join(out, name))
                print("wrote", os.path.join(out, name))
            finally:
                stop_chromium(drv)
    finally:
        srv.shutdown()
        shutil.rmtree(os.path.dirname(site), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
