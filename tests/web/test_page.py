"""The unit in a browser (docs/web.md): the firmware in MicroPython's webassembly port, played
by taps in a real headless Chromium, its game kept in the browser, its protocol the others'."""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import urlparse

import pytest
from board import segments
from browserpage import ROOT, Page, start_chromium, stop_chromium
from tests.waits import wait_for

SESSION = os.path.join(ROOT, "tests", "sessions", "tour.txt")


def shows(text, k=False, m=False):
    """The display the firmware's own font draws for text (segments.py)."""
    return [segments.cells(text), k, m, False]


def test_loads_from_its_own_origin_only_and_shows_0(page):
    page.load()
    assert page.drawn() == shows("0")  # B16: on at boot, a new game's greeting
    urls = page.drv.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name);")
    assert any(u.endswith("micropython.wasm") for u in urls)
    assert any(u.endswith("firmware/brain/unit.py") for u in urls)
    mine = urlparse(page.origin).netloc
    assert [u for u in urls if urlparse(u).netloc != mine] == []
    assert page.console_errors() == []


def test_receive_transfer_undo_by_taps(page):
    page.load()
    page.tap("card-1")
    page.tap("slot-L")
    assert page.drawn() == shows("1")  # B3: the card's number, then its balance
    wait_for(lambda: page.drawn() == shows("15", m=True), 3)
    page.keys("1", "5", "0", "K", "+")  # B4: 150 k from the bank
    assert page.drawn() == shows("15.15", m=True)
    # B18: the tones the firmware sounded, each played from its tone table (tones.py)
    assert page.drv.execute_script("return bank.tones;") == ["card"] + ["click"] * 4 + ["money-in"]
    page.tap("card-2")
    page.tap("slot-R")
    wait_for(lambda: page.drawn() == shows("15", m=True), 3)
    page.keys("5", "0", "0", "K", "-")  # B6: 2 pays 1
    assert page.drawn() == shows("14.5", m=True)  # the payer's new balance first
    wait_for(lambda: page.drawn() == shows("15.65", m=True), 3)  # then the payee's
    bal, log = page.panel()
    assert bal[:3] == ["15,650,000", "14,500,000", "15,000,000"]
    assert log[0] == "#2 transfer 2>1 500 k"
    page.keys("C")  # B10: the open transfer reversed
    assert page.drawn() == shows("15", m=True)
    bal, log = page.panel()
    assert bal[:2] == ["15,150,000", "15,000,000"]
    assert log == ["#3 undo 1>2 500 k (undoes #2)", "#2 transfer 2>1 500 k",
                   "#1 receive bank>1 150 k"]
    assert page.console_errors() == []


# Each AudioContext the page makes and each oscillator it starts, with the context's state then;
# an oscillator's "ended" is its tone played through.
WATCH_THE_SOUND = """
  window.sound = {contexts: [], started: [], ended: 0};
  const Made = window.AudioContext;
  window.AudioContext = function (...a) {
    const c = new Made(...a);
    window.sound.contexts.push(c);
    return c;
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) {
    window.sound.started.push(this.context.state);
    this.addEventListener('ended', () => { window.sound.ended += 1; });
    return start.apply(this, a);
  };"""


def touch(drv, element_id):
    """A finger's tap at the element's middle: the browser's own touch events, whose pointerdown
    is no user activation (Selenium's click is a mouse's, whose pointerdown is one)."""
    x, y = drv.execute_script("""
        const r = document.getElementById(arguments[0]).getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];""", element_id)
    drv.execute_cdp_cmd("Input.dispatchTouchEvent",
                        {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    drv.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_the_first_key_tapped_sounds_its_tone(origin):
    # A fresh browser: nothing tapped on this origin before, as a phone opening the page. Headless
    # Chromium keeps the autoplay policy: a context made without a user activation stays
    # suspended and the console says so.
    drv = start_chromium(390, 844)
    try:
        drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_THE_SOUND})
        Page(drv, origin).load()
        assert drv.execute_script("return window.sound.contexts.length;") == 0  # none untapped
        touch(drv, "key-5")
        wait_for(lambda: drv.execute_script("return window.sound.ended;") >= 1, 3)
        sound = drv.execute_script(
            "return [window.sound.contexts.map((c) => c.state), window.sound.started];")
        assert sound == [["running"], ["running"] * len(sound[1])]  # the click, heard
        assert drv.execute_script("return bank.tones;") == ["click"]
        touch(drv, "key-M")  # and the next at once, the context already running
        wait_for(lambda: drv.execute_script("return window.sound.ended;") >= 2, 3)
        logged = drv.get_log("browser")
        assert [e["message"] for e in logged if "AudioContext" in e["message"]] == []
        assert [e for e in logged if e["level"] == "SEVERE"] == []
    finally:
        stop_chromium(drv)


