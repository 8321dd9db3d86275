"""Every phone at the table (docs/table.md), as players use it: real headless Chromium, one
browser of its own a phone (its own profile: its own choice of card, its own language), on the
table a headless simulator serves, the game played over the unit's protocol as a banker's host
tool plays it. What is checked is what each phone draws.

Nothing is sent to any address but 127.0.0.1 (browserpage.py's resolver rules)."""

import json
import os
import random
import signal
import time

import pytest
from browserpage import leave, start_chromium, stop_chromium

from host_tools import Bank
from tests.tablephones import Phone, free_port, simulator
from tests.waits import wait_for



@pytest.fixture(scope="module")
def phones():
    """Three phones, each a browser of its own."""
    drvs = [start_chromium(390, 844) for _ in range(3)]
    yield drvs
    for d in drvs:
        stop_chromium(d)


@pytest.fixture
def sim():
    p, tcp, url = simulator()
    yield tcp, url
    p.stop()


def load(drv, url, lang="en"):
    leave(drv)
    drv.get(url + "?lang=" + lang)
    drv.execute_async_script("const done = arguments[arguments.length - 1];"
                             "table.ready.then(() => done(true));")
    wait_for(lambda: drv.execute_script(
        "return table.connected() && table.model() && table.model().unit === 'live';"))


SHOWN = """
const t = (id) => { const e = document.getElementById(id); return e && !e.hidden ?
  e.textContent.trim() : null; };
const me = document.getElementById('me');
return {link: t('link'), banner: t('banner'), state: t('unit-state'), deal: t('deal'),
  me: me.hidden ? null : t('me-name'), balance: me.hidden ? null : t('me-balance'),
  exact: me.hidden ? null : t('me-exact'),
  picks: [...document.querySelectorAll('#pick:not([hidden]) .card-pick')].map((b) =>
    b.textContent),
  history: [...document.querySelectorAll('#hist li')].map((li) =>
    [...li.children].map((c) => c.textContent)),
  standings: [...document.querySelectorAll('#stand li')].map((li) =>
    [...li.children].map((c) => c.textContent))};
"""


def shown(drv):
    return drv.execute_script(SHOWN)


def tap_card(drv, card):
    drv.find_element("css selector", '.card-pick[data-card="%d"]' % card).click()


def errors(drv):
    return [e for e in drv.get_log("browser") if e.get("level") == "SEVERE"]


def test_each_phone_shows_its_players_balance_history_and_the_standings_live(phones, sim):
    tcp, url = sim
    ann, bob, chloe = phones
    with Bank.open("socket://" + tcp) as bank:
        bank.set_name(1, "Ann")
        bank.set_name(2, "Bob")
        for drv, lang in ((ann, "en"), (bob, "en"), (chloe, "fr")):
            load(drv, url, lang)
        wait_for(lambda: "Bob (card 2)" in "".join(shown(ann)["picks"]), 4)
        tap_card(ann, 1)
        tap_card(bob, 2)
        tap_card(chloe, 3)
        assert shown(ann)["me"] == "Ann (card 1)" and shown(ann)["balance"] == "15 M"
        assert shown(chloe)["me"] == "carte 3"
        # How soon each phone hears a move is make bench's (bench/table_bench.py).
        for line in ("INSERT L 1", "KEY 2M+", "REMOVE L"):  # B4: card 1 receives 2 M
            bank.request(line)
        wait_for(lambda: shown(ann)["balance"] == "17 M", 5)
        for line in ("INSERT R 2", "INSERT L 1", "KEY 500K-", "REMOVE L", "REMOVE R"):
            bank.request(line)  # B6: Bob pays Ann 500 k
        for drv, text in ((ann, "17.5 M"), (bob, "14.5 M")):
            wait_for(lambda d=drv, t=text: shown(d)["balance"] == t, 5)
        for line in ("INSERT L 3", "KEY M", "REMOVE L"):  # B9: Go for card 3
            bank.request(line)
        wait_for(lambda: shown(chloe)["balance"] == "17 M", 5)
    a = shown(ann)
    assert a["history"] == [["#2", "from Bob (card 2)", "+500 k", "then 17.5 M"],
                            ["#1", "from the bank", "+2 M", "then 17 M"]]
    assert a["exact"] == "17,500,000"
    assert shown(bob)["history"] == [["#2", "to Ann (card 1)", "\u2212500 k", "then 14.5 M"]]
    c = shown(chloe)
    assert c["history"] == [["#3", "salaire du D\u00e9part, de la Banque", "+2 M",
                             "puis 17 M"]]
    assert c["link"] == "en direct"
    ann.find_element("id", "tab-standings").click()
    st = shown(ann)["standings"]
    assert [row[1] for row in st] == ["17.5 M", "17 M", "15 M", "15 M", "15 M", "14.5 M"]
    assert st[0][0] == "Ann (card 1) \u2014 you" and st[1][0] == "card 3"
    assert st[-1][0] == "Bob (card 2)"
    for d in phones:
        assert errors(d) == []


