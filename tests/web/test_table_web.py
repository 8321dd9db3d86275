"""The page that is itself a unit, at the table (docs/table.md, "Serving it"): served by
`--web`, it feeds that server's table view with its own protocol's lines, and every phone
follows it there. Real Chromium: the unit's page in one browser, the phones in others; a page
the table does not take says it is a unit of its own. Served from 127.0.0.1 only."""

import threading
import time

import pytest
from browserpage import Page, leave, start_chromium, stop_chromium

from simulator import web
from tests.waits import wait_for


@pytest.fixture
def served(site, tmp_path, monkeypatch):
    """`--web`'s server with its table, its secret kept in a folder of the test's own."""
    monkeypatch.setenv("BANK_SIM_STATE", str(tmp_path))
    srv = web.server(site, 0, "127.0.0.1", web.make_table())
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    origin = "http://127.0.0.1:%d" % srv.server_address[1]
    yield srv, origin, "%s/%s/" % (origin, srv.table_site.secret)
    srv.shutdown()
    srv.table_feed.stop()
    srv.table_site.table.close()
    srv.server_close()


@pytest.fixture(scope="module")
def phone():
    drv = start_chromium(390, 844)
    yield drv
    stop_chromium(drv)


def follow(drv, url):
    drv.get(url)
    drv.execute_async_script("const done = arguments[arguments.length - 1];"
                             "table.ready.then(() => done(true));")


def said(drv):
    return drv.execute_script("""
        const t = (id) => { const e = document.getElementById(id);
          return e && !e.hidden ? e.textContent.trim() : null; };
        return {banner: t('banner'), balance: t('me-balance'),
          history: [...document.querySelectorAll('#hist li')].map((li) =>
            [...li.children].map((c) => c.textContent))};""")


def own_unit(drv):
    return drv.execute_script("""
        const e = document.getElementById('own-unit');
        return e.hidden ? null : e.textContent.trim();""")


def test_the_units_page_feeds_the_table_and_every_phone_follows_its_taps(served, browser,
                                                                        phone):
    srv, origin, url = served
    leave(browser)
    unit = Page(browser, origin).load()
    follow(phone, url)
    wait_for(lambda: phone.execute_script("return table.model() && table.model().unit") ==
             "live")
    phone.find_element("css selector", '.card-pick[data-card="3"]').click()
    assert said(phone)["balance"] == "15 M"
    unit.tap("card-3")
    unit.tap("slot-L")
    unit.keys("1", "5", "0", "K")
    unit.keys("+")  # B4: card 3 receives 150 k, at the unit's own keypad
    wait_for(lambda: said(phone)["balance"] == "15.15 M", 5)  # how soon: make bench
    assert said(phone)["history"] == [["#1", "from the bank", "+150 k", "then 15.15 M"]]
    assert own_unit(browser) is None  # the unit on this machine is the table's
    assert unit.console_errors() == []


def test_a_page_the_table_does_not_take_says_it_is_a_unit_of_its_own(served, browser):
    srv, origin, url = served
    leave(browser)  # the last test's page, feeding its own stopped server, logs nothing here
    unit = Page(browser, origin).load()
    wait_for(lambda: srv.table_site.table.whole()["unit"] == "live")
    other = start_chromium()  # a second tab's game, while the first feeds the table
    try:
        Page(other, origin).load()
        wait_for(lambda: own_unit(other), 5)
        assert own_unit(other).startswith("This phone is a unit of its own; scan the table's "
                                          "code to follow the game.")
        # said above the unit, hiding none of it: the slots still take a tap
        assert other.execute_script("""
            const r = (id) => document.getElementById(id).getBoundingClientRect();
            return r('own-unit').bottom <= r('slot-L').top;""")
        other.find_element("id", "card-1").click()
        other.find_element("id", "slot-L").click()
        wait_for(lambda: other.execute_script("return bank.view().slots[0]") == 1)
        other.find_element("id", "own-unit-ok").click()
        assert own_unit(other) is None
        assert srv.table_site.table.whole()["unit"] == "live"
        assert [e for e in other.get_log("browser") if e.get("level") == "SEVERE"] == []
    finally:
        stop_chromium(other)
    assert unit.console_errors() == []


def test_a_page_the_table_takes_after_all_no_longer_says_it_is_a_unit_of_its_own(served,
                                                                                 browser):
    # The same game in a second browser, told it is a unit of its own while the first feeds
    # the table, became the table's unit once the first was closed; it still said it was not.
    srv, origin, url = served
    leave(browser)
    unit = Page(browser, origin).load()
    wait_for(lambda: srv.table_site.table.whole()["unit"] == "live")
    other = start_chromium()
    try:
        same = Page(other, origin)
        same.game, same.query = unit.game, unit.query
        same.load()
        wait_for(lambda: own_unit(other), 5)
        browser.get("about:blank")  # the banker's tab closed: it says goodbye
        wait_for(lambda: own_unit(other) is None, 8)  # taken at its next beat, and says so
        wait_for(lambda: srv.table_site.table.whole()["unit"] == "live")
    finally:
        stop_chromium(other)


def test_a_page_on_a_phone_is_never_the_tables_unit(served, browser, monkeypatch):
    # Seen from the server, a phone's page comes from another machine: the decision is
    # _this_machine's (its own test below), here made "no" for every page.
    srv, origin, url = served
    monkeypatch.setattr(web, "_this_machine", lambda peer, local: False)
    browser.get("about:blank")  # the last test's page says goodbye to its own, gone, server
    browser.get_log("browser")  # ... which is no error of this page's
    page = Page(browser, origin).load()
    wait_for(lambda: own_unit(browser), 5)
    page.keys("5")
    time.sleep(0.5)
    assert srv.table_site.table.whole()["unit"] == "waiting"  # it fed nothing
    browser.find_element("id", "own-unit-ok").click()
    assert page.console_errors() == []


