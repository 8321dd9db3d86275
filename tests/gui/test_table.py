"""At the table: the window says every state in plain words, scales with its window,
has a large-display mode, and a banker panel with the players' names, a log filtered by player
and the previous games. The real Tk window on the session's Xvfb, driven by X events, read back
from what it draws (the canvas, the labels), on a virtual clock."""

import json
import re
import time

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from tests.gui.hands import advance, settle
from simulator.window import layout
from protocol.extensions import MAINTENANCE_REQUIRED

tk = pytest.importorskip("tkinter")


def type_keys(w, *syms, state=0):
    # Each key settles: a release and the next press of the same key at once is X autorepeat.
    for s in syms:
        w.root.event_generate("<KeyPress>", keysym=s, state=state)
        w.root.event_generate("<KeyRelease>", keysym=s, state=state)
        settle(w)


def said(w):
    return w.status_label.cget("text")


def test_a_digit_typed_twice_quickly_counts_twice_and_an_autorepeat_once(win):  # B2
    type_keys(win, "F1")  # card 1 into L
    at = [1000]

    def x_event(kind, sym, ms):  # as X stamps it: the server's time, in ms
        at[0] += ms
        win.root.event_generate(kind, keysym=sym, time=at[0])

    for sym in ("1", "0"):
        x_event("<KeyPress>", sym, 0)
        x_event("<KeyRelease>", sym, 40)
    x_event("<KeyPress>", "0", 20)  # 20 ms after 0 went up: typed again, within the grace
    x_event("<KeyRelease>", "0", 40)
    settle(win)
    assert win.unit.entry == "100"
    x_event("<KeyPress>", "5", 20)
    for _ in range(5):  # held: X sends a release and a press at one time, every 30 ms
        x_event("<KeyRelease>", "5", 30)
        x_event("<KeyPress>", "5", 0)
    x_event("<KeyRelease>", "5", 30)
    settle(win)
    assert win.unit.entry == "1005"


# -- every state in plain words ------------------------------------------------------------------
def test_an_overdraft_is_explained_in_a_sentence(win):  # B8
    type_keys(win, "F3", state=1)  # card 3 into R
    type_keys(win, "F1")  # card 1 into L
    type_keys(win, "5", "0", "0", "k", "minus")  # 3 pays 1 500k: 3 has 14.5 M
    type_keys(win, "2", "0", "m", "minus")
    assert win.shown()[:3] == ("Err1", False, False)
    assert said(win) == "card 3 cannot pay 20 M: it has 14.5 M"
    advance(win, 1000)
    assert said(win) == "card 3 cannot pay 20 M: it has 14.5 M"  # until the next input
    type_keys(win, "c")
    assert said(win) == "card 3: 14.5 M"  # whose balance it shows, with both cards in


def test_refused_entries_and_go_twice_are_explained(win):  # B2, B9
    type_keys(win, "F2")
    type_keys(win, "5", "k", "plus")
    assert said(win) == "5 K is below the smallest amount at one time, 10 k"
    type_keys(win, "c", "2", "5", "m", "plus")
    assert said(win).startswith("25 M is above the largest amount at one time, 20 M")
    type_keys(win, "c", "m", "m")
    assert said(win).startswith("card 2 has had its Go salary (2 M) on this insertion")


def test_a_card_into_a_full_slot_is_explained(win):  # B3
    type_keys(win, "F4", state=1)
    type_keys(win, "5", state=0x4)  # Ctrl+5: card 5 into R, which holds card 4
    assert said(win) == "slot R holds card 4 already: take it out first"


def test_undo_gets_a_line_of_its_own(win):  # B10
    type_keys(win, "F1")
    type_keys(win, "1", "0", "0", "k", "plus")
    type_keys(win, "c")
    assert win.unit.ledger.bal[1] == 15000000
    assert said(win) == "C reversed #1: 100 k back from card 1 to the bank"


def test_holding_c_counts_down_to_the_new_game(win):  # B11
    win.root.event_generate("<KeyPress>", keysym="c")
    win.root.update()
    advance(win, 1000)
    assert said(win) == ("holding C: a new game in 2.0 s, every card back to the start; "
                         "let go now for a plain C")
    bar = win.canvas.coords(win.hold_bar)
    assert win.canvas.itemcget(win.hold_bar, "state") == "normal"
    x0, _y0, x1, _y1 = layout.key_rects()["C"]
    # A third of the way along the key, as large as the unit is drawn.
    assert bar[2] - bar[0] == pytest.approx((x1 - x0 - 12) / 3 * win.scale, abs=1)
    advance(win, 2000)
    assert said(win).startswith("a new game: every card back to 15 M")
    win.root.event_generate("<KeyRelease>", keysym="c")
    settle(win)
    assert win.canvas.itemcget(win.hold_bar, "state") == "hidden"


