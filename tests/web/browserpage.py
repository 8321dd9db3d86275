"""The browser and the page of the page's tests (conftest.py hands out the fixtures): a real
headless Chromium (Debian's chromium and chromium-driver, driven
through Selenium) loading `make web`'s output from a server on 127.0.0.1.

The network is off for the browser: every host name but 127.0.0.1 resolves to nothing
(--host-resolver-rules), and the tests check that the page asked for nothing but its own
origin. Where the browser, its driver, Selenium, node or npm is missing, the tests skip with
one line saying which (`make web-deps` installs the browser on Debian).
"""

import os
import shutil
import sys
import tempfile
import threading
import time
import uuid

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
for p in (ROOT, os.path.join(ROOT, "web"), os.path.join(ROOT, "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage",
                  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")


@pytest.fixture(scope="session")
def site():
    """make web's output, built into a folder of the session's own."""
    import build

    dest = os.path.join(tempfile.mkdtemp(prefix="bank-web-"), "web")
    try:
        build.build(dest)
    except build.BuildError as e:
        pytest.skip("the web page cannot be built here: %s" % e)
    yield dest
    shutil.rmtree(os.path.dirname(dest), ignore_errors=True)


@pytest.fixture(scope="session")
def origin(site):
    from simulator import web

    srv = web.server(site, 0)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield "http://127.0.0.1:%d" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def start_chromium(width=412, height=915, mobile=True):
    """A fresh headless Chromium with its own profile; skips where it cannot run."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("chromium and chromium-driver are not installed (make web-deps)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (make setup)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="bank-chromium-")
    for a in CHROMIUM_FLAGS + ("--user-data-dir=" + profile,):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    drv.set_script_timeout(60)
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    if mobile:
        drv.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    drv.bank_profile = profile
    return drv


def stop_chromium(drv):
    drv.quit()
    shutil.rmtree(drv.bank_profile, ignore_errors=True)


def leave(drv):
    """Leave the page an earlier test opened and forget what it logged: a page left open
    keeps calling its stopped server, and would log that into the next test's page."""
    drv.get("about:blank")
    drv.get_log("browser")


@pytest.fixture(scope="session")
def browser():
    drv = start_chromium()
    yield drv
    stop_chromium(drv)


class Page:
    """The page in the browser: load it, tap it, read what it draws."""

    def __init__(self, drv, origin, query=""):
        self.drv = drv
        self.origin = origin
        self.game = uuid.uuid4().hex[:12]  # a kept game of this test's own
        self.query = "game=%s%s" % (self.game, "&" + query if query else "")

    def load(self):
        self.drv.get("%s/?%s" % (self.origin, self.query))
        got = self.drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "bank.ready.then(() => done('ready'), (e) => done('failed: ' + e));")
        assert got == "ready", got
        return self

    def tap(self, element_id):
        self.drv.find_element("id", element_id).click()

    def keys(self, *keys):
        for k in keys:
            self.tap("key-" + k)

    def drawn(self):
        """The display as drawn: ([5 segment bytes], k lit, M lit, lcd off)."""
        return self.drv.execute_script("""
            const cells = [...document.querySelectorAll('#cells svg')].map((svg) =>
              [...svg.children].reduce(
                (b, p, i) => b | (p.classList.contains('on') ? 1 << i : 0), 0));
            return [cells, document.getElementById('mark-k').classList.contains('on'),
                    document.getElementById('mark-M').classList.contains('on'),
                    document.getElementById('lcd').classList.contains('off')];""")

    def panel(self):
        """The banker panel as shown: the six balances' texts and the log's lines."""
        return self.drv.execute_script("""
            return [[...document.querySelectorAll('#balances td.num')].map((e) => e.textContent),
                    [...document.querySelectorAll('#log li')].map((e) => e.textContent)];""")

    def send(self, line):
        return self.drv.execute_script("return bank.send(arguments[0]);", line)

    def record(self, element_id, what):
        """From now on the page itself keeps what the script `what` returns each time the
        element or anything in it changes (recorded() reads them): a look from outside, between
        two of a loaded machine's pauses, may miss what a person saw."""
        self.drv.execute_script("""
            const read = new Function(arguments[1]);
            window.recorded = [read()];
            new MutationObserver(() => window.recorded.push(read())).observe(
              document.getElementById(arguments[0]),
              {attributes: true, childList: true, characterData: true, subtree: true});""",
                                element_id, what)

    def recorded(self, enough=lambda seen: False, seconds=0):
        """What record() kept, each change once (a change that read the same is not kept): as
        soon as enough(it), or once seconds have passed."""
        end = time.monotonic() + seconds
        while True:
            seen = []
            for r in self.drv.execute_script("return window.recorded;"):
                if not seen or seen[-1] != r:
                    seen.append(r)
            if enough(seen) or time.monotonic() >= end:
                return seen
            time.sleep(0.02)

    def console_errors(self):
        return [e for e in self.drv.get_log("browser") if e.get("level") == "SEVERE"]


@pytest.fixture
def page(browser, origin):
    """A page of a game of the test's own; no test may leave an error in the console."""
    leave(browser)
    p = Page(browser, origin)
    yield p
    assert p.console_errors() == []
