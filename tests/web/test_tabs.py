"""One unit per browser (docs/web.md, "One tab runs the game"): two real Chromium tabs or
windows on the same kept game. One runs it; the other says so and offers to take it over; the
one that lets go stops and says why; no acknowledged transaction is lost (B17) across tabs,
reloads, a tab closed, a tab killed in the middle of a transaction, or two windows.

Each runs twice: with the Web Locks API, and without it, as over plain http to a LAN address
(`--lan`: not a secure context), where the tabs ask one another over a BroadcastChannel."""


import pytest
from browserpage import Page
from tests.waits import wait_for


def notice(drv):
    """(why, text) of the notice the page shows over the unit, or None."""
    return drv.execute_script("""
        const n = document.getElementById('notice');
        return n && !n.hidden ? [n.dataset.why, document.getElementById('notice-text')
                                 .textContent] : null;""")


def running(drv):
    return drv.execute_script("return !!(window.bank && bank.view());") and notice(drv) is None


def balances(page):
    return page.send("BALANCES")[-1]


NO_WEB_LOCKS = "delete Navigator.prototype.locks;"


def open_second(page, kind):
    """The same game opened in a new tab or window of the same browser; its handle."""
    first = page.drv.current_window_handle
    page.drv.switch_to.new_window(kind)
    page.drv.bank_prepare()
    page.drv.get("%s/?%s" % (page.origin, page.query))
    return first, page.drv.current_window_handle


@pytest.fixture(params=["web-locks", "asking"])
def tabs(browser, request):
    """The browser, its tabs given no Web Locks for "asking"; leaves one tab open (the first,
    if the test did not close it) as it was, as the next test expects."""
    first = browser.current_window_handle
    added = []

    def prepare():
        if request.param == "asking":
            added.append(browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                                 {"source": NO_WEB_LOCKS})["identifier"])

    browser.bank_prepare = prepare
    browser.bank_mode = request.param
    prepare()
    yield browser
    handles = browser.window_handles
    keep = first if first in handles else handles[0]
    for h in handles:
        if h != keep:
            browser.switch_to.window(h)
            browser.close()
    browser.switch_to.window(keep)
    for ident in added:
        try:
            browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                    {"identifier": ident})
        except Exception:
            pass  # added to a tab now closed
    del browser.bank_prepare


@pytest.mark.parametrize("kind", ["tab", "window"])
def test_a_second_tab_waits_takes_over_and_the_first_stops(tabs, origin, kind):
    a = Page(tabs, origin).load()
    assert tabs.execute_script("return !!navigator.locks;") == (tabs.bank_mode == "web-locks")
    a.tap("card-6")
    a.tap("slot-L")
    a.keys("1", "M", "+")  # acknowledged in tab A: 16 M
    assert a.panel()[0][5] == "16,000,000"
    ta, tb = open_second(a, kind)
    # B: the game is elsewhere, said in words, and B runs nothing meanwhile.
    why, text = wait_for(lambda: notice(tabs))
    assert why == "waiting" and "open in another tab" in text
    assert tabs.find_element("id", "take-over").is_displayed()
    assert tabs.execute_script("return bank.view();") is None
    assert a.send("HELLO") == ["this tab does not run the game: another tab does"]
    tabs.find_element("id", "take-over").click()
    wait_for(lambda: running(tabs))
    assert a.panel()[0][5] == "16,000,000"  # B booted from what A acknowledged
    assert a.drv.execute_script("return bank.view().slots;") == [6, None]  # its cards too (B16)
    a.send("REMOVE L")
    a.send("INSERT L 5")
    a.send("KEY 2M+")
    assert balances(a).endswith('"5": 17000000, "6": 16000000}')
    # A let go: it says why and takes no more input.
    tabs.switch_to.window(ta)
    why, text = wait_for(lambda: notice(tabs))
    assert why == "moved" and "This tab stopped" in text
    assert a.send("BALANCES") == ["this tab does not run the game: another tab does"]
    # A reloaded while B runs: A waits again, and may take the game back with both payments.
    tabs.get("%s/?%s" % (origin, a.query))
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    tabs.find_element("id", "take-over").click()
    wait_for(lambda: running(tabs))
    assert balances(a).endswith('"5": 17000000, "6": 16000000}')
    tabs.switch_to.window(tb)
    assert wait_for(lambda: notice(tabs))[0] == "moved"
    # B, stopped, takes it back in one tap (its page starts again and asks).
    tabs.find_element("id", "take-over").click()
    wait_for(lambda: running(tabs))
    assert balances(a).endswith('"5": 17000000, "6": 16000000}')
    tabs.get("%s/?%s" % (origin, a.query))  # a reload of the running tab runs at once again
    wait_for(lambda: running(tabs))
    assert balances(a).endswith('"5": 17000000, "6": 16000000}')
    assert a.console_errors() == []


def running_and_waiting(tabs, origin, *lines):
    """Tab A running a game after lines, tab B open on it and waiting (B's window current)."""
    a = Page(tabs, origin).load()
    for line in lines:
        a.send(line)
    ta, tb = open_second(a, "tab")
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    return a, ta, tb


def test_a_reloaded_running_tab_runs_the_game_again_though_another_tab_waited(tabs, origin):
    a, ta, tb = running_and_waiting(tabs, origin, "INSERT L 6", "KEY 1M+")
    tabs.switch_to.window(ta)
    tabs.refresh()  # B took the lock as A's old page let it go: A asks for it back
    wait_for(lambda: running(tabs))
    assert balances(a).endswith('"6": 16000000}')
    tabs.switch_to.window(tb)
    assert wait_for(lambda: notice(tabs))[0] in ("waiting", "moved")  # B runs nothing
    assert a.send("HELLO") == ["this tab does not run the game: another tab does"]
    tabs.switch_to.window(ta)
    assert a.console_errors() == []


