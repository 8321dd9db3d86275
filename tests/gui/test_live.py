"""The real program: `python -m simulator --tcp 0` on Xvfb with its real clock, played through
X input events (xdotool: mouse clicks and drags, key presses and releases) and read back from
the screen's pixels. The protocol port the window serves at the same time checks the unit's
state and scripts the window live."""

import json
import time

import pytest

from tests.waits import wait_for
from tools import xvfb


@pytest.fixture
def live(xdisplay, quiet_env):
    if xvfb.missing_tools():
        pytest.skip("missing %s (make gui-deps)" % ", ".join(xvfb.missing_tools()))
    w = xvfb.LiveWindow(xdisplay, ["--seed", "3"], env=quiet_env)
    yield w
    w.stop()


def state(w):
    reply = w.command("STATE")
    assert reply.startswith("OK ")
    return json.loads(reply[3:])


def test_mouse_and_keyboard_receive_on_a_real_clock(live):
    # Insert card 1 in L by dragging it, type 150K +: 15.15 with M lit (B1, B3, B4).
    assert live.wait_shown(("0", False, False, True))
    live.drag_card(1, "L")
    live.wait_shown(("1",))  # the card's number first (B3) ...
    live.wait_shown(("15", False, True), timeout=3)  # ... then, a second later, its balance
    live.keys("1", "5", "0", "k")
    live.wait_shown(("150", True, False))
    live.click_key("+")
    live.wait_shown(("15.15", False, True))
    st = state(live)
    assert st["slots"] == {"L": 1, "R": None}
    assert st["display"] == {"text": "15.15", "k": False, "M": True}
    assert json.loads(live.command("BALANCES")[3:])["1"] == 15150000


def test_protocol_scripts_the_window_live(live):
    # A host tool inserts cards and pays over TCP; the window draws it (docs/protocol.md; B6).
    assert live.command("INSERT R 2").startswith("OK ")
    assert live.command("INSERT L 5").startswith("OK ")
    assert live.command("KEY 3 M -").startswith("OK ")
    live.wait_shown(("12", False, True))  # the payer's new balance ...
    live.wait_shown(("18", False, True), timeout=3)  # ... then the payee's


def test_holding_c_key_three_seconds_starts_a_new_game(live):
    # A real key held down (X autorepeat and all) for 3 s: the new game (B11).
    live.command("INSERT L 4")
    live.command("KEY 1 M +")
    live.wait_shown(("16", False, True))
    live.key_down("c")
    try:
        live.wait_shown(("15", False, True), timeout=6)
    finally:
        live.key_up("c")
    assert json.loads(live.command("BALANCES")[3:])["4"] == 15000000


def test_a_resized_window_scales_centres_and_the_mouse_follows(live):
    # The real program, resized by X to a wide, low window: the unit is drawn smaller and in
    # the middle, and keys and cards are where they are drawn now, found on the screen.
    from simulator.window import layout

    def drawn_smaller():  # Tk redraws at the new size in its own time
        got = live.locate()
        return got if got[2] < 0.85 else None  # the height is what limits it

    live.xdo("windowsize", "--sync", live.wid, "900", "700")
    x, _y, s = wait_for(drawn_smaller)
    assert abs(x + layout.W * s / 2 - 450) <= 3  # centred in the window's width
    x0, y0, x1, y1 = layout.key_rects()["5"]
    live.click(*live.at((x0 + x1) / 2, (y0 + y1) / 2))
    wait_for(lambda: state(live)["entry"] == "5", 3)
    live.click_key("C")
    live.drag_card(2, "L")
    wait_for(lambda: state(live)["slots"]["L"] == 2, 3)
    assert state(live)["slots"] == {"L": 2, "R": None}


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_closes_the_window_at_once_while_it_waits(xdisplay, quiet_env, sig):
    # The unit idle with a card in: its next change is the switch-off a minute away (B16), and
    # Tk waits for it in C. Ctrl-C in the terminal (SIGINT), or SIGTERM, still stops it now.
    import signal

    if xvfb.missing_tools():
        pytest.skip("missing %s (make gui-deps)" % ", ".join(xvfb.missing_tools()))
    w = xvfb.LiveWindow(xdisplay, ["--seed", "3"], env=quiet_env)
    try:
        w.command("INSERT L 1")
        assert w.wait_shown(("15", False, True), timeout=3)
        time.sleep(0.05)
        w.proc.send_signal(getattr(signal, sig))
        assert w.proc.wait(timeout=5) == 0
    finally:
        w.stop()
