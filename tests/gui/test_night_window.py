"""Game night in the window (B19-B22): the line under the unit, and the large display's, says
the count by the players' names and who wins, the game clock and the pot, in the banker's
language; a bankruptcy says who handed what to whom; the banker panel's switch turns the pot on
and off as the unit allows. The real Tk window on the session's Xvfb, driven by X events, on a
virtual clock."""

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from brain.ledger import POT
from desktop import words
from tests.gui.hands import advance, settle

tk = pytest.importorskip("tkinter")


def type_keys(w, *syms, state=0):
    for s in syms:
        w.root.event_generate("<KeyPress>", keysym=s, state=state)
        w.root.event_generate("<KeyRelease>", keysym=s, state=state)
        settle(w)


def said(w):
    return w.status_label.cget("text")


def hold_key(w, sym, ms=3000):
    """A key held down ms on the virtual clock, then let go: game night's 3 s holds."""
    w.root.event_generate("<KeyPress>", keysym=sym)
    w.root.update()
    advance(w, ms)
    w.root.event_generate("<KeyRelease>", keysym=sym)
    settle(w)


def test_b19_the_winner_is_said_by_name_and_on_the_large_display(win):
    win.name_card(3, "Ann")
    win.root.event_generate("<KeyPress>", keysym="plus")  # no card: + held 3 s, the count
    win.root.update()
    advance(win, 1000)
    assert said(win).startswith("holding +: the count in 2.0 s")  # counted down as C's is
    advance(win, 2000)
    win.root.event_generate("<KeyRelease>", keysym="plus")
    settle(win)
    assert win.shown()[0] == "Count"
    type_keys(win, "F3")  # card 3 into L
    advance(win, 1000)
    type_keys(win, "9", "m", "plus")
    type_keys(win, "F3")  # out
    type_keys(win, "F5")
    advance(win, 1000)
    type_keys(win, "2", "m", "plus")
    type_keys(win, "F5")
    assert said(win) == ("count: 1. Ann (card 3) 24 M, 2. card 5 17 M; Ann (card 3) wins with "
                         "24 M")
    type_keys(win, "plus")
    assert win.shown()[0] == "1-3"
    win.toggle_large()
    settle(win)
    assert said(win).endswith("Ann (card 3) wins with 24 M")
    words.set_lang("fr")
    win.refresh()
    assert said(win).endswith("Ann (carte 3) gagne avec 24 M")


def test_b20_b21_the_clock_and_a_bankruptcy_are_said(win):
    hold_key(win, "k")  # no clock: K held 3 s, its view
    type_keys(win, "4", "5", "plus", "k")
    assert said(win) == "game clock: 45 min left"
    type_keys(win, "F2", state=1)  # card 2 into R
    type_keys(win, "F6")  # card 6 into L
    win.root.event_generate("<KeyPress>", keysym="minus")
    win.root.update()
    advance(win, 3000)
    win.root.event_generate("<KeyRelease>", keysym="minus")
    settle(win)
    assert win.unit.ledger.bal[2] == 0
    assert said(win) == "card 2 is bankrupt: 15 M to card 6"


def click_switch(w):
    """A click on the banker panel's pot switch, where the window draws it."""
    sw = w.pot_switch
    x, y = sw.winfo_width() // 2, sw.winfo_height() // 2
    sw.event_generate("<Enter>", x=x, y=y)
    sw.event_generate("<ButtonPress-1>", x=x, y=y)
    sw.event_generate("<ButtonRelease-1>", x=x, y=y)
    w.root.update()


def hold_deal(w):
    w.root.event_generate("<KeyPress>", keysym="d")
    w.root.update()
    advance(w, 3000)
    w.root.event_generate("<KeyRelease>", keysym="d")
    settle(w)


def test_b22_the_panels_pot_switch_asks_the_unit_and_says_its_refusals(win):
    type_keys(win, "b")  # the banker panel
    assert win.pot_switch.cget("text") == "Free Parking pot" and not win.pot_var.get()
    click_switch(win)  # in play: the unit refuses, as it does a host's SET POT
    assert said(win) == ("turning the Free Parking pot on or off needs maintenance mode: hold "
                         "DEAL for 3 seconds on the unit, then try again")
    assert not win.pot_var.get() and not win.unit.ledger.pot_on
    hold_deal(win)  # maintenance mode, on the unit's keypad
    click_switch(win)
    assert said(win).startswith("the Free Parking pot is on")
    assert win.pot_var.get() and '"pot": 0' in win.desk.handle("STATE")[-1]
    hold_deal(win)  # back to play
    type_keys(win, "F2", state=1)  # card 2 into R
    advance(win, 1000)
    type_keys(win, "1", "m", "plus")  # 1 M into the pot
    type_keys(win, "F2", state=1)
    assert [lab.cget("text") for lab in win.pot_labels] == ["1,000,000", "1 M"]
    hold_deal(win)
    click_switch(win)  # off, with money in it: refused, said with its amount
    assert said(win) == "the pot holds 1 M: collect it before turning the pot off"
    assert win.pot_var.get() and win.unit.ledger.pot_on
    win.set_lang("fr")
    assert win.pot_switch.cget("text") == "pot du Parc gratuit"
    click_switch(win)
    assert said(win) == "le pot contient 1 M : ramassez-le avant de d\u00e9sactiver le pot"
    assert win.unit.ledger.bal[POT] == 1000000  # nothing moved
    hold_deal(win)
    type_keys(win, "F2")  # card 2 into L, nothing typed, +: the pot collected
    advance(win, 1000)
    type_keys(win, "plus")
    type_keys(win, "F2")
    hold_deal(win)
    click_switch(win)
    assert said(win) == "le pot du Parc gratuit est d\u00e9sactiv\u00e9"
    assert not win.pot_var.get() and '"pot": null' in win.desk.handle("STATE")[-1]
    assert [lab.cget("text") for lab in win.pot_labels] == ["", ""]