def test_a_reload_takes_back_no_game_the_banker_gave_away_or_never_ran_here(tabs, origin):
    a, ta, tb = running_and_waiting(tabs, origin, "INSERT L 6")
    ran = "sessionStorage.setItem('bank-ran', arguments[0]);"
    tabs.execute_script(ran, a.game)  # B as a duplicated tab: A's mark, but B never ran it
    tabs.get("%s/?%s" % (origin, a.query))  # its load (no reload) drops the mark
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    tabs.refresh()
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    tabs.switch_to.window(ta)
    assert running(tabs)  # A runs on
    # B taken over by the banker; A, which froze and never heard it lost the game, reloaded:
    tabs.switch_to.window(tb)
    tabs.find_element("id", "take-over").click()
    wait_for(lambda: running(tabs))
    tabs.switch_to.window(ta)
    assert wait_for(lambda: notice(tabs))[0] == "moved"
    tabs.execute_script(ran, a.game)  # as a tab that never ran stop() would still have it
    tabs.refresh()
    # It says it waits (a reloaded runner would say it asks for the game back instead).
    wait_for(lambda: (notice(tabs) or ("", ""))[1].startswith("This game is open in another"))
    tabs.switch_to.window(tb)
    assert running(tabs)  # B, the banker's choice, runs on
    assert a.console_errors() == []


def test_a_waiting_tab_starts_by_itself_when_the_running_one_is_closed(tabs, origin):
    a, ta, tb = running_and_waiting(tabs, origin, "INSERT R 2", "KEY 700K-")
    tabs.switch_to.window(ta)
    tabs.close()
    tabs.switch_to.window(tb)
    wait_for(lambda: running(tabs))
    assert balances(a).startswith('OK {"1": 15000000, "2": 14300000,')


def test_a_tab_killed_in_the_middle_of_a_transaction_loses_nothing_acknowledged(tabs, origin):
    a = Page(tabs, origin).load()
    a.tap("card-3")
    a.tap("slot-L")
    a.keys("1", "M", "+")  # acknowledged: 16 M
    a.keys("5", "0", "0", "K")  # half typed when the tab dies: never acknowledged
    ta, tb = open_second(a, "tab")
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    tabs.switch_to.window(ta)
    try:
        tabs.execute_cdp_cmd("Page.crash", {})  # the renderer killed, no unload, no goodbye
    except Exception:
        pass  # the command's own reply dies with the page
    tabs.switch_to.window(tb)
    wait_for(lambda: running(tabs))
    assert balances(a).startswith('OK {"1": 15000000, "2": 15000000, "3": 16000000,')
    assert a.send("HELLO")[-1].endswith('"store": "ok"}')
    tabs.switch_to.window(ta)
    tabs.close()  # the crashed tab: the next test goes on in the living one
    tabs.switch_to.window(tb)


def test_a_frozen_running_tab_is_taken_over_and_stops_when_it_wakes(tabs, origin):
    a = Page(tabs, origin).load()
    a.send("INSERT L 4")
    a.send("KEY 1M+")
    ta, tb = open_second(a, "tab")
    assert wait_for(lambda: notice(tabs))[0] == "waiting"
    tabs.switch_to.window(ta)
    # A frozen: a key held for real over its console (HOLD on a real clock), as a busy tab.
    tabs.execute_script("setTimeout(() => bank.send('HOLD 1 5000'), 0);")
    tabs.switch_to.window(tb)
    if tabs.bank_mode == "web-locks":
        tabs.find_element("id", "take-over").click()
    # else B, asking who runs the game every second, gets no answer and starts by itself.
    wait_for(lambda: running(tabs), 10)  # no answer from A: its lock taken after 3 s
    assert balances(a).endswith('"4": 16000000, "5": 15000000, "6": 15000000}')
    a.send("REMOVE L")
    a.send("INSERT R 4")
    a.send("KEY 500K-")
    tabs.switch_to.window(ta)
    why, text = wait_for(lambda: notice(tabs), 10)  # awake again: it stopped and says so
    assert why in ("moved", "taken") and "This tab stopped" in text
    assert a.send("BALANCES") == ["this tab does not run the game: another tab does"]
    tabs.switch_to.window(tb)
    tabs.get("%s/?%s" % (origin, a.query))  # what A might have written after waking: nothing
    wait_for(lambda: running(tabs))
    assert balances(a).endswith('"4": 15500000, "5": 15000000, "6": 15000000}')


def test_a_tab_that_finds_another_has_written_stops_before_writing(page):
    page.load()
    page.send("INSERT L 1")
    page.send("KEY 1M+")
    # Another tab's write, as this one sees it: the kept write number moved on (B17: this
    # tab must not write its older game over that one).
    page.drv.execute_script("localStorage.setItem('bank-unit-stamp/' + arguments[0], '999');",
                            page.game)
    assert '"error": "store-failed"' in page.send("KEY 2M+")[-1]  # refused: nothing moved
    why, text = wait_for(lambda: notice(page.drv))
    assert why == "taken" and "This tab stopped" in text
    assert page.send("BALANCES") == ["this tab does not run the game: another tab does"]
    page.load()
    assert balances(page).startswith('OK {"1": 16000000, "2": 15000000,')