def test_the_longest_names_fit_a_narrow_phone_with_nothing_scrolling_sideways(phones, sim):
    # A name is up to 16 characters with no space (NAME): it wraps, never widens the page.
    tcp, url = sim
    drv = phones[0]
    wide = "return document.documentElement.scrollWidth - document.documentElement.clientWidth;"
    with Bank.open("socket://" + tcp) as bank:
        for card in range(1, 7):
            bank.set_name(card, "W" * 16)
        try:
            for width in (320, 390):
                drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": 740, "deviceScaleFactor": 1, "mobile": True})
                load(drv, url)
                if shown(drv)["me"]:  # the card this phone chose at the width before
                    drv.find_element("id", "change").click()
                # every card's name in (they come one event each), card 2's among them
                wait_for(lambda: sum("W" * 16 in p for p in shown(drv)["picks"]) == 6, 4)
                assert drv.execute_script(wide) == 0, width
                tap_card(drv, 2)
                assert shown(drv)["me"] == "W" * 16 + " (card 2)"
                assert drv.execute_script(wide) == 0, width
                drv.find_element("id", "tab-standings").click()
                assert drv.execute_script(wide) == 0, width
        finally:
            drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            for card in range(1, 7):
                bank.set_name(card, "")


def test_the_deal_timer_runs_on_every_phone_and_the_units_state_is_said(phones, sim):
    tcp, url = sim
    drv = phones[0]
    load(drv, url)
    tap_card(drv, 4)
    with Bank.open("socket://" + tcp) as bank:
        bank.press("DEAL")  # B13: 13 to 50 s, a secret: the phones say it runs, not how long
        said = {"running": "deal: running", "ending": "deal: ending", "done": "deal: done",
                "idle": None}
        seen = []
        phase = "running"
        while phase != "idle":
            wait_for(lambda p=phase: shown(drv)["deal"] == said[p], 1)
            if not seen or seen[-1] != phase:
                seen.append(phase)
            phase = bank.advance(1000)["deal"]
        wait_for(lambda: shown(drv)["deal"] is None, 1)
        assert seen == ["running", "ending", "done"]
        assert shown(drv)["state"] is None
        bank.advance(61000)  # B16: a minute without use
        wait_for(lambda: shown(drv)["state"] == ("The unit is switched off: a key or a card "
                                                 "on it wakes it."), 1)
        bank.press("C")  # the waking key only wakes it
        wait_for(lambda: shown(drv)["state"] is None, 1)
    assert errors(drv) == []