def test_drag_a_card_into_a_slot_and_out(page):
    from selenium.webdriver import ActionChains

    page.load()
    card = page.drv.find_element("id", "card-3")
    ActionChains(page.drv).drag_and_drop(card, page.drv.find_element("id", "slot-R")).perform()
    assert page.drv.execute_script("return bank.view().slots") == [None, 3]
    assert page.drawn() == shows("3")  # B3
    ActionChains(page.drv).drag_and_drop(card, page.drv.find_element("id", "tray")).perform()
    assert page.drv.execute_script("return bank.view().slots") == [None, None]


def test_a_card_tapped_then_a_slot_that_holds_another_pushes_that_one_out(page):
    # A tap on the slot lands on the card standing in it: that took it out, and the chosen card
    # stayed in the tray.
    page.load()
    page.tap("card-3")
    page.tap("slot-R")
    page.tap("card-5")
    page.tap("card-3")  # the card in slot R: the tap there
    assert page.drv.execute_script("return bank.view().slots") == [None, 5]
    assert page.drawn() == shows("5")  # B3


def test_the_game_survives_a_reload(page):
    page.load()
    page.tap("card-4")
    page.tap("slot-L")
    page.keys("2", "M", "+")
    before = page.panel()
    assert before[0][3] == "17,000,000"
    page.load()  # the tab reloaded: the firmware boots from what the browser kept (B17)
    assert page.panel() == before
    assert page.send("HELLO")[-1].endswith('"store": "ok"}')
    assert page.send("BALANCES")[-1].startswith('OK {"1": 15000000, "2": 15000000, '
                                                '"3": 15000000, "4": 17000000')


def test_the_cards_stay_in_their_slots_across_a_reload_b16(page):
    # B16: a power cut leaves the cards where they are; at boot the unit reads them as inserted.
    slots = "return [bank.view().slots, document.getElementById('card-4').parentNode.id, " \
        "document.getElementById('card-5').parentNode.id];"
    page.load()
    page.tap("card-4")
    page.tap("slot-R")
    page.tap("card-5")
    page.tap("slot-L")
    wait_for(lambda: page.drawn() == shows("15", m=True), 3)
    page.keys("1", "M", "-")  # B6: 4 pays 5
    before = page.panel()
    assert before[0][3:5] == ["14,000,000", "16,000,000"]
    page.load()
    assert page.drv.execute_script(slots) == [[5, 4], "slot-R", "slot-L"]
    assert page.drv.execute_script("return bank.tones;") == ["card", "card"]  # each read
    assert page.drawn() == shows("4")  # the card's number, as any insertion (B3)
    assert page.panel() == before
    page.keys("C")  # B10: the transfer is not open any more: nothing reversed
    assert page.panel()[0] == before[0]
    page.tap("card-5")  # out before the reload: it stays out
    page.load()
    assert page.drv.execute_script(slots) == [[None, 4], "slot-R", "home-5"]
    page.send("REMOVE R")  # the console's too
    page.load()
    assert page.drv.execute_script(slots) == [[None, None], "home-4", "home-5"]
    assert page.send("BALANCES")[-1].startswith('OK {"1": 15000000, "2": 15000000, '
                                                '"3": 15000000, "4": 14000000, "5": 16000000')