def test_the_units_page_closed_is_said_on_the_phones_and_back_when_it_opens(served, browser,
                                                                           phone):
    srv, origin, url = served
    unit = Page(browser, origin).load()
    follow(phone, url)
    wait_for(lambda: said(phone)["banner"] is None)
    browser.get("about:blank")  # the banker's tab closed: it says goodbye
    wait_for(lambda: (said(phone)["banner"] or "").startswith("The unit is not answering"), 3)
    unit.load()
    wait_for(lambda: said(phone)["banner"] is None, 8)


@pytest.mark.parametrize("peer, local, mine", [
    ("127.0.0.1", "127.0.0.1", True),
    ("127.0.0.2", "127.0.0.2", True),
    ("192.0.2.2", "192.0.2.2", True),  # a browser on this machine, at its LAN address
    ("192.0.2.7", "192.0.2.2", False),  # a phone on the network
    ("::1", "::1", True),
    ("::ffff:127.0.0.1", "::ffff:192.0.2.2", True),
    ("fd00::7", "fd00::2", False),
    ("nonsense", "192.0.2.2", False),
])
def test_only_a_page_on_this_machine_may_feed_the_table(peer, local, mine):
    assert web._this_machine(peer, local) is mine


def _post(srv, body, **headers):
    import http.client

    c = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=5)
    try:
        c.request("POST", "/table/feed", body, headers)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def test_another_sites_page_never_feeds_the_table_nor_shuts_the_unit_out(served):
    # A page of any site open in a browser on this machine can post to 127.0.0.1 as a "simple"
    # request (text/plain, no preflight), and one of a site whose name it resolved here
    # (DNS rebinding) as JSON: neither is the unit's page, and the phones never see its game.
    import json

    srv, origin, _ = served
    port = srv.server_address[1]
    own = "127.0.0.1:%d" % port
    fake = json.dumps({"page": "mallory", "lines": [["NAMES", 'OK {"1": "Mallory"}']]})
    for headers in ({"Content-Type": "text/plain", "Origin": "http://evil.example"},
                    {"Content-Type": "application/json", "Host": "evil.example:%d" % port,
                     "Origin": "http://evil.example:%d" % port},
                    {"Content-Type": "application/json", "Host": own,
                     "Origin": "http://evil.example"}):
        status, _ = _post(srv, fake, **headers)
        assert status == 403, headers
        assert srv.table_feed.page is None
    status, got = _post(srv, json.dumps({"page": "mine", "lines": []}),
                        **{"Content-Type": "application/json", "Host": own, "Origin": origin})
    assert status == 200 and json.loads(got)["unit"] is True  # the unit's own page, as it posts
    status, got = _post(srv, json.dumps({"page": "mine", "bye": True}),
                        **{"Content-Type": "text/plain;charset=UTF-8", "Host": own,
                           "Origin": origin})
    assert status == 200 and srv.table_feed.page is None  # and its goodbye (a beacon)


def test_a_request_the_server_cannot_serve_is_answered_not_dropped(served):
    import http.client

    srv, _, _ = served
    c = http.client.HTTPConnection("127.0.0.1", srv.server_address[1], timeout=5)
    try:
        c.request("GET", "/index.html%00.js")
        assert c.getresponse().status == 404  # a NUL in a path: no file, no traceback
    finally:
        c.close()
    deep = "[" * 200000 + "]" * 200000
    status, _ = _post(srv, deep, **{"Content-Type": "application/json",
                                    "Host": "127.0.0.1:%d" % srv.server_address[1]})
    assert status == 400 and srv.table_feed.page is None


def test_the_units_page_with_its_server_gone_asks_it_less_and_less_often(site, browser, tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("BANK_SIM_STATE", str(tmp_path))
    srv = web.server(site, 0, "127.0.0.1", web.make_table())
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    leave(browser)
    page = Page(browser, "http://127.0.0.1:%d" % srv.server_address[1]).load()
    wait_for(lambda: srv.table_site.table.whole()["unit"] == "live")
    srv.shutdown()
    srv.table_feed.stop()
    srv.table_site.table.close()
    srv.server_close()  # the machine's simulator stopped: nothing answers on that port now
    for _ in range(8):  # the banker plays on: each key would be a post, and an error logged
        page.send("KEY 1")
        time.sleep(0.03)
    feed = [e for e in page.console_errors() if "table/feed" in e["message"]]
    assert 1 <= len(feed) <= 2, feed


def test_the_units_page_asks_a_server_gone_after_3_s_then_6_12_and_every_24(page):
    # docs/table.md: web/feed.js's own Feed, its beat driven by hand on a clock of the test's
    # own, every post failing as to a server that went away
    page.load()
    asked = page.drv.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const { Feed } = await import("./feed.js");
        let now = 0;
        const asked = [];
        Date.now = () => now;
        window.fetch = () => {  // refused a few ms later, as a port nobody listens on is
          asked.push(now);
          return new Promise((_, no) => setTimeout(() => { now += 5; no(new TypeError()); }));
        };
        const body = { table_lines: () => "[]", table_stop: () => {} };
        const feed = new Feed(body, "test-feed", () => {}, () => {});
        clearInterval(feed.beat);  // the beats are the test's
        for (let beat = 0; beat <= 96000; beat += 3000) {
          now = beat;
          feed.push(true);
          await new Promise((r) => setTimeout(r, 0));  // the failure settled
          await new Promise((r) => setTimeout(r, 0));
        }
        done(asked);""")
    assert asked == [0, 3000, 9000, 21000, 45000, 69000, 93000]