@pytest.mark.parametrize("damage, says", [
    ("last line", "The unit found its kept game damaged and plays on from the last good copy: "
                  "the banker should check the balances."),
    ("everything", "The unit found no good copy of the game: the banker starts a new game or "
                   "brings a kept one back."),
])
def test_a_damaged_game_is_said_in_words_until_the_banker_sees_it(phones, tmp_path, damage,
                                                                   says):
    # B17: damage found at boot is reported until the banker presses a key.
    state = str(tmp_path / "game")
    p, tcp, _ = simulator("--state", state)
    with Bank.open("socket://" + tcp) as bank:
        bank.insert("L", 6)
        bank.press("100K+")
    p.stop()
    for name in ("bank.a", "bank.b") if damage == "everything" else ("bank.a",):
        path = os.path.join(state, name)
        if os.path.exists(path):
            with open(path, "r+b") as f:
                data = f.read()
                if damage == "last line":  # a flip in the slot's last line
                    f.seek(len(data) - 5)
                    f.write(b"#")
                else:  # every line's bytes, the lines kept: nothing reads
                    f.seek(0)
                    f.write(bytes(b if b == 10 else 35 for b in data))
    p, tcp, url = simulator("--state", state)
    drv = phones[1]
    try:
        load(drv, url)
        wait_for(lambda: shown(drv)["state"] == says, 2)
        if damage == "last line":
            # A host's key is no banker seeing the damage (B17): the phones go on saying it.
            with Bank.open("socket://" + tcp) as bank:
                bank.press("C")
            end = time.monotonic() + 1.5  # the table reads STATE every 400 ms
            while time.monotonic() < end:
                assert shown(drv)["state"] == says
        said = errors(drv)  # while the server serves (a stopped one's stream is refused)
    finally:
        p.stop()
    assert said == []


NIGHT = """
const t = (id) => { const e = document.getElementById(id); return e && !e.hidden ?
  e.textContent.trim() : null; };
const night = document.getElementById('night');
return {shown: !night.hidden, pot: t('night-pot'), clock: t('night-clock'),
  count: t('night-count') === null ? null : [...document.querySelectorAll('#count-rows li')].map(
    (li) => [...li.children].map((c) => c.textContent)),
  winner: t('night-count') === null ? null : t('count-winner')};
"""


def night(drv):
    return drv.execute_script(NIGHT)


def test_game_night_on_every_phone_the_pot_the_clock_and_the_count_by_name(phones):
    # B22 the pot's money, B20 the game clock's minutes and its end, B19 the count's places and
    # who wins, by the banker's names, in each phone's language, as the unit plays them.
    p, tcp, url = simulator("--pot", "on")
    ann, bob = phones[0], phones[1]
    try:
        with Bank.open("socket://" + tcp) as bank:
            bank.set_name(3, "Ann")
            load(ann, url)
            load(bob, url, "fr")
            tap_card(ann, 3)
            tap_card(bob, 2)
            assert night(ann) == {"shown": True, "pot": "Free Parking pot: 0", "clock": None,
                                  "count": None, "winner": None}
            bank.insert("R", 3), bank.press("1M+"), bank.remove("R")  # into the pot
            wait_for(lambda: night(ann)["pot"] == "Free Parking pot: 1 M")
            wait_for(lambda: night(bob)["pot"] == "pot du Parc gratuit : 1 M")
            assert shown(ann)["history"] == [["#1", "into the Free Parking pot", "\u22121 M",
                                              "then 14 M"]]
            assert shown(ann)["balance"] == "14 M"
            bank.hold("K", 3000), bank.press("4 5 +"), bank.press("K")  # a 45-minute clock
            wait_for(lambda: night(ann)["clock"] == "game clock: 45 min left")
            wait_for(lambda: night(bob)["clock"] == "chrono de partie : 45 min restantes")
            bank.advance(60000)
            wait_for(lambda: night(ann)["clock"] == "game clock: 44 min left")
            bank.press("C")  # woken (B16)
            bank.advance(44 * 60000)
            wait_for(lambda: night(ann)["clock"] == "game clock: time is up")
            bank.press("C"), bank.press("5")  # woken; the key after the end starts the count
            wait_for(lambda: night(ann)["winner"] == "count: put each remaining player's card "
                     "in")
            bank.insert("L", 3), bank.press("9M+"), bank.remove("L")
            bank.insert("L", 5), bank.press("2M+"), bank.remove("L")
            want = [["1.", "Ann (card 3)", "23 M"], ["2.", "card 5", "17 M"]]
            wait_for(lambda: night(ann)["count"] == want)
            assert night(ann)["winner"] == "Ann (card 3) wins with 23 M"
            wait_for(lambda: night(bob)["winner"] == "Ann (carte 3) gagne avec 23 M")
            assert night(bob)["count"][1] == ["2.", "carte 5", "17 M"]
            assert night(bob)["pot"] == "pot du Parc gratuit : 1 M"
        # Read while the server serves: once it stops, the stream's retry is refused, as it
        # must be, and the browser logs that.
        said = [errors(d) for d in (ann, bob)]
    finally:
        p.stop()
    assert said == [[], []]


