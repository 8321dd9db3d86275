"""The terminal front end through a real pseudo-terminal: `python -m simulator` with no
DISPLAY, keys typed into the pty, the screen read back from the frames it draws (the big
seven-segment digits decoded with terminal.read_big_digits)."""

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time

import pytest

from simulator import terminal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SGR = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Pty:
    def __init__(self, env, args=()):
        self.master, slave = os.openpty()
        env = dict(env)
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        env["TERM"] = "xterm"
        self.proc = subprocess.Popen([sys.executable, "-m", "simulator"] + list(args),
                                     stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.buf = ""

    def pump(self, timeout=0.02):
        r, _, _ = select.select([self.master], [], [], timeout)
        if r:
            try:
                self.buf += os.read(self.master, 65536).decode("utf-8", "replace")
            except OSError:
                pass

    def screen(self):
        """The lines of the last whole frame drawn (frames start at the home position)."""
        parts = self.buf.split("\x1b[H")
        if len(parts) < 2 or "\x1b[J" not in parts[-1]:
            frame = parts[-2] if len(parts) > 2 else ""
        else:
            frame = parts[-1]
        return [SGR.sub("", line) for line in frame.split("\r\n")]

    def shown(self):
        lines = self.screen()
        for i, line in enumerate(lines):
            if line.startswith(" +--") and i + 5 < len(lines):
                rows = [r[3:38] for r in lines[i + 1:i + 6]]
                ann = [r[40:41] for r in lines[i + 1:i + 6]]
                return (terminal.read_big_digits(rows), ann[4] == "k", ann[0] == "M")
        return None

    def wait(self, cond, timeout=5.0):
        end = time.monotonic() + timeout
        while True:
            self.pump()
            got = cond(self)
            if got:
                return got
            if time.monotonic() > end:
                raise AssertionError("not seen in %.1fs; screen:\n%s"
                                     % (timeout, "\n".join(self.screen())))

    def wait_shown(self, want, timeout=5.0):
        return self.wait(lambda p: p.shown() == tuple(want), timeout)

    def type(self, text):
        os.write(self.master, text.encode())

    def stop(self):
        if self.proc.poll() is None:
            self.type("q")
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(3)
        os.close(self.master)


@pytest.fixture
def tty(quiet_env):
    ptys = []

    def start(*args):
        p = Pty(quiet_env, args)
        ptys.append(p)
        return p

    yield start
    for p in ptys:
        p.stop()


def test_says_it_is_the_terminal_front_end_and_draws_the_unit(tty):
    p = tty("--seed", "1")
    p.wait(lambda p: "no display found: terminal front end" in p.buf)
    p.wait_shown(("0", False, False))
    assert any("power: on" in line for line in p.screen())


def test_receive_and_transfer_typed_b4_b6(tty):
    p = tty("--seed", "1")
    p.wait_shown(("0", False, False))
    p.type("l1")  # card 1 into L
    p.wait_shown(("1", False, False))  # its number first (B3) ...
    p.wait_shown(("15", False, True), timeout=3)  # ... then its balance
    p.type("150k")
    p.wait_shown(("150", True, False))
    p.type("+")
    p.wait_shown(("15.15", False, True))
    assert p.wait(lambda p: any("~ money-in" in line for line in p.screen()))
    p.type("r2")  # card 2 into R: the payer's balance shows
    p.wait(lambda p: any("slot R (debit -): card 2" in line for line in p.screen()))
    p.type("2.5m-")
    p.wait_shown(("12.5", False, True))
    p.wait_shown(("17.65", False, True), timeout=3)  # the payee's new balance (B6)
    p.type("b")  # the banker's panel
    p.wait(lambda p: any("17,650,000" in line for line in p.screen()))
    p.wait(lambda p: any("transfer 2>1 2.5 M" in line for line in p.screen()))


def test_card_refusals_and_volume_b3_b12(tty):
    p = tty("--seed", "1")
    p.wait_shown(("0", False, False))
    p.type(".")  # no card, no entry: volume 2 -> 1, shown as the digit
    p.wait_shown(("1", False, False))
    p.wait(lambda p: any("sound: 1" in line for line in p.screen()))
    p.type("l3")
    p.type("r3")  # the same card in the other slot
    p.wait(lambda p: any("card 3 is in the other slot" in line for line in p.screen()))
    p.type("L")
    p.wait(lambda p: any("slot L (credit +): empty" in line for line in p.screen()))


def test_hold_c_new_game_and_the_port_served_alongside_b11(tty):
    p = tty("--seed", "1", "--tcp", "0")
    m = p.wait(lambda p: re.search(r"listening tcp 127\.0\.0\.1:(\d+)", p.buf))
    port = int(m.group(1))
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        f = s.makefile("rb")
        s.sendall(b"INSERT L 6\nKEY 5 M +\n")
        f.readline()
        st = json.loads(f.readline().decode()[3:])
        assert st["display"]["text"] == "20"
        p.wait_shown(("20", False, True))  # the screen follows the host tool
        p.type("n")  # a new game: asked first
        p.wait(lambda p: any("start a NEW GAME?" in line for line in p.screen()))
        p.type("y")  # hold C for 3 s
        p.wait(lambda p: any("holding C" in line for line in p.screen()))
        p.wait_shown(("15", False, True), timeout=6)
        s.sendall(b"BALANCES\n")
        assert json.loads(f.readline().decode()[3:])["6"] == 15000000


def test_a_stray_n_does_not_wipe_the_game_b11(tty):
    p = tty("--seed", "1")
    p.wait_shown(("0", False, False))
    p.type("l1")
    p.wait_shown(("15", False, True), timeout=3)
    p.type("1m+")
    p.wait_shown(("16", False, True))
    p.type("n")  # next to m: one keystroke must not start a new game
    p.wait(lambda p: any("start a NEW GAME?" in line and "y = yes" in line
                         for line in p.screen()))
    p.type("m")  # anything but y: nothing happens (and the m is not a Go either)
    p.wait(lambda p: any("> not done" in line for line in p.screen()))
    time.sleep(3.5)  # longer than the hold would have taken
    p.pump()
    assert p.shown() == ("16", False, True)
    p.type("b")
    p.wait(lambda p: any("card 1" in line and "16,000,000" in line for line in p.screen()))


def test_maintenance_from_the_keyboard_asks_and_is_labelled(tty):
    p = tty("--seed", "1", "--tcp", "0")
    m = p.wait(lambda p: re.search(r"listening tcp 127\.0\.0\.1:(\d+)", p.buf))
    p.wait_shown(("0", False, False))
    p.type("S")
    p.wait(lambda p: any("hold DEAL 3 s for maintenance mode on?" in line
                         for line in p.screen()))
    p.type("y")
    p.wait(lambda p: any("holding DEAL" in line for line in p.screen()))
    p.wait(lambda p: "MAINTENANCE" in p.screen()[0], timeout=6)
    with socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=5) as s:
        s.sendall(b"MAINT\nNAME 2 Bob\n")
        f = s.makefile("rb")
        assert f.readline() == b'OK {"maintenance": true}\n'
        assert f.readline().startswith(b'OK {"1": null, "2": "Bob"')
    p.type("b")
    p.wait(lambda p: any("card 2 Bob" in line for line in p.screen()))


def test_a_refusal_is_said_in_words(tty):
    p = tty("--seed", "1")
    p.wait_shown(("0", False, False))
    p.type("l1")
    p.wait_shown(("15", False, True), timeout=3)
    p.type("5k+")
    # The whole sentence, and no rule id after it: those are for the docs.
    p.wait(lambda p: any(line.rstrip().endswith("> 5 K is below the smallest amount at one "
                                                "time, 10 k") for line in p.screen()))
    p.type("r1")
    p.wait(lambda p: any("card 1 is in the other slot already" in line for line in p.screen()))
