"""The page says every refusal in the window's own sentence (firmware/desktop/words.py, run by
the page's MicroPython): the same unit state, driven the same way on the page in a real
Chromium and on the window's code in CPython, gives the same words, in both languages."""

import pytest
from desktop import words
from windowside import window_says

# (what is done, one step a tuple: ("in", slot, card), ("out", slot), ("key", key)), the code
SCENES = [
    ("overdraft", [("in", "R", 3), ("in", "L", 1), ("key", "2"), ("key", "0"), ("key", "M"),
                   ("key", "-")], "insufficient-funds"),  # B8
    ("go twice", [("in", "L", 2), ("key", "M"), ("key", "M")], "go-taken"),  # B9
    ("full slot", [("in", "L", 1), ("in", "L", 2)], "slot-occupied"),  # B3
    ("above the maximum", [("in", "L", 1), ("key", "2"), ("key", "5"), ("key", "M"),
                           ("key", "+")], "above-maximum"),  # B2
    ("plus with the card in R", [("in", "R", 4), ("key", "1"), ("key", "0"), ("key", "K"),
                                 ("key", "+")], "wrong-slot"),  # B7
]


@pytest.mark.parametrize("lang", words.LANGS)
def test_every_refusal_on_the_page_is_the_windows_sentence(page, lang):
    page.query += "&clock=virtual&seed=1&lang=" + lang
    page.load()
    drv = page.drv
    for name, steps, code in SCENES:
        drv.execute_script("localStorage.clear();")
        page.load()
        for step in steps:
            if step[0] == "key":
                drv.execute_script("bank.act('down', arguments[0]); bank.act('up', arguments[0]);",
                                   step[1])
            else:
                drv.execute_script("bank.act(arguments[0], arguments[1], arguments[2]);",
                                   *step)
        said = drv.find_element("id", "said").text
        want, _ = window_says(steps, lang)
        assert said == want, name
        assert want and "error" not in want and code not in want, name
    # the French is French, the English English
    if lang == "fr":
        assert "carte 3 ne peut pas payer 20 M" in window_says(SCENES[0][1], lang)[0]
    else:
        assert window_says(SCENES[0][1], lang)[0] == "card 3 cannot pay 20 M: it has 15 M"


def test_the_page_speaks_the_browsers_language_and_switches(browser, origin):
    from browserpage import Page, start_chromium, stop_chromium

    drv = start_chromium()  # a browser of its own: its language is set before any page loads
    try:
        drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
            "Object.defineProperty(navigator, 'language', {get: () => 'fr-FR'});")})
        page = Page(drv, origin, "clock=virtual&seed=1")
        page.load()

        def text(el):
            return drv.find_element("id", el).text

        assert drv.execute_script("return document.documentElement.lang;") == "fr"
        assert text("hint") == words.TEXTS["fr"]["page.hint"]
        assert drv.find_element("css selector", "aside h2").text == "Banquier"
        drv.execute_script("bank.act('in', 'L', 2); bank.act('down', 'M'); bank.act('up', 'M');"
                           "bank.act('down', 'M'); bank.act('up', 'M');")  # Go twice (B9)
        assert text("said").startswith("carte 2 a d\u00e9j\u00e0 touch\u00e9 son salaire de "
                                        "D\u00e9part (2 M)")
        assert "D\u00e9part Banque>2 2 M" in text("log")  # the log in French too
        # the control: English, kept for the next load
        drv.execute_script("const s = document.getElementById('lang'); s.value = 'en';"
                           "s.dispatchEvent(new Event('change'));")
        assert text("said").startswith("card 2 has had its Go salary (2 M) on this insertion")
        assert text("hint") == words.TEXTS["en"]["page.hint"]
        assert "go bank>2 2 M" in text("log")
        page.load()
        assert drv.execute_script("return document.documentElement.lang;") == "en"
        assert drv.find_element("css selector", "aside h2").text == "Banker"
        assert page.console_errors() == []
    finally:
        stop_chromium(drv)
