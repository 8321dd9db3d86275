"""The window speaks English and French (firmware/desktop/words.py): the refusal under the unit,
the notes, the labels, the banker panel's log; F12 or the language button switches, and
`--lang` or the system's language chooses at the start. The real Tk window on Xvfb."""

import pytest

from desktop import words

from test_table import advance, said, type_keys

OVERDRAFT = {"en": "card 3 cannot pay 20 M: it has 14.5 M",
             "fr": "carte 3 ne peut pas payer 20 M : elle n'a que 14.5 M"}


def overdraft(win):  # B8
    type_keys(win, "F3", state=1)  # card 3 into R
    type_keys(win, "F1")  # card 1 into L
    type_keys(win, "5", "0", "0", "k", "minus")
    type_keys(win, "2", "0", "m", "minus")


@pytest.mark.parametrize("lang", words.LANGS)
def test_a_refusal_and_the_labels_in_each_language(win, lang):
    win.set_lang(lang)
    overdraft(win)
    assert said(win) == OVERDRAFT[lang]
    assert win.help.cget("text") == words.TEXTS[lang]["win.help"]
    assert win.panel_button.cget("text") == words.TEXTS[lang]["win.panel"]
    win.toggle_panel()
    advance(win, 3000)
    log = win.log_text.get("1.0", "end")
    assert ("virement 3>1 500 k" if lang == "fr" else "transfer 3>1 500 k") in log
    type_keys(win, "c")  # C: the entry cleared; C again reverses the transfer (B10)
    type_keys(win, "c")
    assert said(win) == {"en": "C reversed #1: 500 k back from card 1 to card 3",
                         "fr": "C a annul\u00e9 n\u00b01 : 500 k rendu de carte 1 \u00e0 "
                               "carte 3"}[lang]


def test_f12_and_the_button_switch_the_language(win):
    overdraft(win)
    assert said(win) == OVERDRAFT["en"]
    type_keys(win, "F12")
    assert said(win) == OVERDRAFT["fr"]  # the same refusal, said again in French
    assert win.lang_button.cget("text") == "EN"  # what it switches to
    assert win.canvas.itemcget(win.canvas.find_withtag("maintenance")[0], "text") == ""
    win.lang_button.invoke()
    assert said(win) == OVERDRAFT["en"]
    assert win.lang_button.cget("text") == "FR"


@pytest.mark.parametrize("lang", words.LANGS)
def test_the_drawn_labels_fit_the_unit_in_each_language(win, lang):
    from simulator.window.layout import W

    win.set_lang(lang)
    win.root.update()
    c = win.canvas
    body = c.bbox("body")
    for item in c.find_all():
        if c.type(item) == "text" and c.itemcget(item, "text").strip():
            x0, _, x1, _ = c.bbox(item)
            assert x0 >= 0 and x1 <= max(body[2], W * win.scale), c.itemcget(item, "text")
    assert c.itemcget(c.find_withtag("slot")[0], "fill")  # the slots drawn
