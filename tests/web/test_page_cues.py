"""The page does what the window does (docs/web.md, "What the page says"): the cues (a held C
counting down to a new game, B11; an undo, B10; maintenance mode; a unit that switched itself
off, B16), the kept games with "bring back", the banker's names in the log and the deal timer's
state (B13). Each in a real headless Chromium, each sentence in both languages and compared
with what the window's own code says for the same inputs (windowside.py)."""

import json

import pytest
from desktop import words
from windowside import window, window_says

LANGS = words.LANGS


def act(page, op, a=None, b=None):
    page.drv.execute_script("bank.act(arguments[0], arguments[1], arguments[2]);", op, a, b)


def keys(page, *ks):
    for k in ks:
        act(page, "down", k)
        act(page, "up", k)


def text(page, element_id):
    return page.drv.find_element("id", element_id).text


def bar(page, key):
    """The hold bar on key as drawn: its width over the key's (0 when not shown)."""
    return page.drv.execute_script("""
        const k = document.getElementById('key-' + arguments[0]);
        const b = k.querySelector('.hold-bar');
        return b.hidden ? 0 : b.getBoundingClientRect().width /
          (k.getBoundingClientRect().width - 12);""", key)


def load(page, lang, seed=1):
    page.query += "&clock=virtual&seed=%d&lang=%s" % (seed, lang)
    return page.load()


def said_by_window(lang, script):
    """What the window says after script(w) (w: windowside.WindowWords) in lang."""
    words.set_lang(lang)
    try:
        w = window()
        script(w)
        return w.message_text()
    finally:
        words.set_lang("en")


# -- the cues ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_holding_c_counts_down_to_the_new_game_as_the_window_does(page, lang):  # B11
    load(page, lang)
    page.send("INSERT L 3")
    page.send("KEY 2M+")
    page.send("REMOVE L")
    act(page, "down", "C")
    page.send("ADVANCE 1000")

    def held_a_second(w):
        w.down("C")
        w.advance(1000)

    want = said_by_window(lang, held_a_second)
    assert want == words.say("hold.c", lang, s=words.decimal(2.0, lang))
    assert text(page, "said") == want  # "holding C: a new game in 2.0 s, ..."
    assert bar(page, "C") == pytest.approx(1 / 3, abs=0.02)  # a third along the key
    assert bar(page, "DEAL") == 0
    page.send("ADVANCE 1000")
    assert text(page, "said") == words.say("hold.c", lang, s=words.decimal(1.0, lang))
    assert bar(page, "C") == pytest.approx(2 / 3, abs=0.02)
    page.send("ADVANCE 1000")  # the hold, not the release, starts it

    def held_three(w):
        held_a_second(w)
        w.advance(2000)

    assert text(page, "said") == said_by_window(lang, held_three)
    assert text(page, "said") == words.say("note.new-game", lang, amount="15 M")
    act(page, "up", "C")
    assert bar(page, "C") == 0
    assert page.panel()[0] == [words.grouped(15000000, lang)] * 6


def test_a_short_hold_of_c_says_what_was_coming_and_is_a_plain_c(page):  # B10, B11
    load(page, "en")
    page.send("INSERT L 3")
    page.send("KEY 25")
    act(page, "down", "C")
    page.send("ADVANCE 2900")
    assert text(page, "said").startswith("holding C: a new game in 0.1 s")
    act(page, "up", "C")
    assert text(page, "said") == "" and bar(page, "C") == 0
    assert page.send("STATE")[-1].count('"entry": ""') == 1  # the entry cleared, no new game
    assert page.send("LOG")[-1] == "OK []"


def _holding(seen):
    return [(s, b) for s, b in seen if s.startswith("holding C")]