def test_a_damaged_copy_is_reported_as_on_the_unit(page):
    page.load()
    page.send("INSERT L 5")
    page.send("KEY 1M+")
    page.send("REMOVE L")  # no card seated at the next boot: its number would show (B16)
    # One stored byte changed behind the store's back: its CRC no longer matches (B17).
    page.drv.execute_script("""
        const key = 'bank-unit/' + arguments[0] + '/';
        const name = localStorage.getItem(key + 'bank.a') ? 'bank.a' : 'bank.b';
        const s = localStorage.getItem(key + name);
        const i = s.lastIndexOf('1000000');
        localStorage.setItem(key + name, s.slice(0, i) + '9' + s.slice(i + 1));""", page.game)
    page.load()
    assert page.send("HELLO")[-1].endswith('"store": "damaged"}')
    assert page.drawn() == shows("Err5")


def test_with_no_good_copy_the_panel_shows_no_balance_b17(page):
    page.load()
    page.send("INSERT L 5")
    page.send("KEY 1M+")
    page.send("REMOVE L")  # no card seated at the next boot: its number would show (B16)
    page.drv.execute_script("""
        for (const name of ['bank.a', 'bank.b']) {  // every slot's header changed: no copy left
          const key = 'bank-unit/' + arguments[0] + '/' + name;
          const s = localStorage.getItem(key);
          if (s) localStorage.setItem(key, s.slice(0, 12) + (s[12] === 'x' ? 'y' : 'x') +
                                      s.slice(13));
        }""", page.game)
    page.load()
    assert page.drawn() == shows("Err6")
    assert page.panel()[0] == ["\u2014"] * 6  # none invented: not 0 (B17)


def test_every_file_of_a_game_deleted_but_its_write_count_boots_damaged_not_new_b17(page):
    page.load()
    page.send("INSERT L 5")
    page.send("KEY 1M+")
    page.send("REMOVE L")
    page.drv.execute_script("""
        for (const k of Object.keys(localStorage)) {
          if (k.startsWith('bank-unit/' + arguments[0] + '/')) localStorage.removeItem(k);
        }""", page.game)
    page.load()
    assert page.send("HELLO")[-1].endswith('"store": "damaged"}')
    assert page.drawn() == shows("Err6")  # no good copy: no balance invented (B17)
    assert page.send("BALANCES")[-1].startswith("ERR ")


def test_storage_cleared_under_a_running_game_is_kept_again_at_its_next_write_b17(page):
    page.load()
    page.send("INSERT L 5")
    page.send("KEY 1M+")
    page.drv.execute_script("localStorage.clear();")
    assert page.send("KEY 2M+")[-1].startswith("OK {")
    assert page.drv.find_element("id", "notice").get_attribute("hidden") is not None
    page.load()  # the tab reloaded: both receives are there, nothing started anew
    assert page.send("HELLO")[-1].endswith('"store": "ok"}')
    assert '"5": 18000000' in page.send("BALANCES")[-1]


@pytest.mark.parametrize("name, said", [("%00", "\\u0000"), ("a%E2%80%AEb", "a\\u202eb")])
def test_a_refused_game_name_is_said_with_its_control_characters_escaped(page, name, said):
    page.drv.get("%s/?game=%s" % (page.origin, name))
    got = page.drv.execute_async_script(READY)
    assert got.startswith("failed: This page cannot open the game"), got
    text = page.drv.find_element("id", "notice-text").get_attribute("textContent")
    assert "\u201c" + said + "\u201d" in text and "\u202e" not in text and "\x00" not in text


# A game's name makes its keys (bank-unit/<game>/<file>) and its lock: a name with a "/" put
# one game's keys under another's, which then read them as its own.
BAD_GAMES = ("G/", "G/x", "Family", "a b", "", "x" * 33, "caf\u00e9", "..", "a_b", "a.b")
LOCKS_OF = """const done = arguments[arguments.length - 1];
    const want = 'bank-unit/' + arguments[0];
    navigator.locks.query().then((q) => done(
      q.held.concat(q.pending).map((l) => l.name).filter((n) => n === want)));"""


READY = ("const done = arguments[arguments.length - 1];"
         "bank.ready.then(() => done('ready'), (e) => done('failed: ' + e.message));")


