"""The window, in this process, on the session's Xvfb: keys clicked and typed, cards dragged
and clicked into slots, and the display read back from the canvas's drawn segments (their
colours), never from the unit. A virtual clock lets 3-second holds and 50-second deals pass at
once; test_live.py runs the real program on a real clock."""

import shutil
import subprocess
import time

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from tests.gui.hands import advance, click, settle
from tests.waits import wait_for
from simulator import frontend, options
from simulator.host import Host
from simulator.window import layout

tk = pytest.importorskip("tkinter")


def type_keys(w, *syms, state=0):
    for s in syms:
        w.root.event_generate("<KeyPress>", keysym=s, state=state)
        w.root.event_generate("<KeyRelease>", keysym=s, state=state)
    settle(w)


def card_centre(w, n):
    x, y = w.card_at[n]
    return w.to_canvas(x + layout.CARD_W / 2, y + layout.CARD_H / 2)


def drag(w, n, slot):
    x, y = card_centre(w, n)
    x0, x1 = layout.SLOTS_X[slot]
    tx, ty = w.to_canvas((x0 + x1) / 2, layout.SLOT_Y + 10)
    c = w.canvas
    c.event_generate("<ButtonPress-1>", x=x, y=y)
    for i in range(1, 11):
        c.event_generate("<B1-Motion>", x=x + (tx - x) * i // 10, y=y + (ty - y) * i // 10)
    c.event_generate("<ButtonRelease-1>", x=tx, y=ty)
    w.root.update()


def click_card_then_slot(w, n, slot):
    x, y = card_centre(w, n)
    w.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
    w.canvas.event_generate("<ButtonRelease-1>", x=x, y=y)
    x0, x1 = layout.SLOTS_X[slot]
    x, y = w.to_canvas((x0 + x1) / 2, layout.SLOT_Y)
    w.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
    w.canvas.event_generate("<ButtonRelease-1>", x=x, y=y)
    w.root.update()


def test_boot_shows_zero_tally_and_lit_glass(win):
    assert win.shown() == ("0", False, False, True)


def test_receive_by_mouse_b4(win):
    # Card 1 dragged into L, 150K + clicked: 15,150,000 shows as 15.15 with M (B1, B3, B4).
    drag(win, 1, "L")
    assert win.card_shown_at(1) == "L"
    assert win.unit.slots["L"] == 1
    assert win.shown()[:3] == ("1", False, False)  # the card's number first (B3)
    advance(win, 1000)
    assert win.shown()[:3] == ("15", False, True)
    for k in ("1", "5", "0", "K"):
        click(win, k)
    assert win.shown()[:3] == ("150", True, False)  # the entry as typed, k lit (B2)
    click(win, "+")
    assert win.shown()[:3] == ("15.15", False, True)
    assert win.session.tones_heard[-1] == "money-in"
    assert win.canvas.itemcget(win.tone_item, "text").endswith("money-in")  # shown, B18


def test_transfer_by_keyboard_b6(win):
    # F2 puts card 2 in L, Shift+F3 card 3 in R; 2.5M typed, '-' pays 3 -> 2.
    type_keys(win, "F2")
    type_keys(win, "F3", state=1)
    assert (win.card_shown_at(2), win.card_shown_at(3)) == ("L", "R")
    type_keys(win, "2", "period", "5", "m", "minus")
    assert win.shown()[:3] == ("12.5", False, True)  # the payer's new balance (B6)
    advance(win, 1000)
    assert win.shown()[:3] == ("17.5", False, True)  # then the payee's
    type_keys(win, "F3", state=1)  # out again
    assert win.card_shown_at(3) is None and win.unit.slots["R"] is None


def test_click_card_then_slot_and_ctrl_digit(win):
    click_card_then_slot(win, 4, "R")
    assert win.card_shown_at(4) == "R"
    type_keys(win, "5", state=0x4)  # Ctrl+5: card 5 into R, which is full
    assert win.unit.slots["R"] == 4
    assert "holds card 4" in win.status_label.cget("text")
    # A click on the card sticking out of the slot takes it out.
    x, y = win.to_canvas(*win.card_at[4])
    win.canvas.event_generate("<ButtonPress-1>", x=x + 10, y=y + 10)
    win.canvas.event_generate("<ButtonRelease-1>", x=x + 10, y=y + 10)
    win.root.update()
    assert win.card_shown_at(4) is None and win.unit.slots["R"] is None


def test_overdraft_refused_says_so_b8(win):
    type_keys(win, "F6", state=1)
    advance(win, 1000)
    type_keys(win, "2", "0", "m", "minus", "2", "0", "m")
    # 20M, then a second 20M typed: B2 refuses the key after the first suffix; C clears.
    type_keys(win, "c")
    type_keys(win, "1", "6", "m", "minus")  # 16M is more than 15M (no overdraft)
    assert win.shown()[:3] == ("Err1", False, False)
    assert win.unit.ledger.bal[6] == 15000000


def test_hold_c_three_seconds_is_a_new_game_b11(win):
    type_keys(win, "F1")
    type_keys(win, "5", "0", "k", "plus")
    assert win.unit.ledger.bal[1] == 15050000
    win.root.event_generate("<KeyPress>", keysym="c")
    win.root.update()
    advance(win, 1500)
    # X autorepeat: a release and a press at once, repeatedly; the key never went up.
    for _ in range(3):
        win.root.event_generate("<KeyRelease>", keysym="c")
        win.root.event_generate("<KeyPress>", keysym="c")
        win.root.update()
    advance(win, 1500)
    assert win.session.tones_heard[-1] == "new-game"
    win.root.event_generate("<KeyRelease>", keysym="c")
    settle(win)
    assert win.unit.ledger.bal[1] == 15000000
    assert win.shown()[:3] == ("15", False, True)


def test_deal_held_on_the_keyboard_toggles_maintenance_and_starts_no_deal_b13(win):
    # X autorepeat sends a release and a press at once, 25 times a second; a timer of the
    # window's falling due between the two (its hold countdown, the red light) is no release.
    for turn in (True, False):
        win.root.event_generate("<KeyPress>", keysym="d")
        win.root.update()
        for _ in range(8):
            advance(win, 400)
            win.root.event_generate("<KeyRelease>", keysym="d")
            win._wake()  # the timer due between the repeat's release and its press
            win.root.event_generate("<KeyPress>", keysym="d")
            win.root.update()
        win.root.event_generate("<KeyRelease>", keysym="d")
        settle(win)
        assert win.unit.maintenance is turn
        assert win.unit.deal_phase() == "idle"


def test_short_c_by_mouse_undoes_b10(win):
    drag(win, 1, "L")
    for k in ("1", "0", "0", "K", "+"):
        click(win, k)
    assert win.shown()[:3] == ("15.1", False, True)
    click(win, "C")
    assert win.shown()[:3] == ("15", False, True)


def test_deal_lights_and_volume_b12_b13(win):
    type_keys(win, "period")  # no card, no entry: volume 2 -> 1, shown for a second
    assert win.shown()[:3] == ("1", False, False)
    assert win.unit.ledger.volume == 1
    assert win.canvas.itemcget(win.vol_items[1], "outline") == layout.BODY  # one bar left
    click(win, "DEAL")
    assert win.unit.deal_phase() == "running"
    seen = set()
    for _ in range(8):
        advance(win, 250)
        seen.add(win.light_shown("red"))
    assert seen == {True, False}  # the red light flashes (lights.lit, slow)
    advance(win, 60000)
    assert win.unit.deal_phase() == "idle" and not win.light_shown("red")
    assert "deal-end" in win.session.tones_heard


def test_switch_off_look_b16(win):
    advance(win, 60000)
    text, k, m, lit = win.shown()
    assert (text, k, m, lit) == ("", False, False, False)
    assert win.canvas.itemcget(win.glass, "fill") == layout.GLASS_OFF
    click(win, "5")  # wakes; the waking key is not input
    assert win.shown() == ("0", False, False, True)


def test_banker_panel_lists_balances_and_log(win):
    type_keys(win, "b")
    assert win.panel_shown and win.panel.winfo_ismapped()
    type_keys(win, "F2")
    type_keys(win, "m")  # Go (B9)
    lab, short = win.bal_labels[2]
    assert lab.cget("text") == "17,000,000" and short.cget("text") == "17 M"
    log = win.log_text.get("1.0", "end")
    assert "go bank>2 2 M" in log
    type_keys(win, "b")
    assert not win.panel_shown


def test_pty_served_from_the_window_loop(win):
    # The protocol on a pty, answered from Tk's own loop (serve.Server via file handlers).
    import os
    import select

    line = win.serve("pty")
    path = line.split(" ", 2)[2]
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, b"EVENTS ON\nINSERT L 2\n")
        buf = b""
        for _ in range(200):
            win.root.update()
            if select.select([fd], [], [], 0.01)[0]:
                buf += os.read(fd, 4096)
            if buf.count(b"\n") >= 3:
                break
        lines = buf.decode().splitlines()
        assert lines[0] == "OK"
        assert lines[1] == '! tone {"name": "card"}'
        assert lines[2].startswith('OK {"power": "on"')
        assert win.card_shown_at(2) == "L"  # drawn in the window
    finally:
        os.close(fd)