def test_the_countdown_runs_by_itself_on_a_real_clock(page):  # B11
    from selenium.webdriver import ActionChains

    page.load()
    page.record("said", """
        const k = document.getElementById('key-C');
        const b = k.querySelector('.hold-bar');
        return [document.getElementById('said').innerText,
                b.hidden ? 0 : b.getBoundingClientRect().width /
                  (k.getBoundingClientRect().width - 12)];""")
    key = page.drv.find_element("id", "key-C")
    ActionChains(page.drv).click_and_hold(key).perform()
    held = page.recorded(lambda seen: len(_holding(seen)) >= 5, 1.5)
    ActionChains(page.drv).release(key).perform()
    held = _holding(held)
    seen = [s for s, _ in held]
    bars = [b for _, b in held]
    # the page wakes by itself while C is held: the seconds go down, the bar grows
    assert len(seen) >= 5, seen
    assert bars == sorted(bars) and bars[-1] > bars[0]
    assert "new-game" not in page.drv.execute_script("return bank.tones;")


@pytest.mark.parametrize("lang", LANGS)
def test_an_undo_says_what_c_reversed(page, lang):  # B10
    load(page, lang)
    steps = [("in", "L", 1), ("key", "1"), ("key", "0"), ("key", "0"), ("key", "K"),
             ("key", "+"), ("key", "C")]
    for step in steps:
        if step[0] == "key":
            keys(page, step[1])
        else:
            act(page, *step)

    def script(w):
        for step in steps:
            w.do(step)

    want = said_by_window(lang, script)
    assert text(page, "said") == want
    assert want == words.say("note.undo", lang, seq=1, amount="100 k",
                             src=words.who(1, lang=lang), dst=words.say("bank", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_holding_deal_counts_down_to_maintenance_and_labels_it(page, lang):
    load(page, lang)
    assert not page.drv.find_element("id", "maint").is_displayed()
    act(page, "down", "DEAL")
    page.send("ADVANCE 1500")

    def held(w):
        w.down("DEAL")
        w.advance(1500)

    assert text(page, "said") == said_by_window(lang, held)
    assert text(page, "said") == words.say("hold.deal.on", lang, s=words.decimal(1.5, lang))
    assert bar(page, "DEAL") == pytest.approx(0.5, abs=0.02)
    page.send("ADVANCE 1500")
    act(page, "up", "DEAL")
    assert page.send("MAINT")[-1] == 'OK {"maintenance": true}'  # the keypad's own hold
    badge = page.drv.find_element("id", "maint")
    assert badge.is_displayed() and badge.text == words.TEXTS[lang]["win.maintenance"]
    assert text(page, "said") == words.say("maintenance", lang)
    act(page, "down", "DEAL")
    page.send("ADVANCE 1000")
    assert text(page, "said") == words.say("hold.deal.off", lang, s=words.decimal(2.0, lang))
    page.send("ADVANCE 2000")
    act(page, "up", "DEAL")
    assert not badge.is_displayed()
    assert page.send("MAINT")[-1] == 'OK {"maintenance": false}'


@pytest.mark.parametrize("lang", LANGS)
def test_a_unit_that_switched_itself_off_says_so_and_what_wakes_it(page, lang):  # B16
    load(page, lang)
    page.send("ADVANCE 60000")
    assert page.drawn()[3] is True  # the glass dark
    assert text(page, "glass-note") == words.TEXTS[lang]["win.off-glass"]

    def idle(w):
        w.advance(60000)

    assert text(page, "said") == said_by_window(lang, idle) == words.say("off", lang)
    keys(page, "5")  # wakes it; not taken as input
    assert text(page, "glass-note") == ""
    assert text(page, "said") == words.say("note.woke.key", lang, key="5")
    page.send("ADVANCE 60000")
    act(page, "down", "C")  # C wakes it: held, it counts nothing down (no new game comes)
    page.send("ADVANCE 500")
    assert bar(page, "C") == 0
    assert text(page, "said") == words.say("note.woke.key", lang, key="C")
    act(page, "up", "C")


# -- the kept games, names in the log -----------------------------------------------------------

def games(page):
    return page.drv.execute_script("""
        return [...document.querySelectorAll('#games li')].map((li) => [
          li.querySelector('.game-head') ? li.querySelector('.game-head').textContent : null,
          [...li.querySelectorAll('.game-who span')].map((s) => s.textContent),
          li.querySelector('.bring-back') ? li.querySelector('.bring-back').textContent
            : li.textContent]);""")


@pytest.mark.parametrize("lang", LANGS)
def test_kept_games_are_brought_back_from_the_panel_as_at_the_unit(page, lang):  # B11
    load(page, lang)
    assert games(page) == [[None, [], words.TEXTS[lang]["win.none-kept"]]]
    page.send("NAME 1 Ann")
    act(page, "in", "L", 1)
    keys(page, "1", "M", "+")  # card 1 receives 1 M: a game worth keeping
    keys(page, "5", "0", "0", "K", "+")
    act(page, "out", "L")
    act(page, "down", "C")
    page.send("ADVANCE 3000")  # a new game puts it away
    act(page, "up", "C")
    kept = json.loads(page.send("GAMES")[-1][3:])
    # By its number, the first game played (B11), the one number a person sees for it: the
    # protocol's id is another; the page's games are not dated.
    assert kept[0]["number"] == 1 != kept[0]["id"] and kept[0]["kept"] is None
    head = words.say("win.game", lang, id=1, profile="world", n=2)
    who = ["Ann 16.5 M"] + ["%d 15 M" % c for c in range(2, 7)]
    assert games(page) == [[head, who, words.TEXTS[lang]["win.bring-back"]]]
    assert words.kept_game(kept[0], {1: "Ann"}, lang) == (head, who)  # the window's words
    button = page.drv.find_element("css selector", "#games .bring-back")
    assert button.size["height"] >= 44
    button.click()  # not in maintenance mode: refused, and said so
    needs = words.say("panel.back-needs", lang)
    assert text(page, "games-said") == needs and text(page, "said") == needs
    assert page.panel()[0][0] == words.grouped(15000000, lang)
    act(page, "down", "DEAL")  # maintenance mode, on the unit's own keypad
    page.send("ADVANCE 3000")
    act(page, "up", "DEAL")
    page.send("EVENTS ON")
    page.drv.find_element("css selector", "#games .bring-back").click()
    back = words.say("panel.back", lang, game=1)  # the number the panel listed it by
    assert text(page, "games-said") == back and text(page, "said") == back
    assert page.panel()[0][0] == words.grouped(16500000, lang)
    # the banker at the unit, as the window's panel: logged "key", never "serial"
    last = json.loads(page.send("LOG 1")[-1][3:])[-1]
    assert (last["kind"], last["via"]) == ("restore", "key"), last
    # in plain words in the panel's log, not "#3 restore bank>bank 0"
    assert page.panel()[1][0] == words.say("txn.restore", lang, seq=last["seq"])
    events = page.drv.find_element("id", "console-out").get_attribute("textContent")
    assert '"kind": "restore"' in events and '"via": "key"' in events
    # the game that was in play (no transactions) is not kept; the one brought back is gone
    assert games(page) == [[None, [], words.TEXTS[lang]["win.none-kept"]]]
    assert page.console_errors() == []


def choose(page, lang):
    """The Language control at the foot of the panel set to lang, as the banker sets it."""
    page.drv.execute_script("const s = document.getElementById('lang'); s.value = arguments[0];"
                            "s.dispatchEvent(new Event('change'));", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lines_already_said_are_said_again_in_the_language_chosen(page, lang):
    other = LANGS[1 - LANGS.index(lang)]
    load(page, lang)
    act(page, "in", "L", 1)
    keys(page, "1", "M", "+")
    act(page, "out", "L")
    act(page, "down", "C")
    page.send("ADVANCE 3000")  # a new game puts the one played away
    act(page, "up", "C")
    # "bring back" out of maintenance mode: refused, under the unit and under the kept games
    page.drv.find_element("css selector", "#games .bring-back").click()
    assert text(page, "games-said") == words.say("panel.back-needs", lang)
    choose(page, other)
    needs = words.say("panel.back-needs", other)
    assert text(page, "games-said") == needs and text(page, "said") == needs
    kept = json.loads(page.send("GAMES")[-1][3:])
    assert games(page)[0][0] == words.kept_game(kept[0], {}, other)[0]
    # the pot's switch refused (not in maintenance mode), beside it and under the unit
    page.drv.find_element("id", "pot").click()
    assert text(page, "pot-said") == words.say("panel.pot-needs", other)
    choose(page, lang)
    needs = words.say("panel.pot-needs", lang)
    assert text(page, "pot-said") == needs and text(page, "said") == needs
    # a card movement refused
    steps = [("in", "L", 1), ("in", "L", 2)]
    for step in steps:
        act(page, *step)
    assert text(page, "said") == window_says(steps, lang)[0]
    choose(page, other)
    assert text(page, "said") == window_says(steps, other)[0]
    # what the unit did by itself: an undo
    keys(page, "1", "0", "0", "K", "+", "C")
    undo = json.loads(page.send("LOG 1")[-1][3:])[-1]
    choose(page, lang)
    assert text(page, "said") == words.say("note.undo", lang, seq=undo["undoes"], amount="100 k",
                                           src=words.who(1, lang=lang),
                                           dst=words.say("bank", lang))
    assert page.console_errors() == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_log_names_the_players_as_the_window_does(page, lang):
    load(page, lang)
    page.send("NAME 1 Ann")
    page.send("NAME 3 Zed <b>")
    act(page, "in", "R", 3)
    act(page, "in", "L", 1)
    keys(page, "5", "0", "0", "K", "-")
    keys(page, "C")
    log = page.panel()[1]
    recs = json.loads(page.send("LOG 2")[-1][3:])
    assert len(recs) == 2
    t = words.TEXTS[lang]
    assert log == ["#2 %s Ann>Zed <b> 500 k%s" % (t["kind.undo"], words.say("txn.undoes", lang,
                                                                            seq=1)),
                   "#1 %s Zed <b>>Ann 500 k" % t["kind.transfer"]]
    page.drv.execute_script("const s = document.getElementById('lang');"
                            "s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
                            "fr" if lang == "en" else "en")
    other = "fr" if lang == "en" else "en"
    assert page.panel()[1][1] == "#1 %s Zed <b>>Ann 500 k" % words.TEXTS[other]["kind.transfer"]


# -- the deal timer ------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_deal_timers_state_is_said(page, lang):  # B13
    load(page, lang, seed=42)
    t = words.TEXTS[lang]
    assert text(page, "deal") == ""
    keys(page, "DEAL")
    assert text(page, "deal") == t["deal.running"]
    seen = [t["deal.running"]]
    for _ in range(70):  # at most 50 s, then 5 s done (B13)
        page.send("ADVANCE 1000")
        shown = text(page, "deal")
        if shown != seen[-1]:
            seen.append(shown)
        if shown == "":
            break
    assert seen == [t["deal.running"], t["deal.ending"], t["deal.done"], ""]


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_names_the_tone_the_deal_and_whose_balance_in_its_language(page, lang):
    # French in French: a tone's name, the deal the rulebooks' "ench\u00e8res", amounts grouped
    # with a narrow no-break space; and with two cards in, whose balance is shown (B3, B6).
    load(page, lang)
    page.send("NAME 3 Ann")
    act(page, "in", "R", 3)
    act(page, "in", "L", 1)
    page.send("ADVANCE 1000")  # the card's number for a second, then a balance (B3)
    assert text(page, "said") == words.say("shows", lang, card=words.who(3, {3: "Ann"}, lang),
                                           amount="15 M")  # the payer's
    keys(page, "5")
    assert text(page, "tone") == "\u266a " + words.tone_name("click", lang)
    assert text(page, "said") == ""  # an entry is shown, not a balance
    keys(page, "0", "0", "K", "-")  # card 3 pays card 1 500 k
    page.send("ADVANCE 1000")  # then the payee's balance (B6)
    assert text(page, "said") == words.say("shows", lang, card=words.who(1, None, lang),
                                           amount="15.5 M")
    assert page.panel()[0][:3] == [words.grouped(b, lang) for b in (15500000, 15000000,
                                                                     14500000)]
    act(page, "out", "L")
    act(page, "out", "R")
    keys(page, "DEAL")
    assert text(page, "deal") == words.TEXTS[lang]["deal.running"]
    if lang == "fr":
        assert page.panel()[0][0] == "15\u202f500\u202f000"
        assert text(page, "deal") == "ench\u00e8res : en cours"
        assert words.tone_name("click", lang) == "clic"
    assert page.console_errors() == []


# -- on a phone ----------------------------------------------------------------------------------

@pytest.mark.parametrize("width,height", [(390, 844), (375, 667), (740, 360)])
def test_the_line_under_the_unit_is_on_the_phones_screen_and_moves_nothing(origin, width,
                                                                           height):
    from browserpage import Page, start_chromium, stop_chromium

    drv = start_chromium(width, height)
    try:
        page = Page(drv, origin, "clock=virtual&seed=1&lang=fr").load()

        def boxes():
            return drv.execute_script("""
                const r = (e) => { const b = e.getBoundingClientRect();
                  return [b.left, b.top, b.right, b.bottom]; };
                return {said: r(document.getElementById('said')),
                        keys: [...document.querySelectorAll('.key')].map(r),
                        cards: [...document.querySelectorAll('.card')].map(r)};""")

        before = boxes()
        act(page, "in", "L", 2)  # the longest sentence: Go twice, in French (B9)
        keys(page, "M", "M")
        assert text(page, "said").startswith("carte 2 a d\u00e9j\u00e0 touch\u00e9")
        after = boxes()
        left, top, right, bottom = after["said"]
        assert left >= 0 and top >= 0 and right <= width and bottom <= height
        # nothing moved for it, and it covers no key or card
        assert after["keys"] == before["keys"]
        for k in after["keys"] + after["cards"]:
            assert k[2] <= left or k[0] >= right or k[3] <= top or k[1] >= bottom, k
        assert page.console_errors() == []
    finally:
        stop_chromium(drv)


# -- names in any language ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_names_in_any_language_on_the_page(page, lang):
    load(page, lang)
    page.drv.execute_script("window.prompt = () => 'Zo\u00eb';")  # the banker types a name
    page.drv.find_elements("css selector", "#balances td.name")[0].click()
    assert page.send("NAMES")[-1].startswith('OK {"1": "Zo\\u00eb", "2": null')
    page.send("NAME 3 \u674e\u96f7")
    act(page, "in", "R", 3)
    act(page, "in", "L", 1)
    keys(page, "5", "0", "0", "K", "-")
    cells = page.drv.execute_script(
        "return [...document.querySelectorAll('#balances td.name')].map((e) => e.textContent);")
    assert cells[0] == "Zo\u00eb" and cells[2] == "\u674e\u96f7"
    assert page.panel()[1] == ["#1 %s \u674e\u96f7>Zo\u00eb 500 k"
                               % words.TEXTS[lang]["kind.transfer"]]
    # 17 characters: refused in a sentence in the page's language, nothing sent, Zoë kept
    page.drv.execute_script("window.prompt = () => arguments[0];"
                            "window.alert = (s) => { window.alerted = s; };", "\u00e9" * 17)
    page.drv.find_elements("css selector", "#balances td.name")[0].click()
    assert page.drv.execute_script("return window.alerted;") == words.say(
        "panel.name-refused", lang, why=words.say("name.long", lang, n=16))
    assert page.send("NAMES")[-1].startswith('OK {"1": "Zo\\u00eb", "2": null')
    page.load()  # kept in the browser as on the unit's flash
    cells = page.drv.execute_script(
        "return [...document.querySelectorAll('#balances td.name')].map((e) => e.textContent);")
    assert cells[0] == "Zo\u00eb" and cells[2] == "\u674e\u96f7"
