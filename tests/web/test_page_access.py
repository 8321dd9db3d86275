"""The unit in a browser for everyone (docs/web.md, "Playing"): a keyboard alone plays it, a
screen reader hears what the glass shows in the page's language, a phone turned sideways keeps
the unit on its screen, a key held as the page is left is let go, and no other site frames it.
Real headless Chromium."""

import http.server
import threading

import pytest
from browserpage import Page, leave, start_chromium, stop_chromium
from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys
from tests.waits import wait_for


def focus_and_press(page, element_id, key):
    page.drv.execute_script("document.getElementById(arguments[0]).focus();", element_id)
    ActionChains(page.drv).send_keys(key).perform()


def view(page, what):
    return page.drv.execute_script("return bank.view()." + what + ";")


def test_a_keyboard_alone_puts_a_card_in_plays_and_takes_it_out(page):
    page.load()
    focus_and_press(page, "card-2", Keys.ENTER)  # a card chosen, as a tap chooses it
    focus_and_press(page, "slot-L", Keys.SPACE)  # ... and put in the slot
    wait_for(lambda: view(page, "slots[0]") == 2)
    ActionChains(page.drv).send_keys("150k+").perform()  # B4, typed on the keyboard
    wait_for(lambda: page.panel()[0][1] == "15,150,000")
    focus_and_press(page, "card-2", Keys.ENTER)  # a card in a slot: taken out
    wait_for(lambda: view(page, "slots[0]") is None)
    # back on the table with the keyboard's focus still on it, for the next Enter
    assert page.drv.execute_script("return document.activeElement.id;") == "card-2"
    assert page.console_errors() == []


def test_space_and_enter_on_a_focused_key_press_that_key_and_start_no_deal(page):
    page.load()
    page.send("INSERT L 1")
    focus_and_press(page, "key-5", Keys.ENTER)
    focus_and_press(page, "key-5", Keys.SPACE)
    assert view(page, "deal") == "idle"  # Space on a key of the keypad is that key, not DEAL
    assert page.send("STATE")[-1].count('"entry": "55"') == 1
    page.drv.execute_script("document.activeElement.blur();")
    ActionChains(page.drv).send_keys(Keys.SPACE).perform()  # on nothing focused: DEAL (B13)
    wait_for(lambda: view(page, "deal") == "running")


def test_space_on_the_consoles_heading_opens_it_and_presses_no_key(page):
    page.load()
    page.drv.execute_script("document.querySelector('#console summary').focus();")
    ActionChains(page.drv).send_keys(Keys.SPACE).perform()
    wait_for(lambda: page.drv.execute_script("return document.getElementById('console').open;"))
    assert view(page, "deal") == "idle"


def test_a_key_held_as_the_page_loses_focus_is_let_go_and_starts_no_new_game_b11(browser,
                                                                                   origin):
    leave(browser)
    page = Page(browser, origin, "clock=virtual").load()
    page.send("INSERT L 3")
    page.send("KEY 2M+")
    page.send("REMOVE L")  # B10: the card out, C undoes nothing
    browser.execute_cdp_cmd("Input.dispatchKeyEvent", {
        "type": "keyDown", "key": "c", "code": "KeyC", "text": "c", "windowsVirtualKeyCode": 67})
    assert view(page, "hold") is not None  # C is down
    browser.execute_script("window.dispatchEvent(new Event('blur'));")  # the window left
    page.send("ADVANCE 4000")  # longer than B11's 3 s
    assert page.panel()[0][2] == "17,000,000"  # no new game behind the banker's back
    browser.execute_cdp_cmd("Input.dispatchKeyEvent", {
        "type": "keyUp", "key": "c", "code": "KeyC", "windowsVirtualKeyCode": 67})
    assert page.panel()[0][2] == "17,000,000"
    assert page.console_errors() == []


def test_a_screen_reader_hears_the_marks_and_the_labels_in_the_pages_language(browser, origin):
    leave(browser)
    page = Page(browser, origin, "lang=fr").load()
    page.send("INSERT L 1")
    wait_for(lambda: view(page, "M"), 3)  # B3: the card's number, then its balance in M
    label = page.drv.execute_script
    assert label("return document.getElementById('lcd').getAttribute('aria-label');") == (
        "\u00e9cran : 15 M")
    assert label("return document.getElementById('slot-L').getAttribute('aria-label');") == (
        "fente gauche (cr\u00e9dit +)")
    assert label("return document.getElementById('card-4').getAttribute('aria-label');") == (
        "carte 4")
    assert label("return document.getElementById('key--').getAttribute('aria-label');") == "moins"
    page.send("NAME 2 Ada")
    wait_for(lambda: label("return document.querySelectorAll('#balances td.name')[1]"
                           ".getAttribute('aria-label');") ==
             "joueur de la carte 2 : Ada (toucher pour changer)")


@pytest.mark.parametrize("width,height", [(740, 360), (667, 375), (640, 360), (568, 320)])
def test_a_phone_on_its_side_keeps_the_unit_on_screen_and_the_balances_whole(origin, width,
                                                                              height):
    drv = start_chromium(width, height)
    try:
        Page(drv, origin).load()
        box = drv.execute_script("""
            const r = (id) => document.getElementById(id).getBoundingClientRect();
            const parts = ['unit', 'tray', 'slot-L', 'slot-R'].map(r);
            const panel = document.querySelector('.panel');
            return {left: Math.min(...parts.map((b) => b.left)),
                    right: Math.max(...parts.map((b) => b.right)),
                    cards: Math.min(...[1, 2, 3, 4, 5, 6].map((n) => r('card-' + n).left)),
                    panel: panel.scrollWidth - panel.clientWidth,
                    panelRight: panel.getBoundingClientRect().right,
                    page: document.documentElement.scrollWidth};""")
        assert box["left"] >= 0 and box["cards"] >= 0  # nothing off the left edge
        assert box["right"] <= width
        assert box["panel"] <= 0  # every balance whole, none cut at the panel's edge
        assert box["panelRight"] <= width and box["page"] <= width  # nothing sideways
    finally:
        stop_chromium(drv)


def test_another_site_cannot_frame_the_unit_page(browser, origin):
    framing = ('<!doctype html><iframe src="%s/?game=framed"></iframe>' % origin).encode()

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(framing)))
            self.end_headers()
            self.wfile.write(framing)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Other)  # another origin: its port
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        leave(browser)
        browser.get("http://127.0.0.1:%d/" % srv.server_address[1])
        seen = []
        wait_for(lambda: seen.extend(browser.get_log("browser")) or
                 any("frame-ancestors" in e["message"] for e in seen), 5)
        leave(browser)
    finally:
        srv.shutdown()
        srv.server_close()