def test_maintenance_mode_is_said_on_the_phones(phones):
    p, tcp, url = simulator("--maintenance")
    drv = phones[2]
    try:
        load(drv, url)
        assert shown(drv)["state"] == ("The unit is in maintenance mode: the banker may set "
                                       "balances.")
    finally:
        p.stop()


def test_not_connected_when_the_server_stops_and_back_by_itself_when_it_restarts(phones,
                                                                              tmp_path):
    port = free_port()
    state = str(tmp_path / "game")
    p, tcp, url = simulator("--state", state, table=str(port))
    drv, other = phones[0], phones[1]
    try:
        for d in (drv, other):
            load(d, url)
        tap_card(drv, 2)
        tap_card(other, 5)
        with Bank.open("socket://" + tcp) as bank:
            bank.insert("L", 2), bank.press("1M+"), bank.remove("L")
        wait_for(lambda: shown(drv)["balance"] == "16 M", 1)
    finally:
        p.stop()
    for d in (drv, other):
        wait_for(lambda d=d: shown(d)["link"] == "not connected", 3)
    said = shown(drv)
    assert said["banner"].startswith("Not connected: this is what the table said at ")
    assert said["balance"] == "16 M"  # what it last showed, kept, greyed
    assert drv.execute_script("return document.body.classList.contains('stale')")
    p, tcp, again = simulator("--state", state, table=str(port))
    try:
        assert again == url
        with Bank.open("socket://" + tcp) as bank:
            bank.insert("L", 2), bank.press("500K+"), bank.remove("L")
        for d in (drv, other):  # by themselves, within the page's retries
            wait_for(lambda d=d: shown(d)["link"] == "live" and shown(d)["banner"] is None, 8)
        assert shown(drv)["balance"] == "16.5 M"
        assert [h[2] for h in shown(drv)["history"]] == ["+500 k", "+1 M"]
    finally:
        p.stop()
    for d in (drv, other):
        # The stream refused while the server was down is the browser's own report, not an
        # error of the page's.
        assert [e for e in errors(d) if "stream" not in e.get("message", "")] == []


def test_a_phone_that_lost_the_network_says_so_and_catches_up_when_it_is_back(phones, sim):
    tcp, url = sim
    drv = phones[1]
    load(drv, url)
    tap_card(drv, 3)
    with Bank.open("socket://" + tcp) as bank:
        bank.press("DEAL")  # B13: an auction running as the phone loses the network
    wait_for(lambda: shown(drv)["deal"] == "deal: running", 1)
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    online = dict(offline, offline=False)
    drv.execute_cdp_cmd("Network.enable", {})
    drv.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        wait_for(lambda: shown(drv)["link"] == "not connected", 3)
        assert shown(drv)["deal"] is None  # the timer runs on unseen: no stale "running"
        with Bank.open("socket://" + tcp) as bank:
            for _ in range(3):
                bank.insert("R", 3), bank.press("200K-"), bank.remove("R")
    finally:
        drv.execute_cdp_cmd("Network.emulateNetworkConditions", online)
    wait_for(lambda: shown(drv)["link"] == "live" and shown(drv)["balance"] == "14.4 M", 8)
    assert [h[0] for h in shown(drv)["history"]] == ["#3", "#2", "#1"]
    assert [e for e in errors(drv) if "stream" not in e.get("message", "")] == []


