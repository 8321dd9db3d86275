"""The first load shows its progress; a later one, from the offline copy, shows the unit at
once (docs/web.md, "Loading"). A fresh Chromium each, its link throttled with the DevTools
protocol (Network.emulateNetworkConditions)."""

import functools
import http.server
import threading

from browserpage import Page, start_chromium, stop_chromium

# Bytes per second: 8 Mbit/s, so the ~0.9 MB the unit needs takes about a second.
FAST_ENOUGH_TO_WATCH = 8_000_000 // 8


def throttle(drv, bytes_per_s, latency_ms):
    drv.execute_cdp_cmd("Network.enable", {})
    drv.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms, "downloadThroughput": bytes_per_s,
        "uploadThroughput": bytes_per_s})


# Every value and text the bar takes, with the overlay's opacity at that moment, recorded by
# the page itself as it changes: what a person watching it saw, whatever the machine running
# the test does between two of its own looks.
WATCH_THE_BAR = """
document.addEventListener('DOMContentLoaded', () => {
  const l = document.getElementById('loading');
  const bar = document.getElementById('load-bar');
  const text = document.getElementById('load-text');
  window.barSeen = [];
  new MutationObserver(() => window.barSeen.push(
      [Number(getComputedStyle(l).opacity) > 0.5, bar.value, text.textContent]))
    .observe(l, {attributes: true, childList: true, characterData: true, subtree: true});
});"""


def test_the_first_load_shows_its_progress_by_bytes(origin):
    drv = start_chromium()
    try:
        throttle(drv, FAST_ENOUGH_TO_WATCH, 20)
        drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_THE_BAR})
        drv.set_script_timeout(120)  # a loaded machine may take long; the page says when done
        page = Page(drv, origin).load()
        seen = drv.execute_script("return window.barSeen;")
        shown = [b for b in seen if b[0]]
        values = [v for _, v, _ in shown]
        assert values == sorted(values), shown  # it only goes forward
        middle = [b for b in shown if 0.1 < b[1] < 0.9]
        assert middle, seen  # seen part way, not only empty and full
        v = middle[0][1]
        assert middle[0][2] in ("Loading the unit\u2026 %d %%" % int(v * 100),
                                "Loading the unit\u2026 %d %%" % (int(v * 100) + 1))
        assert drv.execute_script("return document.getElementById('loading');") is None
        assert drv.execute_script("return bank.view().power;") is True  # and the unit runs
        assert page.console_errors() == []
    finally:
        stop_chromium(drv)


def test_a_later_load_shows_the_unit_at_once_from_the_offline_copy(site):
    from simulator import web

    asked = []

    class Counting(web.Handler):
        def do_GET(self):
            asked.append(self.path.split("?")[0])
            super().do_GET()

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                          functools.partial(Counting, directory=site))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    drv = start_chromium()
    try:
        page = Page(drv, "http://127.0.0.1:%d" % srv.server_address[1]).load()
        assert drv.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready.then(() => done(true), (e) => done(String(e)));""")
        assert "/micropython.wasm" in asked
        del asked[:]
        page.load()
        # Nothing the unit is made of was asked of the server: the copy kept by the service
        # worker served it all (the browser may look for a newer sw.js, and nothing else).
        assert [p for p in asked if p != "/sw.js"] == []
        assert drv.execute_script("return bank.view().power;") is True
        assert page.console_errors() == []
    finally:
        stop_chromium(drv)
        srv.shutdown()
        srv.server_close()