@pytest.mark.parametrize("option, said", [
    ("profile=bogus", "the money is one of world, classic, francs"),
    ("profile=" + "x" * 300, "the money is one of world, classic, francs"),
    ("seed=abc", "a seed is a whole number of 1 to 9 digits"),
    ("seed=1.5", "a seed is a whole number of 1 to 9 digits"),
    ("seed=Infinity", "a seed is a whole number of 1 to 9 digits"),
    ("pot=maybe", "the value is one of on, off"),
    ("clock=realtime", "the value is one of virtual, real"),
    ("maintenance=maybe", "the value is one of 1, on, yes, true, 0, off, no, false")])
def test_a_url_option_the_page_cannot_start_with_is_said_in_words_not_a_traceback(page, option,
                                                                                   said):
    page.query += "&" + option
    page.drv.get("%s/?%s" % (page.origin, page.query))
    got = page.drv.execute_async_script(READY)
    assert got.startswith("failed: This page cannot start with ?" + option.split("=")[0]), got
    text = page.drv.find_element("id", "notice-text").text
    assert said in text and "Traceback" not in text and len(text) < 300, text
    assert page.send("HELLO") == [got[len("failed: "):]]  # no unit runs here


def test_what_the_page_says_before_its_unit_runs_is_in_its_language_too(page):
    # docs/web.md, "English and French": a refused option, said before the unit runs, in the
    # page's language (web/build.py's words.json, firmware/desktop/words.py's sentences).
    for query, said in (("game=G%2F&lang=fr", "Cette page ne peut pas ouvrir la partie"),
                        ("game=x&seed=abc&lang=fr", "une graine est un nombre entier")):
        page.drv.get("%s/?%s" % (page.origin, query))
        got = page.drv.execute_async_script(READY)
        assert got.startswith("failed: ") and said in got, got
        assert page.drv.find_element("id", "notice-text").text.startswith("Cette page"), query
        assert page.drv.execute_script("return document.documentElement.lang") == "fr"


def test_maintenance_0_is_off_and_pot_is_read_in_any_case(page):
    page.query += "&maintenance=0&pot=ON"
    page.load()
    assert '"maintenance": false, "pot": 0' in page.send("STATE")[-1]


def test_maintenance_true_is_on_as_the_refusal_of_a_bad_value_says(page):
    page.query += "&maintenance=TRUE"
    page.load()
    assert '"maintenance": true' in page.send("STATE")[-1]


def test_a_game_put_away_on_the_browsers_clock_is_dated_as_the_simulators_are(page):  # B11
    # GAMES' "kept" was null on the page, as if its clock were virtual: its games showed no date.
    page.query += "&maintenance"
    page.load()
    page.send("INSERT L 3")
    page.send("KEY 1M+")
    assert page.send("NEWGAME")[-1].startswith("OK")
    (kept,) = json.loads(page.send("GAMES")[-1][3:])
    assert abs(kept["kept"] - time.time()) < 60


def _asked(page):
    """The question the page puts before a link's options change the game, or None."""
    ask = page.drv.find_element("id", "ask")
    return None if ask.get_attribute("hidden") is not None else page.drv.find_element(
        "id", "ask-text").text