def test_holding_deal_shows_maintenance_coming_and_then_labels_it(win):
    win.root.event_generate("<KeyPress>", keysym="d")
    win.root.update()
    advance(win, 1500)
    assert said(win).startswith("holding DEAL: maintenance mode on in 1.5 s")
    advance(win, 1500)
    win.root.event_generate("<KeyRelease>", keysym="d")
    settle(win)
    assert win.unit.maintenance
    assert win.canvas.itemcget(win.maint_item, "text") == "MAINTENANCE"  # not just a green light
    assert said(win).startswith("maintenance mode: the banker may bring a game back or set a "
                                "balance")


def test_switched_off_and_the_swallowed_key_are_said(win):  # B16
    advance(win, 60000)
    assert win.canvas.itemcget(win.off_item, "text") == "switched off: a key or a card wakes it"
    assert said(win).startswith("switched itself off after a minute without use")
    type_keys(win, "5")
    assert win.unit.entry == ""  # the waking key is not input
    assert said(win) == "the unit was switched off: that key 5 only woke it; press it again"
    type_keys(win, "5")
    assert win.unit.entry == "5" and said(win) == ""


def test_c_that_wakes_the_unit_counts_nothing_down(win):  # B16, B11
    # The waking key is not input: held, it starts no new game, so no countdown says one comes.
    advance(win, 60000)
    win.root.event_generate("<KeyPress>", keysym="c")
    win.root.update()
    advance(win, 1000)
    assert said(win) == "the unit was switched off: that key C only woke it; press it again"
    assert win.canvas.itemcget(win.hold_bar, "state") == "hidden"
    win.root.event_generate("<KeyRelease>", keysym="c")
    settle(win)



def test_no_sentence_the_window_says_names_a_rule(win):
    # Rule ids are for the docs and the tests; a player reads the sentence alone.
    seen = []
    type_keys(win, "F1")
    type_keys(win, "1", "0", "0", "k", "plus")
    type_keys(win, "c")  # an undo (B10)
    seen.append(said(win))
    win.root.event_generate("<KeyPress>", keysym="c")
    win.root.update()
    advance(win, 1000)
    seen.append(said(win))  # the countdown (B11)
    advance(win, 2000)
    seen.append(said(win))  # the new game
    win.root.event_generate("<KeyRelease>", keysym="c")
    settle(win)
    type_keys(win, "5", "k", "plus")
    seen.append(said(win))  # a refusal (B2)
    type_keys(win, "c")
    win.root.event_generate("<KeyPress>", keysym="d")
    win.root.update()
    advance(win, 3000)
    win.root.event_generate("<KeyRelease>", keysym="d")
    settle(win)
    seen.append(said(win))  # maintenance mode
    kept = json.loads(win.desk.handle("GAMES")[-1][3:])
    assert win.restore_game(kept[0])  # the game before the new one (B11)
    seen.append(said(win))
    advance(win, 60000)
    seen.append(said(win))  # switched off (B16)
    type_keys(win, "5")
    seen.append(said(win))
    assert all(seen), seen
    assert [s for s in seen if re.search(r"\bB\d+\b", s)] == []


# -- readable across a table ----------------------------------------------------------------------
def key_centre_on_screen(w, key):
    """Where the drawn key is now, from the canvas (not from the layout constants)."""
    x0, y0, x1, y1 = w.canvas.bbox("key-" + key)
    return (x0 + x1) // 2, (y0 + y1) // 2