def test_a_phone_asleep_catches_up_when_it_wakes(phones, sim):
    tcp, url = sim
    drv = phones[2]
    load(drv, url)
    tap_card(drv, 1)
    drv.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})  # the screen off
    try:
        with Bank.open("socket://" + tcp) as bank:
            for card in (1, 1, 4):
                bank.insert("L", card), bank.press("1M+"), bank.remove("L")
        time.sleep(0.3)
    finally:
        drv.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
    wait_for(lambda: shown(drv)["balance"] == "17 M", 5)
    assert [h[0] for h in shown(drv)["history"]] == ["#2", "#1"]
    assert errors(drv) == []


def test_twenty_phones_follow_a_game_of_500_transactions_to_the_end(phones):
    """Three browsers and seventeen plain streams (as many phones' browsers would read it),
    a game of 500 transactions played over the protocol: every phone ends with the unit's
    balances and its history (as far back as the unit's LOG reaches)."""
    p, tcp, url = simulator(clock=None)  # the real clock, as at a table
    try:
        cards = (1, 2, 3)
        for drv, card in zip(phones, cards, strict=True):
            load(drv, url)
            tap_card(drv, card)
        streams = [Phone(url) for _ in range(17)]
        for s in streams:
            s.until(lambda v: v["unit"] == "live")
            s.keep_reading()
        rng = random.Random(20)
        with Bank.open("socket://" + tcp) as bank:
            seq = 0
            while seq < 500:
                a, b = rng.sample(range(1, 7), 2)
                how = rng.random()
                amount = "%dK" % rng.choice((10, 20, 50, 100, 150))
                if how < 0.35:
                    bank.request("INSERT L %d" % a)
                    bank.request("KEY " + amount + "+")
                    bank.request("REMOVE L")
                elif how < 0.7:
                    bank.request("INSERT R %d" % a)
                    bank.request("KEY " + amount + "-")
                    bank.request("REMOVE R")
                else:
                    bank.request("INSERT R %d" % a)
                    bank.request("INSERT L %d" % b)
                    bank.request("KEY " + amount + "-")
                    bank.request("REMOVE L")
                    bank.request("REMOVE R")
                seq = bank.log(1)[-1]["seq"]
            balances = {str(c): v for c, v in bank.balances().items()}
            log = [{k: v for k, v in t.items() if k != "via"} for t in bank.log(200)]
        assert len(log) == 200 and log[-1]["seq"] == seq >= 500

        def same(view):
            return view["balances"] == balances and [
                {k: v for k, v in t.items() if k not in ("shown", "shown_balances")}
                for t in view["log"]] == log

        for i, s in enumerate(streams):
            try:
                s.until(same, 15)
            except AssertionError as e:
                fresh = Phone(url).until(lambda v: True)  # what the table has now, to a new phone
                raise AssertionError("phone %d: %s; a new phone reads message %s, %d moves up "
                                     "to #%s; the simulator said: %r" % (
                                         i, e, fresh["v"], len(fresh["log"]),
                                         fresh["log"][-1]["seq"] if fresh["log"] else None,
                                         p.stop()[1][-2000:])) from None
            s.close()
        for drv, card in zip(phones, cards, strict=True):
            view = wait_for(lambda d=drv: d.execute_script("return table.model();"), 2)
            wait_for(lambda d=drv: same(d.execute_script("return table.model();")), 15)
            mine = [t for t in log if card in (t["from"], t["to"])]
            drawn = shown(drv)
            assert [h[0] for h in drawn["history"]] == ["#%d" % t["seq"] for t in
                                                        reversed(mine)]
            assert drawn["balance"] == view["shown"][str(card)]
            assert errors(drv) == []
    finally:
        p.stop(signal.SIGTERM)


def test_chromium_finds_the_tables_page_installable(phones, sim):
    _, url = sim
    drv = phones[0]
    load(drv, url)
    assert drv.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(() => done(true), (e) => done(String(e)));""")
    got = drv.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert got["installabilityErrors"] == []
    manifest = drv.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["errors"] == [] and manifest["url"] == url + "manifest.webmanifest"
    assert json.loads(manifest["data"])["start_url"] == "./"
    assert errors(drv) == []