def test_a_link_changes_a_kept_game_only_once_the_banker_says_so(page):
    # Any web page can link here with ?profile=, ?pot= or ?maintenance: with a game kept in
    # this browser they wait for a tap on the page (B15's new game, B22's pot, maintenance).
    page.load()
    page.send("INSERT L 3")
    page.send("KEY 1M+")
    page.send("REMOVE L")  # no card seated at the next boot: its number would show (B16)
    plain = page.query
    page.query += "&profile=classic&pot=on&maintenance&clock=virtual"
    page.load()
    said = _asked(page)
    assert said.startswith("This link asks to change the game kept in this browser")
    assert all(w in said for w in ("classic money", "Free Parking pot on", "maintenance mode",
                                   "time standing still"))  # B20's clock frozen unsaid
    assert '"profile": "world"' in page.send("HELLO")[-1]
    assert '"maintenance": false, "pot": null' in page.send("STATE")[-1]  # the pot off
    assert '"3": 16000000' in page.send("BALANCES")[-1]
    page.drv.find_element("id", "ask-change").send_keys("5")  # the keys wait for the answer
    assert page.drawn() == shows("0")
    page.tap("ask-keep")
    assert _asked(page) is None
    assert page.drv.execute_script("return location.search;") == "?" + plain
    assert '"3": 16000000' in page.send("BALANCES")[-1] and page.send("KEY 5")
    assert page.send("ADVANCE 1")[-1].startswith("ERR unsupported")  # its clock the real one
    page.load()  # the same link again: asked again, and this time taken
    assert "classic money" in _asked(page)
    page.tap("ask-change")
    assert _asked(page) is None
    assert '"profile": "classic"' in page.send("HELLO")[-1]
    assert '"maintenance": true, "pot": 0' in page.send("STATE")[-1]
    assert '"3": 1500' in page.send("BALANCES")[-1]  # B15: a new game, the old one kept
    assert '"profile": "world"' in page.send("GAMES")[-1]
    assert page.send("ADVANCE 1")[-1].startswith("OK")
    page.query = plain
    page.load()  # the game as kept: nothing to ask
    assert _asked(page) is None and '"profile": "classic"' in page.send("HELLO")[-1]
    page.query = plain + "&profile=CLASSIC"
    page.load()  # the edition it has, in any case: nothing to ask either
    assert _asked(page) is None


def test_a_link_starts_a_game_not_yet_kept_with_its_options_without_asking(page):
    page.query += "&profile=classic&maintenance"
    page.load()
    assert _asked(page) is None
    hello = page.send("HELLO")[-1]
    assert '"profile": "classic"' in hello and '"store": "new"' in hello  # B17: nothing kept
    assert '"maintenance": true' in page.send("STATE")[-1]


def test_a_damaged_tab_stamp_stands_for_none_and_the_game_plays_on(page):
    page.load()
    page.drv.execute_script("localStorage.setItem('bank-unit-stamp/' + arguments[0], 'x');",
                            page.game)
    page.load()  # a reload reads the damaged number
    page.send("INSERT L 3")
    assert page.send("KEY 1M+")[-1].startswith("OK {")
    assert '"3": 16000000' in page.send("BALANCES")[-1]
    assert page.drv.find_element("id", "notice").get_attribute("hidden") is not None


def test_a_game_name_out_of_its_alphabet_is_refused_and_nothing_is_kept(page):
    from urllib.parse import quote

    page.load()  # a game of its own, played: what is kept must stay as it is
    page.send("INSERT L 3")
    page.send("KEY 1M+")
    kept = "return Object.fromEntries(Object.entries(localStorage));"
    before = page.drv.execute_script(kept)
    assert page.drv.execute_async_script(LOCKS_OF, page.game) == ["bank-unit/" + page.game]
    for name in BAD_GAMES:
        page.drv.get("%s/?game=%s" % (page.origin, quote(name, safe="")))
        got = page.drv.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "bank.ready.then(() => done('ready'), (e) => done('failed: ' + e.message));")
        assert got.startswith("failed: This page cannot open the game"), (name, got)
        shown = page.drv.execute_script("""
            const n = document.getElementById('notice');
            return [n.hidden, document.getElementById('notice-text').textContent,
                    document.getElementById('take-over').hidden];""")
        assert shown[0] is False and shown[2] is True, (name, shown)
        assert "a game's name (?game=NAME) is 1 to 32 small letters a\u2013z, digits or" in \
            shown[1], (name, shown)
        assert page.send("HELLO") == [got[len("failed: "):]]  # no unit runs here
        asked = page.drv.execute_async_script(LOCKS_OF, name)
        assert asked == [], (name, asked)  # its lock neither taken nor asked for
        assert page.drv.execute_script(kept) == before, name  # nothing read in, nothing kept
    page.load()
    assert page.send("BALANCES")[-1].startswith('OK {"1": 15000000, "2": 15000000, '
                                                '"3": 16000000,')


