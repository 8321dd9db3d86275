"""`make bench`'s rows for the unit in a browser (docs/web.md): headless Chromium, the page
served from 127.0.0.1 as `make web` builds it.

- time to the first display: a cold load (a fresh browser profile, nothing cached), from the
  navigation's start to the first drawing of the unit switched on, median of 3;
- the same over a throttled link (DevTools' Network.emulateNetworkConditions: 1.6 Mbit/s down
  and up, 40 ms latency, a slow phone link), one load: what a player on a poor connection waits,
  the progress bar showing;
- a repeat load: the same browser loading the page again once the service worker keeps its
  copy (served from that, the network not asked), median of 3;
- a key press: a pointer down and up on a key, through the firmware in the webassembly port,
  until the display's drawing is updated (the DOM; the paint follows at the next frame),
  mean and 95th percentile of 200 presses.
"""

import os
import shutil
import sys
import tempfile
import threading

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_MEASURED = "not measured"
LOADS = 3
PRESSES = 200
SLOW_LINK = {"offline": False, "latency": 40, "downloadThroughput": 1_600_000 // 8,
             "uploadThroughput": 1_600_000 // 8}

KEY_SCRIPT = """
const keys = ['1', '2', '3', 'C'];
const ts = [];
const t0 = performance.now();
for (let i = 0; i < %d; i++) {
  const k = document.getElementById('key-' + keys[i %% 4]);
  const t = performance.now();
  k.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerId: 1}));
  k.dispatchEvent(new PointerEvent('pointerup', {bubbles: true, pointerId: 1}));
  ts.push(performance.now() - t);
}
const mean = (performance.now() - t0) / ts.length;  // finer than one press's coarse clock
ts.sort((a, b) => a - b);
return [mean, ts[Math.floor(ts.length * 0.95)]];
""" % PRESSES


def measure():
    """{'first_display_ms': ms, 'key_ms': ms, 'key_p95_ms': ms}, or a string: why not."""
    for p in (REPO, os.path.join(REPO, "web"), os.path.join(REPO, "tests", "web")):
        if p not in sys.path:
            sys.path.insert(0, p)
    import build
    import browserpage

    from simulator import web

    if browserpage.CHROMIUM is None or browserpage.CHROMEDRIVER is None:
        return "no chromium (make web-deps)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "no selenium"
    site = os.path.join(tempfile.mkdtemp(prefix="bank-web-bench-"), "web")
    try:
        build.build(site)
    except build.BuildError as e:
        shutil.rmtree(os.path.dirname(site), ignore_errors=True)
        return "no page: %s" % e
    srv = web.server(site, 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    origin = "http://127.0.0.1:%d" % srv.server_address[1]
    firsts = []
    key = None
    slow = None
    repeats = []
    try:
        drv = _start(browserpage)
        try:
            drv.execute_cdp_cmd("Network.enable", {})
            drv.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_LINK)
            page = browserpage.Page(drv, origin, "seed=1").load()
            slow = drv.execute_script("return bank.firstDisplayMs();")
            drv.execute_async_script("navigator.serviceWorker.ready.then("
                                     "() => arguments[arguments.length - 1](true));")
            for _ in range(LOADS):
                page.load()
                repeats.append(drv.execute_script("return bank.firstDisplayMs();"))
        finally:
            browserpage.stop_chromium(drv)
        for i in range(LOADS):
            drv = _start(browserpage)
            try:
                page = browserpage.Page(drv, origin, "seed=1").load()
                firsts.append(drv.execute_script("return bank.firstDisplayMs();"))
                if i == LOADS - 1:
                    page.send("INSERT L 1")
                    key = drv.execute_script(KEY_SCRIPT)
            finally:
                browserpage.stop_chromium(drv)
    finally:
        srv.shutdown()
        srv.server_close()
        shutil.rmtree(os.path.dirname(site), ignore_errors=True)
    firsts.sort()
    repeats.sort()
    return {"first_display_ms": firsts[len(firsts) // 2], "key_ms": key[0],
            "key_p95_ms": key[1], "slow_first_display_ms": slow,
            "repeat_display_ms": repeats[len(repeats) // 2]}


def _start(browserpage):
    import pytest  # start_chromium skips through pytest where it cannot run

    try:
        return browserpage.start_chromium()
    except pytest.skip.Exception as e:
        raise RuntimeError(str(e)) from None


def rows():
    """The bench table's rows: (figure, value, budget, holds)."""
    try:
        got = measure()
    except Exception as e:  # a browser that would not start: the rows say so, the bench goes on
        got = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:60])
    first = "browser page: time to first display, cold load from 127.0.0.1"
    slow = "browser page: time to first display, first load over 1.6 Mbit/s"
    repeat = "browser page: time to first display, repeat load (service worker's copy)"
    key = "browser page: key press to display redrawn (mean / p95)"
    if isinstance(got, str):
        return [(first, "%s (%s)" % (NOT_MEASURED, got), "-", "-"),
                (slow, NOT_MEASURED, "-", "-"), (repeat, NOT_MEASURED, "-", "-"),
                (key, NOT_MEASURED, "-", "-")]
    return [(first, "%.0f ms" % got["first_display_ms"], "-", "-"),
            (slow, "%.0f ms" % got["slow_first_display_ms"], "-", "-"),
            (repeat, "%.0f ms" % got["repeat_display_ms"], "-", "-"),
            (key, "%.2f ms / %.2f ms" % (got["key_ms"], got["key_p95_ms"]), "-", "-")]


if __name__ == "__main__":
    for r in rows():
        print(" | ".join(r))
