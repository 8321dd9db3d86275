"""Game night in the window (B19-B22): the line under the unit, and the large display's, says
the count by the players' names and who wins, the game clock and the pot, in the banker's
language; a bankruptcy says who handed what to whom. The real Tk window on the session's Xvfb,
driven by X events, on a virtual clock."""

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
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


def test_b19_the_winner_is_said_by_name_and_on_the_large_display(win):
    win.name_card(3, "Ann")
    type_keys(win, "plus")  # no card: the count
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
    type_keys(win, "k", "4", "5", "plus", "k")
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