def test_tones_as_wav_and_silence_at_volume_0():
    import io
    import wave

    from brain import tones

    data = frontend.wav_bytes("money-in", 2)
    with wave.open(io.BytesIO(data)) as wv:
        assert wv.getframerate() == frontend.RATE and wv.getnchannels() == 1
        want = sum(frontend.RATE * ms // 1000 for ms in tones.TONES["money-in"][1::2])
        assert wv.getnframes() == want
    played = []

    class Rec(frontend.Sound):
        def play(self, name, volume):
            played.append((name, volume))

    host = Host(options.parse(["--virtual-clock"]))
    s = frontend.Session(host, Rec(None))
    s.key_down(".")
    s.key_up(".")  # 2 -> 1
    s.key_down("5")
    assert played[-1] == ("click", 1)
    for _ in range(2):
        s.key_down("C")
        s.key_up("C")
    s.key_down(".")  # 1 -> 0: nothing sounds any more (B18), the view shows volume 0
    n = len(played)
    s.key_down("5")
    assert len(played) == n and s.view().volume == 0


def test_panel_button_and_keys_still_reach_the_unit(win):
    win.panel_button.invoke()
    assert win.panel_shown
    type_keys(win, "space")  # still DEAL, not the button
    assert win.unit.deal_phase() == "running"


# -- real X key events, as fast as a typist's -------------------------------------------------


def xdo(w, *args):
    """xdotool's real key events (XTEST, to the focused window) while the window takes them."""
    if shutil.which("xdotool") is None:
        pytest.skip("xdotool is not installed (make gui-deps)")
    p = subprocess.Popen(["xdotool", *args])
    while p.poll() is None:
        w.root.update()
        time.sleep(0.002)
    assert p.returncode == 0
    settle(w)


def heard(w):
    """The keys' events as they reach the unit, in order."""
    got = []
    down, up = w.session.key_down, w.session.key_up

    def key_down(key):
        got.append(("down", key))
        down(key)

    def key_up(key, now=None):
        got.append(("up", key))
        up(key, now)

    w.session.key_down, w.session.key_up = key_down, key_up
    return got


def paid_5_to_3(w):
    """Card 3 in L, 5 in R, 1M paid from 5 to 3: C would undo it."""
    type_keys(w, "F3")
    type_keys(w, "F5", state=1)
    advance(w, 1000)
    type_keys(w, "1", "m", "minus")
    advance(w, 2000)
    assert w.unit.ledger.bal[3] == 16000000


def each_once(*keys):
    return [(kind, k) for k in keys for kind in ("down", "up")]


def test_c_typed_quickly_undoes_and_the_keys_after_it_are_typed(win):
    paid_5_to_3(win)
    got = heard(win)
    xdo(win, "key", "c", "2", "2", "m")  # xdotool's 12 ms between keys
    assert got == each_once("C", "2", "2", "M")
    assert win.unit.ledger.bal[3] == 15000000  # undone (B10)
    assert win.shown()[:3] == ("22", False, True)


def test_keys_sent_to_the_window_by_another_program_are_each_typed(win):
    # xdotool --window sends its events (XSendEvent): none bears a server time.
    paid_5_to_3(win)
    got = heard(win)
    xdo(win, "key", "--window", str(int(win.root.wm_frame(), 16)), "c", "2", "2", "m")
    assert got == each_once("C", "2", "2", "M")
    assert win.unit.ledger.bal[3] == 15000000
    assert win.shown()[:3] == ("22", False, True)


def test_c_typed_at_40_ms_clears_the_entry_and_the_keys_after_it_are_typed(win):
    paid_5_to_3(win)
    got = heard(win)
    xdo(win, "key", "--delay", "40", "1", "m", "c", "2", "m")
    assert got == each_once("1", "M", "C", "2", "M")
    assert win.unit.ledger.bal[3] == 16000000  # C cleared 1M: nothing undone
    assert win.shown()[:3] == ("2", False, True)


def test_keys_rolled_over_each_other_reach_the_unit_one_after_the_other(win):
    # A typist presses the next key before letting the last one go.
    paid_5_to_3(win)
    got = heard(win)
    xdo(win, "keydown", "c", "sleep", "0.01", "keydown", "2", "sleep", "0.01", "keyup", "c",
        "keydown", "m", "sleep", "0.01", "keyup", "2", "sleep", "0.01", "keyup", "m")
    assert got == each_once("C", "2", "M")
    assert win.unit.ledger.bal[3] == 15000000
    assert win.shown()[:3] == ("2", False, True)


def test_c_held_under_x_autorepeat_is_one_held_key_and_starts_a_new_game(win):
    paid_5_to_3(win)
    got = heard(win)
    presses = []
    win.root.bind("<KeyPress>", lambda ev: presses.append(ev.keysym), add="+")
    xdo(win, "keydown", "c")

    def repeated():  # past the X server's autorepeat delay, the key pressed again and again
        win.root.update()
        return len(presses) > 3

    wait_for(repeated, 5, 0.005)
    advance(win, 3000)
    assert win.session.tones_heard[-1] == "new-game"
    xdo(win, "keyup", "c")
    assert got == each_once("C")
    assert win.unit.ledger.bal[3] == 15000000


def test_a_profile_that_starts_a_new_game_says_so_under_the_unit_b15(xdisplay, tmp_path):
    import tkinter as tk

    from brain import profiles
    from desktop import words
    from simulator.window import app

    state = str(tmp_path / "game")
    first = Host(options.parse(["--virtual-clock", "--state", state]))
    first.protocol.handle("INSERT L 6")
    first.protocol.handle("KEY 1 0 0 K +")
    first.lock.close()  # the state folder is one simulator's at a time
    host = Host(options.parse(["--virtual-clock", "--state", state, "--profile", "francs"]))
    root = tk.Tk()
    w = app.Window(host, root=root, sound=frontend.Sound(None))
    try:
        root.update()
        assert w.status_label.cget("text") == words.note("game", None, profiles.get("francs"))
    finally:
        w.close()
