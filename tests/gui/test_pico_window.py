"""`python -m simulator --pico [IMAGE.uf2]`: the window on the emulated RP2040 running the image
a maker flashes, played at its pins, on the session's Xvfb. Keys are clicked and typed and cards
put in as in the window; what the glass shows is read back from the canvas's drawn segments.
Time is the emulated Pico's: each wait runs the core on (rig.py's emulator), never a sleep.
"""

import os

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from desktop import words
from tests.gui.hands import click
from simulator import cli
from simulator.window import layout, sizes
from tests.pico import rig

tk = pytest.importorskip("tkinter")


@pytest.fixture(scope="module")
def image():
    why = rig.emulator_missing()
    if why:
        pytest.skip(why)
    path = rig.frozen_image()
    if path is None:
        pytest.skip("no unit's own image here (make uf2 builds it; make test does first)")
    return path


def open_window(image, flash_file=None, wall=None, root=None, rfid=False):
    from simulator.pico.session import PicoSession
    from simulator.pico.window import PicoWindow

    root = root or tk.Tk()
    extra = {} if wall is None else {"wall": wall}
    w = PicoWindow(PicoSession(image, flash_file=flash_file, rfid=rfid, **extra), root=root)
    root.update()
    root.focus_force()
    root.update()
    return w


@pytest.fixture
def pico_win(xdisplay, image):
    w = open_window(image)
    yield w
    w.close()


def run_until(w, cond, pico_ms=3000):
    """Run the emulated Pico on, 20 ms at a time, drawing after each, until cond() holds."""
    pico = w.session.pico
    end = pico.now_ms() + pico_ms
    while not cond():
        assert pico.now_ms() < end, "not within %d ms of Pico time: %r" % (pico_ms, w.shown())
        pico.run(20)
        w.refresh()
        w.root.update()


def shows(w, text, k=False, m=False):
    return lambda: w.shown() == (text, k, m, True)


def test_the_unit_s_own_image_plays_in_the_window_at_its_pins(pico_win):
    w = pico_win
    # A new Pico's blank flash: the image formats it and the frozen firmware shows 0 (B1).
    run_until(w, shows(w, "0"))
    line = w.status_label.cget("text")
    assert os.path.basename(w.session.image) in line and "frozen in" in line
    # Clicked keys close the matrix's switches; the chip's own scan finds them.
    for key in "1 5 0".split():
        click(w, key)
        w.session.pico.run(100)
    run_until(w, shows(w, "150"))
    click(w, "C")
    run_until(w, shows(w, "0"))
    # F1: card 1 slides into L, tab by tab, and seats: its number, then its balance (B3).
    card_in(w, 1)
    run_until(w, shows(w, "15", m=True), 2000)
    assert w.card_shown_at(1) == "L"
    for key in "1 0 K".split():
        click(w, key)
        w.session.pico.run(100)
    run_until(w, shows(w, "10", k=True))
    click(w, "+")  # B4: from the bank to card 1
    run_until(w, shows(w, "15.01", m=True), 2000)
    # Clicked in its slot, the card comes out: the unit shows 0 again.
    x, y = w.card_at[1]
    cx, cy = w.to_canvas(x + layout.CARD_W / 2, y + 10)
    w.canvas.event_generate("<ButtonPress-1>", x=cx, y=cy)
    w.canvas.event_generate("<ButtonRelease-1>", x=cx, y=cy)
    w.root.update()
    run_until(w, shows(w, "0"), 2000)
    assert w.card_shown_at(1) is None


def card_in(w, n):
    w.root.event_generate("<KeyPress>", keysym="F%d" % n)
    w.root.event_generate("<KeyRelease>", keysym="F%d" % n)
    w.root.update()


def test_the_unit_s_own_image_keeps_its_game_from_one_window_to_the_next(xdisplay, image,
                                                                         tmp_path):
    kept = tmp_path / "pico.flash"
    w = open_window(image, str(kept))
    try:
        run_until(w, shows(w, "0"))
        card_in(w, 1)
        run_until(w, shows(w, "15", m=True), 2000)
        for key in "1 0 K +".split():
            click(w, key)
            w.session.pico.run(100)
        run_until(w, shows(w, "15.01", m=True), 2000)  # B4, written to the emulated flash
        w.session.pico.run(500)
        w.session.keep_s = 0  # the flash kept at the next wake, as every keep_s of play
        w.refresh()
        killed = tmp_path / "killed.flash"  # what a window killed now would have left
        killed.write_bytes(kept.read_bytes())
    finally:
        w.close()
    # The next window boots on that flash, as a Pico flashed anew keeps its game (B17): the
    # one kept while playing, and the one kept as the window closed.
    for path in (killed, kept):
        w = open_window(image, str(path))
        try:
            run_until(w, shows(w, "0"))
            card_in(w, 1)
            run_until(w, shows(w, "15.01", m=True), 2000)
        finally:
            w.close()
    # A kept file that is no Pico's flash is refused, and left as it is: no game is dropped.
    kept.write_bytes(b"half a flash")
    from simulator.pico.session import NoImage, PicoSession

    with pytest.raises(NoImage, match="is not the flash of a Pico's file system"):
        PicoSession(image, flash_file=str(kept))
    assert kept.read_bytes() == b"half a flash"