def test_a_game_reads_exactly_its_own_keys_b17(browser, origin):
    played = Page(browser, origin).load()
    played.send("INSERT L 1")
    played.send("KEY 1M+")
    # Keys under another game's prefix, as a page that took any name kept them: `G/`'s files
    # (bank-unit/G//bank.a) and `G/x`'s (bank-unit/G/x/bank.a).
    slash, folder = Page(browser, origin), Page(browser, origin)
    browser.execute_script("""
        const from = 'bank-unit/' + arguments[0] + '/';
        for (const k of Object.keys(localStorage).filter((k) => k.startsWith(from))) {
          const f = k.slice(from.length);
          localStorage.setItem('bank-unit/' + arguments[1] + '//' + f, localStorage.getItem(k));
          localStorage.setItem('bank-unit/' + arguments[2] + '/x/' + f, localStorage.getItem(k));
        }""", played.game, slash.game, folder.game)
    for page in (slash, folder):
        page.load()  # it starts: the other game's keys are none of its files
        assert page.send("HELLO")[-1].endswith('"store": "new"}'), page.game
        assert page.send("BALANCES")[-1] == (
            'OK {"1": 15000000, "2": 15000000, "3": 15000000, "4": 15000000, '
            '"5": 15000000, "6": 15000000}'), page.game  # not the other game's 16 M
    played.load()
    assert played.send("BALANCES")[-1].startswith('OK {"1": 16000000,')
    assert [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"] == []


def _headless(data, state):
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio",
                        "--virtual-clock", "--seed", "42", "--state", state],
                       input=data, capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout


def test_protocol_replies_match_the_headless_simulator_byte_for_byte(browser, origin):
    with open(SESSION, "rb") as f:
        data = f.read()
    with tempfile.TemporaryDirectory() as state:
        want = _headless(data, state)
    page = Page(browser, origin, "clock=virtual&seed=42").load()
    got = []
    for line in data.decode().splitlines():
        got.extend(x for x in page.send(line) if x)  # a blank line has no reply: ""
    assert ("\n".join(got) + "\n").encode() == want


@pytest.mark.parametrize("width,height,mobile", [
    (360, 740, True), (740, 360, True), (375, 667, True), (360, 640, True), (320, 568, True),
    (430, 932, True), (568, 320, True), (812, 375, True), (844, 390, True), (932, 430, True),
    (1280, 720, False), (1366, 768, False), (1366, 650, False),
    (1024, 600, False)])  # and a laptop's window (650 px of a 768 screen), the cards in view too
def test_the_unit_its_cards_and_the_console_fit_a_phone_or_a_laptop_with_44px_keys(origin, width,
                                                                                   height,
                                                                                   mobile):
    drv = start_chromium(width, height, mobile)
    try:
        page = Page(drv, origin).load()
        box = drv.execute_script("""
            const r = (id) => document.getElementById(id).getBoundingClientRect();
            const sizes = [...document.querySelectorAll('.key, .card')].map((e) => {
              const b = e.getBoundingClientRect(); return Math.min(b.width, b.height); });
            const all = ['unit', 'tray', 'slot-L', 'slot-R'].map(r);
            return {bottom: Math.max(...all.map((b) => b.bottom)),
                    right: Math.max(...all.map((b) => b.right)),
                    left: Math.min(...all.map((b) => b.left)),
                    top: Math.min(...all.map((b) => b.top)), smallest: Math.min(...sizes),
                    panel: r('balances').left, unit: r('unit').right,
                    scroll: document.documentElement.scrollWidth};""")
        assert box["top"] >= 0 and box["left"] >= 0
        assert box["bottom"] <= height and box["right"] <= width  # no scrolling to play
        assert box["scroll"] <= width  # nothing sideways
        assert box["smallest"] >= 44  # every key and card a 44 px touch target
        if width > height and width >= 740:  # narrower, the panel goes under the unit
            assert box["panel"] > box["unit"]  # the banker beside the unit
        page.tap("card-6")
        page.tap("slot-L")  # and played at that size: the card where it was put
        assert page.drv.execute_script("return bank.view().slots") == [6, None]
        page.tap("console")  # opened, its line and Send inside the panel, nothing sideways
        inside = drv.execute_script("""
            const panel = document.querySelector('.panel');
            const p = panel.getBoundingClientRect();
            const right = p.left + panel.clientLeft + panel.clientWidth;
            const within = (e) => { const b = e.getBoundingClientRect();
              return b.width > 0 && b.left >= p.left && b.right <= right; };
            return {input: within(document.getElementById('console-in')),
                    send: within(document.querySelector('#console-form button')),
                    panel: panel.scrollWidth - panel.clientWidth,
                    scroll: document.documentElement.scrollWidth};""")
        assert inside == {"input": True, "send": True, "panel": 0, "scroll": inside["scroll"]}
        assert inside["scroll"] <= width
        assert page.console_errors() == []
    finally:
        stop_chromium(drv)


