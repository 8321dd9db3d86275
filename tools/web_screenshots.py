"""`make web-screenshots`: docs/web-phone.png, docs/web-landscape.png, docs/web-desktop.png,
docs/web-second-tab.png, docs/web-loading.png, docs/web-icon.png, and on a 390x844 phone
docs/web-refusal.png, docs/web-hold.png, docs/web-french.png, docs/web-kept-games.png.

The page built as `make web` builds it, served on 127.0.0.1, in headless Chromium at a phone's
size (portrait and landscape) and a desktop's, a short game played over its own protocol
first so the display, the lights and the banker panel have something to show; on a phone, a
second tab opened on the same game (its message, docs/web.md "One tab runs the game") and a
first load over a slow link (its progress bar). A browser's own install prompt is not part of
the page, and headless Chromium draws none: the app's icon stands for it (web/icons.py). On a
virtual clock, so each moment is the one meant: a refusal explained (B8), C held for a second
(the countdown to a new game, B11), the page in French, the kept games in the banker panel.

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
        for name, query, steps, scroll in MOMENTS:
            moment(origin, os.path.join(out, name), query, steps, scroll)
        second_tab(origin, os.path.join(out, "web-second-tab.png"))
        loading(origin, os.path.join(out, "web-loading.png"))
        import icons

        with open(os.path.join(out, "web-icon.png"), "wb") as f:
            f.write(icons.png(192))
        print("wrote", os.path.join(out, "web-icon.png"))
    finally:
        srv.shutdown()
        shutil.rmtree(os.path.dirname(site), ignore_errors=True)
    return 0


def _phone(w=360, h=740):
    from browserpage import start_chromium

    drv = start_chromium(w, h, True)
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": w, "height": h, "deviceScaleFactor": 2, "mobile": True})
    return drv


# A moment on a 390x844 phone: (file, URL options, steps, the element scrolled to or None). A
# step is a protocol line, or ("act", op, a, b): a tap as the page's own inputs make it.
def _tap(*keys):
    return [s for k in keys for s in (("act", "down", k), ("act", "up", k))]


MOMENTS = (
    ("web-refusal.png", "clock=virtual&seed=7&lang=en",
     list(GAME) + ["ADVANCE 1000"] + _tap("2", "0", "M", "-"), None),
    ("web-hold.png", "clock=virtual&seed=7&lang=en",
     list(GAME) + ["ADVANCE 1000", ("act", "down", "C"), "ADVANCE 1000"], None),
    ("web-french.png", "clock=virtual&seed=7&lang=fr",
     list(GAME) + ["REMOVE L", "REMOVE R", "NAME 2 Zoe"] + _tap("DEAL")
     + [("act", "in", "L", 2), "ADVANCE 1000"] + _tap("M", "M"), None),
    ("web-kept-games.png", "clock=virtual&seed=7&lang=en",
     list(GAME) + ["REMOVE L", "REMOVE R", "NAME 1 Ann", "NAME 4 Bob", ("act", "down", "C"),
                   "ADVANCE 3000", ("act", "up", "C"), ("act", "down", "DEAL"), "ADVANCE 3000",
                   ("act", "up", "DEAL"), "INSERT R 4", "INSERT L 1", "KEY 300K-",
                   "REMOVE L", "REMOVE R"], "games"),
)


def moment(origin, path, query, steps, scroll):
    from browserpage import Page, stop_chromium

    drv = _phone(390, 844)
    try:
        page = Page(drv, origin, query).load()
        for step in steps:
            if isinstance(step, tuple):
                drv.execute_script("bank.act(arguments[0], arguments[1], arguments[2]);",
                                   *(step[1:] + (None,) * (4 - len(step))))
            else:
                page.send(step)
        if scroll:
            drv.execute_script("document.getElementById(arguments[0]).scrollIntoView("
                               "{block: 'center'});", scroll)
        drv.save_screenshot(path)
        print("wrote", path)
    finally:
        stop_chromium(drv)


def second_tab(origin, path):
    """The same game opened in a second tab while the first runs it: the second's message."""
    from browserpage import Page, stop_chromium

    drv = _phone()
    try:
        page = Page(drv, origin, "seed=7").load()
        for line in GAME[:3]:
            page.send(line)
        drv.switch_to.new_window("tab")
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
        drv.get("%s/?%s" % (origin, page.query))
        end = time.monotonic() + 10
        while not drv.execute_script(
                "const n = document.getElementById('notice'); return n && !n.hidden;"):
            if time.monotonic() > end:
                raise RuntimeError("the second tab never said the game is elsewhere")
            time.sleep(0.05)
        drv.save_screenshot(path)
        print("wrote", path)
    finally:
        stop_chromium(drv)


def loading(origin, path):
    """A first load over a slow link (1.6 Mbit/s), caught part way: the progress bar."""
    from browserpage import Page, stop_chromium

    drv = _phone()
    try:
        drv.execute_cdp_cmd("Network.enable", {})
        drv.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 40, "downloadThroughput": 200_000,
            "uploadThroughput": 200_000})
        page = Page(drv, origin)
        drv.execute_cdp_cmd("Page.navigate", {"url": "%s/?%s" % (origin, page.query)})
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                v = drv.execute_script("const b = document.getElementById('load-bar');"
                                       "return b ? b.value : null;")
            except Exception:
                v = None
            if v is not None and v >= 0.4:
                break
            time.sleep(0.05)
        drv.save_screenshot(path)
        print("wrote", path)
    finally:
        stop_chromium(drv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