def test_the_window_resizes_and_everything_scales(win):
    c = win.canvas
    small_font = tk.font.Font(font=c.itemcget(win.ann_items["M"], "font")).actual("size")
    box = c.bbox("key-5")
    was = win.scale
    win.root.geometry("%dx%d" % (layout.W * 3 // 2, layout.H * 3 // 2 + 160))
    win.root.update()
    assert win.scale == pytest.approx(1.5, abs=0.05)
    big_box = c.bbox("key-5")
    # The key grew by its width times the growth of the scale (its outline's pixels aside).
    kx0, _ky0, kx1, _ky1 = layout.key_rects()["5"]
    grew = (big_box[2] - big_box[0]) - (box[2] - box[0])
    assert grew == pytest.approx((kx1 - kx0) * (win.scale - was), abs=3)
    big_font = tk.font.Font(font=c.itemcget(win.ann_items["M"], "font")).actual("size")
    assert abs(big_font) > abs(small_font) * 1.3  # the text grows with the drawing
    # A click where the key is drawn now still presses it; the display reads back as before.
    for key in ("F1",):
        type_keys(win, key)
    for key in ("1", "0", "0", "K", "+"):
        x, y = key_centre_on_screen(win, key)
        c.event_generate("<ButtonPress-1>", x=x, y=y)
        c.event_generate("<ButtonRelease-1>", x=x, y=y)
        win.root.update()
    assert win.shown()[:3] == ("15.1", False, True)
    win.root.geometry("%dx%d" % (layout.W * 3 // 4, layout.H * 3 // 4 + 160))
    win.root.update()
    assert win.scale == pytest.approx(0.75, abs=0.05)
    assert win.card_shown_at(1) == "L"
    x0, y0, x1, y1 = c.bbox(win.card_items[1])
    assert y1 < win.to_canvas(0, layout.SLOT_Y + 30)[1]  # drawn in the slot at the new size


def test_the_window_at_its_least_size_shows_every_key_and_card(win):
    for panel in (False, True):
        if panel:
            type_keys(win, "b")  # the banker panel beside the unit
        win.root.geometry("%dx%d" % win.root.minsize())  # as small as a window manager allows
        win.root.update()
        bottom = win.canvas.winfo_height()
        right = win.canvas.winfo_width()
        for tag in ["key-" + k for k in layout.key_rects()] + [win.card_items[1]]:
            x0, y0, x1, y1 = win.canvas.bbox(tag)
            assert 0 <= x0 and x1 <= right and 0 <= y0 and y1 <= bottom, (panel, tag)


def test_large_display_mode_fills_the_window(win):
    type_keys(win, "F1")
    advance(win, 1000)
    was = win.scale
    type_keys(win, "F11")
    assert win.large and win.big.winfo_ismapped() and not win.canvas.winfo_ismapped()
    assert win.big_shown() == ("15", False, True, True)
    x0, _y0, x1, _y1 = win.big.bbox("big-glass")
    assert x1 - x0 > 0.85 * win.big.winfo_width()  # the display fills most of the window
    glass_w = layout.DISPLAY[2] - layout.DISPLAY[0]
    assert x1 - x0 > glass_w * was  # and is bigger than on the whole unit
    type_keys(win, "1", "6", "m", "minus")  # card 1 is in L: '-' is refused (B7)
    assert "needs the paying card in the right slot R" in win.big.itemcget(
        win.big.find_withtag("big-message")[0], "text")
    type_keys(win, "F11")
    assert not win.large and win.canvas.winfo_ismapped()


# -- the banker panel -----------------------------------------------------------------------------
def name_in_panel(w, card, text):
    ent = w.name_entries[card]
    ent.focus_force()
    w.root.update()
    ent.event_generate("<KeyPress>", keysym="5")  # typed into the entry, not on the unit
    ent.event_generate("<KeyRelease>", keysym="5")
    settle(w)
    ent.delete(0, "end")
    ent.insert(0, text)
    ent.event_generate("<Return>")
    w.root.update()


def test_the_banker_names_the_cards(win):
    type_keys(win, "b")
    name_in_panel(win, 1, "Ann")
    name_in_panel(win, 2, "Bob")
    assert win.unit.entry == ""  # typing a name presses no key on the unit
    assert win.desk.handle("NAMES")[-1].startswith('OK {"1": "Ann", "2": "Bob", "3": null')
    type_keys(win, "F1")
    type_keys(win, "F2", state=1)
    type_keys(win, "2", "5", "0", "k", "minus")  # Bob pays Ann
    log = win.log_text.get("1.0", "end")
    assert "#1 transfer Bob>Ann 250 k" in log
    type_keys(win, "1", "6", "m", "minus")
    assert said(win) == "Bob (card 2) cannot pay 16 M: it has 14.75 M"
    assert win.unit.display()[0] == "Err1"  # the unit's own display stays digits


def test_names_in_any_language_in_the_panel_and_the_log(win):
    type_keys(win, "b")
    name_in_panel(win, 1, "Zo\u00eb")
    name_in_panel(win, 2, "\u674e\u96f7")
    assert said(win) == "card 2 is \u674e\u96f7"
    assert win.desk.handle("NAMES")[-1].startswith(
        'OK {"1": "Zo\\u00eb", "2": "\\u674e\\u96f7", "3": null')
    type_keys(win, "F1")
    type_keys(win, "F2", state=1)
    type_keys(win, "2", "5", "0", "k", "minus")
    assert "#1 transfer \u674e\u96f7>Zo\u00eb 250 k" in win.log_text.get("1.0", "end")
    assert win.name_entries[1].get() == "Zo\u00eb"
    # 17 characters: refused in a sentence, and the name before is kept
    name_in_panel(win, 1, "Bartholom\u00e9e-Zo\u00eb!!")
    assert said(win) == "the name was not kept: a name is at most 16 characters"
    # what was typed stays in its field to be mended, the keyboard still there; Escape gives up
    assert win.name_entries[1].get() == "Bartholom\u00e9e-Zo\u00eb!!"
    assert win.root.focus_get() is win.name_entries[1]
    win.name_entries[1].event_generate("<Escape>")
    win.root.update()
    assert win.name_entries[1].get() == "Zo\u00eb"
    name_in_panel(win, 1, "Zo\u00eb\u202eX")  # a direction override: a control character
    assert said(win).startswith("the name was not kept: a name cannot hold control characters")
    assert win.desk.handle("NAMES")[-1].startswith('OK {"1": "Zo\\u00eb", ')
    assert win.unit.display()[0] != "Zo\u00eb"  # the unit's own display stays digits


def test_the_log_filtered_by_player(win):
    type_keys(win, "b")
    for card in (1, 2, 3):
        type_keys(win, "F%d" % card)
        type_keys(win, "m")  # Go for each
        type_keys(win, "F%d" % card)
    name_in_panel(win, 2, "Cy")
    win.filter_menu["menu"].invoke(2)
    win.root.update()
    lines = win.log_text.get("1.0", "end").split("\n")
    assert [x for x in lines if x] == ["#2 go bank>Cy 2 M"]
    assert win.filter_var.get() == "Cy (card 2)"
    win.filter_menu["menu"].invoke(0)
    win.root.update()
    assert len([x for x in win.log_text.get("1.0", "end").split("\n") if x]) == 3


class FakeDesk:
    """The protocol as the unit answers it, with these games kept."""

    def __init__(self, real, games):
        self.real = real
        self.games = games
        self.sent = []

    def handle(self, line):
        self.sent.append(line)
        if line == "GAMES":
            return ["OK " + json.dumps(self.games)]
        if line.startswith("RESTORE GAME"):
            return [MAINTENANCE_REQUIRED]
        return self.real.handle(line)


class RefusingDesk(FakeDesk):
    """The protocol with a kept game the file system fails to read (B17: no damage)."""

    def handle(self, line):
        if line == "GAMES":
            return ["ERR store-failed game 2 could not be read"]
        return self.real.handle(line)


def test_previous_games_the_unit_cannot_list_say_why(win):  # B11
    # The refusal's line was taken for the list, and each of its characters drawn as a game.
    win.desk = RefusingDesk(win.desk, [])
    type_keys(win, "b")
    win.root.update()
    assert games_text(win) == ["ERR store-failed game 2 could not be read"]


def games_text(w):
    out = []
    for row in w.games_frame.winfo_children():
        for child in row.winfo_children() or [row]:
            out.append(child.cget("text"))
    return out


def test_previous_games_listed_when_the_unit_has_them(win):
    win.desk = FakeDesk(win.desk, [
        {"id": 12, "profile": "world", "seq": 40, "transactions": 38,
         "balances": {"1": 21000000, "2": 9500000, "3": 0, "4": 15000000, "5": 15000000,
                      "6": 14500000}},
        {"id": 9, "profile": "classic", "seq": 3, "transactions": None,
         "balances": {"1": 1500, "2": 1700, "3": 1300, "4": 1500, "5": 1500, "6": 1500}}])
    type_keys(win, "b")
    name_in_panel(win, 1, "Ann")
    text = games_text(win)
    # As many players to a line as fit the panel's column: the panel never widens the window.
    assert text[0] == ("game 12 (world), 38 transactions\n"
                       "Ann 21 M  2 9.5 M  3 0  4 15 M\n"
                       "5 15 M  6 14.5 M")
    assert text[1] == "bring back"
    assert text[2].startswith("game 9 (classic), transactions unknown\nAnn 1500  2 1700")
    row = win.games_frame.winfo_children()[0]
    [b for b in row.winfo_children() if b.cget("text") == "bring back"][0].invoke()
    assert "RESTORE GAME 12" in win.desk.sent
    assert said(win).startswith("bringing a game back needs maintenance mode")


def test_previous_games_by_number_when_put_away_and_the_damaged(win):  # B11, B17
    kept = 1796135625
    win.desk = FakeDesk(win.desk, [
        {"id": 40, "profile": "world", "seq": 40, "transactions": 12,
         "balances": {str(c): 15000000 for c in range(1, 7)}, "number": 2, "kept": kept,
         "damaged": False},
        {"id": 9, "profile": None, "seq": 9, "transactions": None, "balances": None,
         "number": 1, "kept": None, "damaged": True}])
    type_keys(win, "b")
    text = games_text(win)
    assert text[0].startswith("game 2 (world), 12 transactions, put away " + time.strftime(
        "%d %b %H:%M", time.localtime(kept)) + "\n")
    assert text[2] == "game 1: damaged in the unit's memory\ncannot be brought back"


def test_with_no_good_copy_of_the_game_the_panel_shows_no_balance(xdisplay, tmp_path):  # B17
    import os
    import subprocess
    import sys

    from simulator import frontend, options
    from simulator.host import Host
    from simulator.window import app

    state = str(tmp_path / "game")
    subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio", "--state", state],
                   input="INSERT L 6\nKEY 1 0 0 K +\n", text=True, capture_output=True,
                   timeout=30, check=True, cwd=os.path.dirname(os.path.dirname(
                       os.path.dirname(os.path.abspath(__file__)))))
    for name in ("bank.a", "bank.b"):  # every slot's header: no good copy left
        path = os.path.join(state, name)
        if os.path.exists(path):
            with open(path, "r+b") as f:
                f.seek(12)
                b = f.read(1)
                f.seek(12)
                f.write(bytes([b[0] ^ 0x10]))
    host = Host(options.parse(["--virtual-clock", "--state", state]))
    w = app.Window(host, root=tk.Tk(), sound=frontend.Sound(None), panel=True)
    try:
        w.root.update()
        assert w.shown()[0] == "Err6"
        shown = [w.bal_labels[n][0].cget("text") for n in range(1, 7)]
        assert shown == ["\u2014"] * 6  # no balance invented, not 0 (B17)
    finally:
        w.close()
        host.lock.close()


def hold_key(w, sym, ms):
    w.root.event_generate("<KeyPress>", keysym=sym)
    w.root.update()
    advance(w, ms)
    w.root.event_generate("<KeyRelease>", keysym=sym)
    settle(w)


def test_a_game_brought_back_from_the_panel_is_logged_as_made_at_the_unit(win):
    # The panel's "bring back" is the banker at the unit, in maintenance mode entered on its own
    # keypad: its restore is logged "via": "key", as the keypad's changes are, not "serial" as
    # a host's RESTORE over the port is (docs/protocol.md); a host following the events sees it.
    from protocol import Protocol

    host = Protocol(win.unit, win.host.clock)  # a host tool connected to the window
    assert host.handle("EVENTS ON")[-1] == "OK"
    type_keys(win, "F1")
    type_keys(win, "1", "m", "plus")  # card 1 receives 1 M: a game worth keeping
    hold_key(win, "c", 3000)  # a new game puts it away (B11)
    hold_key(win, "d", 3000)  # maintenance mode, on the unit's own keypad
    assert win.unit.maintenance and win.unit.ledger.bal[1] == 15000000
    type_keys(win, "b")
    row = win.games_frame.winfo_children()[0]
    [b for b in row.winfo_children() if b.cget("text") == "bring back"][0].invoke()
    assert said(win).endswith(" is back"), said(win)
    assert win.unit.ledger.bal[1] == 16000000
    events = [json.loads(e[6:]) for e in host.drain() if e.startswith("! txn ")]
    assert (events[-1]["kind"], events[-1]["via"]) == ("restore", "key"), events
    last = json.loads(host.handle("LOG 1")[-1][3:])[-1]
    assert (last["kind"], last["via"]) == ("restore", "key"), last


def test_a_game_brought_back_is_said_by_the_number_the_panel_lists_it_by(win):  # B11
    # One number a person sees for a kept game: the panel lists "game 1", and bringing it back
    # says "game 1 is back", not the protocol's id for it (GAMES' `id`, here another number).
    type_keys(win, "F1")
    for keys in (("1", "m", "plus"), ("2", "m", "plus"), ("5", "0", "0", "k", "plus")):
        type_keys(win, *keys)
    type_keys(win, "F1")
    hold_key(win, "c", 3000)  # a new game puts it away
    hold_key(win, "d", 3000)  # maintenance mode, on the unit's own keypad
    type_keys(win, "b")
    (kept,) = json.loads(win.desk.handle("GAMES")[-1][3:])
    assert kept["id"] != kept["number"] == 1
    assert games_text(win)[0].startswith("game 1 (world), 3 transactions\n")
    row = win.games_frame.winfo_children()[0]
    [b for b in row.winfo_children() if b.cget("text") == "bring back"][0].invoke()
    assert said(win) == "game 1 is back"
    assert win.unit.ledger.bal[1] == 18500000


# -- the words a newcomer reads -------------------------------------------------------------------
def test_with_two_cards_in_the_line_says_whose_balance_is_shown(win):  # B3, B6
    win.desk.handle("NAME 3 Ann")
    win.read_names()
    type_keys(win, "F3", state=1)  # card 3 into R: the payer
    type_keys(win, "F1")  # card 1 into L
    advance(win, 1000)  # the card's number for a second, then a balance (B3)
    assert win.shown()[:3] == ("15", False, True)
    assert said(win) == "Ann (card 3): 15 M"
    type_keys(win, "5")
    assert said(win) == ""  # the entry is shown, not a balance
    type_keys(win, "0", "0", "k", "minus")  # Ann pays card 1 500 k
    assert said(win) == "Ann (card 3): 14.5 M"
    advance(win, 1000)  # then the payee's (B6)
    assert win.shown()[:3] == ("15.5", False, True) and said(win) == "card 1: 15.5 M"
    type_keys(win, "F1")  # one card: the display says it all
    assert said(win) == ""


def log_lines(w):
    return w.log_text.get("1.0", "end").strip().splitlines()


def test_a_restore_is_logged_in_plain_words_and_maintenance_in_a_banker_s(win):
    type_keys(win, "F1")
    type_keys(win, "1", "m", "plus")
    type_keys(win, "F1")
    hold_key(win, "c", 3000)
    hold_key(win, "d", 3000)  # maintenance mode, on the unit's own keypad
    assert said(win) == ("maintenance mode: the banker may bring a game back or set a balance; "
                         "hold DEAL 3 s to play again")
    type_keys(win, "b")
    row = win.games_frame.winfo_children()[0]
    [b for b in row.winfo_children() if b.cget("text") == "bring back"][0].invoke()
    seq = win.unit.ledger.seq
    assert log_lines(win)[0] == "#%d a previous game brought back" % seq
    assert "bank>bank" not in "\n".join(log_lines(win))


def test_the_french_window_says_the_french_rulebooks_words(win):
    type_keys(win, "F12")  # français
    deal_key = win.canvas.find_withtag("keytext")
    labels = {win.canvas.itemcget(i, "text") for i in deal_key}
    assert "DEAL  (ench\u00e8res)" in labels and "DEAL  (handshake)" not in labels
    type_keys(win, "5")
    assert win.canvas.itemcget(win.tone_item, "text") == "\u266a clic"
    type_keys(win, "c")
    type_keys(win, "d")  # a tap: the deal timer (B13)
    assert win.canvas.itemcget(win.deal_item, "text") == "ench\u00e8res : en cours"
    win.root.event_generate("<KeyPress>", keysym="d")
    win.root.update()
    advance(win, 1000)
    assert said(win).endswith("pour lancer seulement le minuteur des ench\u00e8res")
    assert "distribution" not in said(win) and "2,0 s" in said(win)
    win.root.event_generate("<KeyRelease>", keysym="d")
    settle(win)
    type_keys(win, "b")
    lab, _short = win.bal_labels[1]
    assert lab.cget("text") == "15\u202f000\u202f000"  # grouped as French groups digits
    type_keys(win, "F12")  # English again: the key's name said again
    labels = {win.canvas.itemcget(i, "text") for i in win.canvas.find_withtag("keytext")}
    assert "DEAL  (handshake)" in labels
    assert win.bal_labels[1][0].cget("text") == "15,000,000"