def test_six_of_the_longest_names_fit_the_banker_panel_of_a_narrow_phone(origin):
    drv = start_chromium(320, 568, True)
    try:
        page = Page(drv, origin).load()
        for card in range(1, 7):
            page.send("NAME %d %s" % (card, "W" * 16))  # NAME's longest, with no space
        for line in ("INSERT L 1", "INSERT R 2", "KEY 1 2 5 K -"):  # 13.875 M: a wide short form
            page.send(line)
        wait = "return document.getElementById('balances').textContent;"
        wait_for(lambda: drv.execute_script(wait).count("W" * 16) == 6)  # the six names shown
        assert drv.execute_script(
            "return document.documentElement.scrollWidth;") <= 320  # nothing sideways
    finally:
        stop_chromium(drv)


def test_works_offline_once_loaded(browser, site):
    from simulator import web

    srv = web.server(site, 0)  # a server of this test's own, to be stopped
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    page = Page(browser, "http://127.0.0.1:%d" % srv.server_address[1]).load()
    page.send("INSERT L 6")
    page.send("KEY 3M+")
    kept = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(async () => {
          // the build's own copy (sw.js: "bank-unit-" and the site's hash)
          const name = (await caches.keys()).find((n) => n.startsWith('bank-unit-'));
          const c = await caches.open(name);
          done(!!(await c.match('micropython.wasm'))
               && !!(await c.match('firmware/brain/unit.py')));
        }, (e) => done('no service worker: ' + e));""")
    assert kept is True
    srv.shutdown()
    srv.server_close()  # the server gone: nothing answers on that port now
    page.load()
    assert page.send("BALANCES")[-1].endswith('"6": 18000000}')


def test_the_console_speaks_the_protocol(page):
    page.load()
    page.tap("console")  # the <details> opens
    box = page.drv.find_element("id", "console-in")
    for line in ("INSERT R 3", "KEY 250K-", "BALANCES"):
        box.send_keys(line + "\n")
    out = page.drv.find_element("id", "console-out").text.splitlines()
    assert out[0] == "> INSERT R 3" and out[2] == "> KEY 250K-" and out[4] == "> BALANCES"
    assert out[5] == ('OK {"1": 15000000, "2": 15000000, "3": 14750000, "4": 15000000, '
                      '"5": 15000000, "6": 15000000}')
    assert page.drawn() == shows("14.75", m=True)  # B5: the drawing follows the console
    assert page.panel()[1] == ["#1 pay 3>bank 250 k"]


def test_a_write_the_browser_refuses_moves_no_money(page):
    page.load()
    page.send("INSERT L 2")
    page.send("KEY 1M+")
    page.drv.execute_script("""
        window._setItem = Storage.prototype.setItem;
        Storage.prototype.setItem = function () {
          throw new DOMException('full', 'QuotaExceededError');
        };""")
    state = page.send("KEY 2M+")[-1]
    assert '"error": "store-failed"' in state  # B17: refused, as with a flash that is full
    assert page.send("BALANCES")[-1].startswith('OK {"1": 15000000, "2": 16000000,')
    page.drv.execute_script("Storage.prototype.setItem = window._setItem;")
    page.load()
    assert page.send("BALANCES")[-1].startswith('OK {"1": 15000000, "2": 16000000,')
    assert page.send("HELLO")[-1].endswith('"store": "ok"}')


def test_c_held_three_seconds_starts_a_new_game(page):
    from selenium.webdriver import ActionChains

    page.load()
    page.send("INSERT L 3")
    page.send("KEY 2M+")
    page.send("REMOVE L")
    assert page.panel()[0][2] == "17,000,000"
    key = page.drv.find_element("id", "key-C")
    ActionChains(page.drv).click_and_hold(key).perform()
    wait_for(lambda: "new-game" in page.drv.execute_script("return bank.tones;"), 4.5)
    ActionChains(page.drv).release(key).perform()  # B11: the hold, not the release, did it
    assert page.panel()[0] == ["15,000,000"] * 6
    assert page.drawn() == shows("0")


def test_the_players_names_in_the_panel_given_by_a_tap(page):
    page.load()
    assert page.send("NAME 2 Ada")[-1].startswith('OK {"1": null, "2": "Ada"')
    names = page.drv.execute_script(
        "return [...document.querySelectorAll('#balances td.name')].map((e) => e.textContent);")
    assert names[1] == "Ada" and len(names) == 6
    page.drv.execute_script("window.prompt = () => 'Grace';")  # the banker types a name
    page.drv.find_elements("css selector", "#balances td.name")[4].click()
    assert page.send("NAMES")[-1] == ('OK {"1": null, "2": "Ada", "3": null, "4": null, '
                                      '"5": "Grace", "6": null}')
    page.load()  # kept in the browser as on the unit's flash
    names = page.drv.execute_script(
        "return [...document.querySelectorAll('#balances td.name')].map((e) => e.textContent);")
    assert names[1] == "Ada" and names[4] == "Grace"


def _lights(page):
    """The two lights as drawn: (red lit, green lit)."""
    return tuple(page.drv.execute_script(
        "return ['light-red', 'light-green'].map("
        "(id) => document.getElementById(id).classList.contains('on'));"))


def test_the_deal_timer_lights_and_tones_on_a_virtual_clock(browser, origin):
    # B13 on the page: the lights and tones are what App's step drew and sounded after each
    # line (the console's step after it). The clock starts at 0; at a whole second both
    # flashing patterns are lit, half a second on the slow one and 125 ms on the fast one not.
    page = Page(browser, origin, "clock=virtual&seed=42").load()

    def tones():
        return page.drv.execute_script("return bank.tones;")

    def until(phase):
        for _ in range(60):
            if '"deal": "%s"' % phase in page.send("ADVANCE 1000")[-1]:
                return
        raise AssertionError("the deal never reached " + phase)

    page.keys("DEAL")
    assert tones() == ["click"]
    assert _lights(page) == (True, False)  # the red light, slowly
    page.send("ADVANCE 500")
    assert _lights(page) == (False, False)
    page.send("ADVANCE 500")
    until("ending")  # its last 5 s: the warning, the red light fast
    assert tones() == ["click", "deal-warning"]
    assert _lights(page) == (True, False)
    page.send("ADVANCE 125")
    assert _lights(page) == (False, False)
    page.send("ADVANCE 875")
    until("done")  # the end: its tone, the green light slowly for 5 s
    assert tones() == ["click", "deal-warning", "deal-end"]
    assert _lights(page) == (False, True)
    page.send("ADVANCE 500")
    assert _lights(page) == (False, False)
    page.send("ADVANCE 500")
    assert _lights(page) == (False, True)
    page.send("ADVANCE 5000")
    assert _lights(page) == (False, False)
    assert page.drv.execute_script("return bank.view().deal") == "idle"
    assert page.console_errors() == []


def test_the_deal_timer_flashes_by_itself_on_a_real_clock(page):
    # B13: no input, yet the red light goes on and off: the page sleeps until SimApp's wait
    # (the light's next change) and steps again. DEAL again ends it.
    page.load()
    page.keys("DEAL")
    page.record("light-red", "return document.getElementById('light-red')"
                ".classList.contains('on');")
    seen = page.recorded(lambda seen: len(seen) >= 3, 2.5)
    assert len(seen) >= 3, seen  # on, off, on (or off, on, off) within 2.5 s of a 1 s pattern
    page.keys("DEAL")
    # The timer ended (B13: DEAL again stops it; the green light's "done"): nothing flashes
    # the red light any more.
    wait_for(lambda: page.drv.execute_script("return bank.view().deal") == "done", 2)
    wait_for(lambda: _lights(page)[0] is False, 2)  # as drawn at the page's next frame