def test_the_rfid_build_takes_its_cards_through_the_emulated_readers(xdisplay, image, tmp_path):
    # --pico --rfid: pins.py's SLOTS = "rfid" on the flash, two MFRC522s at SPI0, the six
    # cards tags numbered 1-6 (by the firmware's own writer): F3 lays card 3 on the L reader.
    w = open_window(image, str(tmp_path / "pico-rfid.flash"), rfid=True)
    try:
        run_until(w, shows(w, "0"))
        assert w.session.pico.parts.pins["SLOTS"] == "rfid"
        card_in(w, 3)
        run_until(w, shows(w, "3"), 2000)  # B3: the number read from the tag ...
        run_until(w, shows(w, "15", m=True), 2000)  # ... then its balance
        assert w.card_shown_at(3) == "L"
        for key in "5 0 K +".split():
            click(w, key)
            w.session.pico.run(100)
        run_until(w, shows(w, "15.05", m=True), 2000)  # B4
    finally:
        w.close()


def test_pico_says_in_one_line_what_it_cannot_run(xdisplay, tmp_path, capsys, monkeypatch):
    from simulator.host import hold_flash
    from simulator.pico.session import flash_file

    monkeypatch.setenv("BANK_SIM_STATE", str(tmp_path / "state"))
    assert cli.main(["--pico", str(tmp_path / "none.uf2")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "simulator: no such image: %s" % (tmp_path / "none.uf2")
    # A wrong path first, even while another window holds the flash: closing that window
    # would only lead to the wrong path.
    held = hold_flash(flash_file())
    try:
        assert cli.main(["--pico", str(tmp_path / "none.uf2")]) == 2
        assert capsys.readouterr().err.strip() == err
    finally:
        held.close()
    junk = tmp_path / "junk.uf2"
    junk.write_bytes(b"\x00" * 1024)
    assert cli.main(["--pico", str(junk)]) == 2
    assert capsys.readouterr().err.strip() == "simulator: %s is not a UF2 image" % junk
    # The emulated chip is the unit: the options of the simulated one do not apply to it.
    assert cli.main(["--pico", "--headless"]) == 2
    assert "--pico takes an image, --rfid and --lang only" in capsys.readouterr().err


def test_pico_takes_an_image_or_the_unit_s_own():
    from simulator import options

    o = options.parse(["--pico"])
    assert o.pico and o.pico_image is None  # the one `make uf2` built
    o = options.parse(["--pico", "my.uf2", "--lang", "fr"])
    assert o.pico and o.pico_image == "my.uf2" and o.lang == "fr"
    assert "--pico [IMAGE.uf2]" in options.USAGE
    assert options.parse(["--pico", "--rfid"]).rfid
    with pytest.raises(options.UsageError, match="--rfid goes with --pico"):
        options.parse(["--rfid"])


def test_a_second_pico_window_on_the_same_flash_refuses_in_one_line(xdisplay, image, quiet_env,
                                                                    tmp_path):
    # Two windows on one pico.flash would each keep their own flash over the other's, and the
    # game of the one that kept first would be gone (B17). The second refuses, touching
    # nothing, as a second simulator on one state folder does.
    import subprocess
    import sys

    from tests.gui.conftest import ROOT
    from tests.waits import wait_for

    env = dict(quiet_env, DISPLAY=xdisplay)
    folder = env["BANK_SIM_STATE"]
    flash = os.path.join(folder, "pico.flash")
    lock = os.path.join(folder, "pico.lock")

    def holder():
        try:
            with open(lock) as f:
                return f.read().strip()
        except OSError:
            return None

    first = subprocess.Popen([sys.executable, "-m", "simulator", "--pico", image], cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: os.path.exists(flash), timeout=60)  # booted, and kept once
        before = sorted(os.listdir(folder))
        second = subprocess.Popen([sys.executable, "-m", "simulator", "--pico", image],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        try:
            _, err = second.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            second.kill()
            second.communicate()
            raise AssertionError("a second --pico window ran on the first one's flash") from None
        err = err.decode()
        assert second.returncode == 2, err
        assert err == ("simulator: the flash %s is in use by another --pico window (process "
                       "%d); close it, or give this one another BANK_SIM_STATE (a folder, or "
                       "none to keep nothing)\n" % (flash, first.pid)), err
        assert sorted(os.listdir(folder)) == before
        assert holder() == str(first.pid)
        # The simulator's own state in the same folder is another hold: both run at once.
        from simulator.host import hold_flash, open_state

        open_state(folder).close()
        assert first.poll() is None  # the first window plays on
    finally:
        first.terminate()
        first.wait(timeout=10)
    # Gone, however it went (here a SIGTERM), it leaves its flash free for the next window.
    hold_flash(flash).close()


# The window as it opens, measured in a process of its own on a screen of that size (this one's
# Tk would not outlive an X server that goes away).
MEASURE = """
import json, sys, tkinter as tk
import simulator
from simulator.pico.session import PicoSession
from simulator.pico.window import PicoWindow
from simulator.window import layout
w = PicoWindow(PicoSession(sys.argv[1], flash_file=None), root=tk.Tk())
w.root.update()
line = w.status_label
print(json.dumps({"size": [w.root.winfo_width(), w.root.winfo_height()],
                  "cards": w.to_canvas(0, layout.TRAY_Y + layout.CARD_H)[1],
                  "canvas": w.canvas.winfo_height(), "scale": w.scale,
                  "line": [line.winfo_rooty() + line.winfo_height(), line.cget("text")]}))
w.close()
"""


def test_the_pico_window_opens_with_the_whole_unit_on_a_1366x768_screen(xdisplay, image):
    # As the window does (sizes.py): the unit as large as the screen leaves room for, its
    # cards and the line under it (the Pico time) on the screen, not below its edge.
    import json
    import subprocess
    import sys

    from tools.xvfb import Xvfb

    with Xvfb(size="1366x768x24") as x:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        got = subprocess.run([sys.executable, "-c", MEASURE, image], cwd=root,
                             env=x.env({"PYTHONPATH": root, "LANG": "C.UTF-8"}),
                             capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr[-2000:]
    m = json.loads(got.stdout.strip().splitlines()[-1])
    sw, sh = 1366 - sizes.SCREEN_KEEPS[0], 768 - sizes.SCREEN_KEEPS[1]
    assert m["size"][0] <= sw and m["size"][1] <= sh, m
    assert m["cards"] <= m["canvas"], m  # the cards' lower edge is drawn
    assert m["line"][0] <= sh and "Pico time" in m["line"][1], m
    assert m["scale"] >= layout.MIN_SCALE


def glass_note(w):
    return w.canvas.itemcget(w.off_item, "text")


def test_the_pico_window_says_it_is_booting_and_how_far_behind_real_time_it_runs(xdisplay,
                                                                                 image):
    # The wall clock is the test's: a second of it per step runs the emulated core for the
    # most a step runs (max_step_ms), as on a machine too busy to keep up.
    wall = [0.0]
    w = open_window(image, wall=lambda: wall[0])
    try:
        assert w.shown()[3] is False  # the glass dark while the image boots
        assert glass_note(w) == "booting: the image is starting"
        slow = 1000.0 / w.session.max_step_ms
        while w.session.booting():
            assert w.session.pico.now_ms() < 3000, "no first picture"
            assert glass_note(w) == "booting: the image is starting"
            wall[0] += 1.0
            w.refresh()
        w.root.update()
        assert glass_note(w) == "" and w.shown()[3] is True
        line = w.status_label.cget("text")
        assert line.endswith(", %.1fx slower than real time" % slow), line
        words.set_lang("fr")
        w.refresh()
        assert ", %s fois plus lent que le temps r\u00e9el" % ("%.1f" % slow).replace(
            ".", ",") in w.status_label.cget("text")
        words.set_lang("en")
        # The window waking every 20 ms of wall time, the core kept up: said so, once the
        # slow seconds are out of the pace's reach (pace_s).
        for _ in range(int(w.session.pace_s * 1000 / 20) + 5):
            wall[0] += 0.02
            w.refresh()
        assert w.status_label.cget("text").endswith(", as fast as real time")
    finally:
        w.close()

