"""The terminal front end in a real terminal: `python -m simulator` with no DISPLAY, run inside
tmux (a terminal emulator of its own, on a private server), keys sent with send-keys, the screen
read back with capture-pane (the large digits decoded with digits.read_big), at two sizes and
across a resize (SIGWINCH)."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest

from board import segments
from brain import profiles
from desktop import words
from simulator import digits

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMUX = shutil.which("tmux")


class Tmux:
    """One simulator in a tmux window of cols x rows on a tmux server of its own."""

    def __init__(self, env, args=(), cols=80, rows=24, after=None, display=None):
        if TMUX is None:
            pytest.skip("tmux is not installed (make gui-deps installs it on Debian)")
        self.sock = "bank-test-" + uuid.uuid4().hex[:10]
        env = dict(env)
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("TMUX", None)
        if display is not None:
            env["DISPLAY"] = display  # this one, not the machine's
        env["TERM"] = "xterm-256color"
        cmd = " ".join([sys.executable, "-m", "simulator"] + list(args))
        if after is not None:
            cmd += "; " + after  # a shell command run in the terminal once the simulator ends
        self.env = env
        self.tmux("-f", "/dev/null", "new-session", "-d", "-x", str(cols), "-y", str(rows),
                  "-s", "unit", "-c", ROOT, cmd)

    def tmux(self, *args):
        return subprocess.run([TMUX, "-L", self.sock] + list(args), env=self.env,
                              capture_output=True, text=True, timeout=10).stdout

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "unit").split("\n")

    def shown(self):
        return read(self.screen())

    def digit_rows(self):
        lines = self.screen()
        top = [i for i, line in enumerate(lines) if line.lstrip().startswith("\u250c")]
        bottom = [i for i, line in enumerate(lines) if line.lstrip().startswith("\u2514")]
        return bottom[0] - top[0] - 1 if top and bottom else 0

    def wait(self, cond, timeout=5.0):
        end = time.monotonic() + timeout
        while True:
            got = cond(self)
            if got:
                return got
            if time.monotonic() > end:
                raise AssertionError("not seen in %.1fs; screen:\n%s"
                                     % (timeout, "\n".join(self.screen())))
            time.sleep(0.03)

    def wait_shown(self, want, timeout=5.0):
        return self.wait(lambda p: p.shown() == tuple(want), timeout)

    def seen(self, text, timeout=5.0):
        return self.wait(lambda p: any(text in line for line in p.screen()), timeout)

    def type(self, text):
        self.tmux("send-keys", "-t", "unit", "-l", text)

    def resize(self, cols, rows):
        self.tmux("resize-window", "-t", "unit", "-x", str(cols), "-y", str(rows))

    def stop(self):
        self.type("q")
        end = time.monotonic() + 3
        while "unit" in self.tmux("list-sessions") and time.monotonic() < end:
            time.sleep(0.03)
        self.tmux("kill-server")


def read(lines):
    return digits.read_big(lines)


@pytest.fixture
def tty(quiet_env):
    started = []

    def start(*args, cols=80, rows=24, env=None, after=None, display=None):
        p = Tmux(dict(quiet_env, **(env or {})), args, cols, rows, after, display)
        started.append(p)
        return p

    yield start
    for p in started:
        p.stop()


def test_the_large_digits_read_back_at_every_size():
    # Every character the firmware's font has, in every cell, at small to large sizes.
    for cols, hmax in ((38, 5), (60, 7), (80, 9), (120, 20), (200, 40)):
        cw, h = digits.big_size(cols, hmax)
        for text in ("0.123", "45678", "9", "Err1", "15.15", "-0.5"):
            cells = segments.cells(text)
            rows = digits.big_digits(cells, True, cw, h)
            width = len(rows[0]) + 4
            framed = ([" \u250c" + "\u2500" * width + "\u2510"]
                      + [" \u2502 " + r + " M \u2502" for r in rows]
                      + [" \u2514" + "\u2500" * width + "\u2518"])
            assert read(framed)[0] == text.replace(" ", ""), (cols, text)
            assert len(framed[1]) <= cols


def test_a_display_that_does_not_open_is_said_and_the_terminal_plays(tty):
    # DISPLAY set (a lost X forwarding) but nothing answers there: not "no display found".
    p = tty("--seed", "1", display=":55")
    p.seen("the display does not open: terminal front end")
    p.wait_shown(("0", False, False))


def test_says_it_is_the_terminal_front_end_and_draws_the_unit_large(tty):
    p = tty("--seed", "1")
    p.seen("no display found: terminal front end")
    p.wait_shown(("0", False, False))
    assert p.digit_rows() >= 7  # readable across a table at 80x24
    assert any("power: on" in line for line in p.screen())
    assert max(len(line) for line in p.screen()) <= 80


def test_sigterm_stops_it_with_status_0_and_leaves_the_terminal_as_it_found_it(tty, tmp_path):
    after = tmp_path / "after"
    p = tty("--seed", "1", after="echo status $? > %s; stty -a >> %s; sleep 60" % (after, after))
    p.wait_shown(("0", False, False))
    shell = int(p.tmux("list-panes", "-t", "unit", "-F", "#{pane_pid}").split()[0])
    os.kill(child_of(shell), signal.SIGTERM)
    p.wait(lambda _: after.exists() and "speed" in after.read_text())
    said = after.read_text().split()
    assert said[:2] == ["status", "0"], said[:2]
    # Lines typed are echoed and edited again, as before curses took the terminal over.
    assert "icanon" in said and "echo" in said, said


def child_of(pid):
    """The one process whose parent is pid (the simulator its shell started)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                return int(name)
    raise AssertionError("no child of %d" % pid)


def test_a_resize_redraws_at_the_new_size(tty):
    p = tty("--seed", "1", cols=80, rows=24)
    p.wait_shown(("0", False, False))
    p.type("l1")
    p.wait_shown(("15", False, True), timeout=3)
    small = p.digit_rows()
    p.resize(132, 43)  # larger: larger digits, at once, with nothing typed (SIGWINCH)
    p.wait(lambda p: p.digit_rows() > small + 5)
    assert p.shown() == ("15", False, True)
    p.resize(50, 22)  # smaller: the digits fit the width
    p.wait(lambda p: 0 < p.digit_rows() < small)
    assert p.shown() == ("15", False, True)
    assert max(len(line.rstrip()) for line in p.screen()) <= 50


def test_receive_and_transfer_typed_b4_b6(tty):
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("l1")  # card 1 into L
    p.wait_shown(("1", False, False))  # its number first (B3) ...
    p.wait_shown(("15", False, True), timeout=3)  # ... then its balance
    p.type("150k")
    p.wait_shown(("150", True, False))
    p.type("+")
    p.wait_shown(("15.15", False, True))
    p.seen("~ money-in")
    p.type("r2")  # card 2 into R: the payer's balance shows
    p.seen("slot R (debit -): card 2")
    p.type("2.5m-")
    p.wait_shown(("12.5", False, True))
    p.wait_shown(("17.65", False, True), timeout=3)  # the payee's new balance (B6)
    p.type("b")  # the banker's panel
    p.seen("17,650,000")
    p.seen("transfer 2>1 2.5 M")


def test_card_refusals_and_volume_b3_b12(tty):
    p = tty("--seed", "1")
    p.wait_shown(("0", False, False))
    p.type(".")  # no card, no entry: volume 2 -> 1, shown as the digit
    p.wait_shown(("1", False, False))
    p.seen("sound: 1")
    p.type("l3")
    p.type("r3")  # the same card in the other slot
    p.seen("card 3 is in the other slot")
    p.type("L")
    p.seen("slot L (credit +): empty")


def test_hold_c_new_game_and_the_port_served_alongside_b11(tty):
    p = tty("--seed", "1", "--tcp", "0")
    m = p.wait(lambda p: re.search(r"serving tcp 127\.0\.0\.1:(\d+)", "\n".join(p.screen())))
    port = int(m.group(1))
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        f = s.makefile("rb")
        s.sendall(b"INSERT L 6\nKEY 5 M +\n")
        f.readline()
        st = json.loads(f.readline().decode()[3:])
        assert st["display"]["text"] == "20"
        p.wait_shown(("20", False, True))  # the screen follows the host tool
        p.type("n")  # a new game: asked first
        p.seen("start a NEW GAME?")
        p.type("y")  # hold C for 3 s
        p.seen("holding C")
        p.wait_shown(("15", False, True), timeout=6)
        s.sendall(b"BALANCES\n")
        assert json.loads(f.readline().decode()[3:])["6"] == 15000000


def test_a_stray_n_does_not_wipe_the_game_b11(tty):
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("l1")
    p.wait_shown(("15", False, True), timeout=3)
    p.type("1m+")
    p.wait_shown(("16", False, True))
    p.type("n")  # next to m: one keystroke must not start a new game
    # B11: the game is kept, not wiped: the question said "the log cleared", and a banker
    # told so may well refuse a harmless new game.
    p.wait(lambda p: "start a NEW GAME? every card back to the start, this game kept" in
           " ".join(p.screen()) and "y = yes" in " ".join(p.screen()))
    p.type("m")  # anything but y: nothing happens (and the m is not a Go either)
    p.seen("> not done")
    # A hold begun says so at once ("holding C", as a y does); none did, and the game is on.
    assert "holding" not in " ".join(p.screen())
    p.type("1m+")
    p.wait_shown(("17", False, True))
    p.type("b")
    p.wait(lambda p: any("card 1" in line and "17,000,000" in line for line in p.screen()))


def test_the_banker_view_lists_the_previous_games_as_the_windows_panel_does_b11(tty, quiet_env):
    # `b` showed balances and recent transactions, and no previous game, where the window's
    # panel lists them: a banker at the terminal could not see a game was kept.
    subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio",
                    "--virtual-clock"], input=b"INSERT L 3\nKEY 1M+\nHOLD C 3000\n",
                   env=quiet_env, cwd=ROOT, capture_output=True, timeout=60, check=True)
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("b")
    p.seen("-- previous games --")
    p.seen("game 1 (world), 1 transaction  1 15 M  2 15 M  3 16 M")


def test_maintenance_from_the_keyboard_asks_and_is_labelled(tty):
    p = tty("--seed", "1", "--tcp", "0", cols=100, rows=40)
    m = p.wait(lambda p: re.search(r"serving tcp 127\.0\.0\.1:(\d+)", "\n".join(p.screen())))
    p.wait_shown(("0", False, False))
    p.type("S")
    p.seen("hold DEAL 3 s for maintenance mode on?")
    p.type("y")
    p.seen("holding DEAL")
    p.wait(lambda p: "MAINTENANCE" in p.screen()[0], timeout=6)
    with socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=5) as s:
        s.sendall(b"MAINT\nNAME 2 Bob\n")
        f = s.makefile("rb")
        assert f.readline() == b'OK {"maintenance": true}\n'
        assert f.readline().startswith(b'OK {"1": null, "2": "Bob"')
    p.type("b")
    p.seen("card 2 Bob")


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
    p.seen("card 1 is in the other slot already")


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_the_terminal_speaks_french_and_f_switches(tty, how):
    if how == "--lang":
        p = tty("--seed", "1", "--lang", "fr")
    else:
        # LC_CTYPE keeps the characters UTF-8 where no French locale is installed
        p = tty("--seed", "1", env={"LANG": "fr_FR.UTF-8", "LC_CTYPE": "C.UTF-8"})
    p.wait_shown(("0", False, False))
    p.seen("fente L (cr\u00e9dit +) : vide")
    p.type("l1")
    p.wait_shown(("15", False, True), timeout=3)
    p.type("5k+")  # B2
    p.seen("> 5 K est sous le plus petit montant en une fois, 10 k")
    p.type("f")
    p.seen("> 5 K is below the smallest amount at one time, 10 k")
    p.seen("slot L (credit +): card 1")
    assert words.lang() == "en"  # (this process's own, untouched)


def test_every_word_on_the_french_screen_is_french(tty):
    p = tty("--seed", "1", "--lang", "fr", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.seen("pas d'\u00e9cran graphique : interface en terminal")
    p.seen("ench\u00e8res : arr\u00eat\u00e9es")  # the French rulebook's word for the deal
    p.type("b")
    p.seen("-- banquier : soldes --")
    screen = "\n".join(p.screen())
    for english in ("card", "deal", "idle", "power", "slot", "sound", "entry", "keys",
                    "no display"):
        assert not re.search(r"\b%s\b" % english, screen), english


def test_names_in_any_language_on_the_terminal(tty):
    p = tty("--seed", "1", "--tcp", "0", cols=100, rows=40)
    m = p.wait(lambda p: re.search(r"serving tcp 127\.0\.0\.1:(\d+)", "\n".join(p.screen())))
    with socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=5) as s:
        f = s.makefile("rb")
        s.sendall("NAME 1 Zo\u00eb\nNAME 2 \u674e\u96f7\n".encode())
        f.readline()
        assert json.loads(f.readline().decode()[3:])["2"] == "\u674e\u96f7"
        s.sendall(b"INSERT L 1\nINSERT R 2\nKEY 1 M -\n")
        for _ in range(3):
            f.readline()
    p.type("b")  # the banker's panel: the names by the balances and in the log
    p.seen("card 1 Zo\u00eb ")
    p.seen("card 2 \u674e\u96f7")
    p.seen("transfer \u674e\u96f7>Zo\u00eb 1 M")


def test_x_holds_minus_for_a_bankruptcy_after_asking_b21(tty):
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("r2")
    p.wait_shown(("15", False, True), timeout=3)
    p.type("l4")
    p.wait_shown(("15", False, True), timeout=3)  # the payer's balance, card 2 (B3)
    p.type("X")
    p.seen("goes BANKRUPT")
    p.type("y")  # - held 3 s, nothing typed: card 2's whole balance to card 4
    p.seen("holding -")
    p.wait_shown(("0", False, False), timeout=6)  # the payer's new balance first (B6)
    p.type("b")
    p.wait(lambda p: any("card 4" in line and "30,000,000" in line for line in p.screen()),
           timeout=4)


def test_the_card_prompt_takes_a_card_or_says_what_it_takes(tty):
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("l")
    p.seen("card into L: 1-6 (0 or x: take out")
    p.type("9")  # no card 9: said, and not typed as an amount
    p.seen("9 is no card: 1-6 into L")
    assert "entry: 9" not in " ".join(p.screen())
    p.type("3")  # the prompt still waits for the card
    p.wait_shown(("3", False, False), timeout=3)
    p.seen("slot L (credit +): card 3")


def test_h_holds_the_next_key_plus_for_the_count_and_a_tap_starts_nothing_b19(tty):
    p = tty("--seed", "1", cols=100, rows=40)
    p.wait_shown(("0", False, False))
    p.type("+")  # a stray tap: refused, as B1-B18 have it, and no count
    p.seen("type an amount first")
    assert p.shown() == ("0", False, False)
    p.type("h")
    p.seen("hold which key for 3 s?")
    p.type("+")
    p.seen("holding + for 3 s")
    p.wait_shown(("Count", False, False), timeout=6)


def test_a_profile_that_starts_a_new_game_is_said_on_the_screen_b15(tty, tmp_path):
    state = str(tmp_path / "game")
    subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio", "--state", state],
                   input="INSERT L 6\nKEY 1 0 0 K +\n", text=True, capture_output=True,
                   timeout=30, check=True, cwd=ROOT)
    p = tty("--state", state, "--profile", "francs", cols=100, rows=40)
    p.seen(words.note("game", None, profiles.get("francs")))  # stderr is drawn over by it


def test_with_no_good_copy_the_panel_shows_no_balance_b17(tty, tmp_path):
    state = str(tmp_path / "game")
    subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio", "--state", state],
                   input="INSERT L 6\nKEY 1 0 0 K +\n", text=True, capture_output=True,
                   timeout=30, check=True, cwd=ROOT)
    for name in ("bank.a", "bank.b"):  # every slot's header: no good copy left
        path = os.path.join(state, name)
        if os.path.exists(path):
            with open(path, "r+b") as f:
                data = bytearray(f.read())
                data[12] ^= 0x10
                f.seek(0)
                f.write(data)
    p = tty("--state", state, cols=100, rows=40)
    p.wait_shown(("Err6", False, False))
    p.type("b")  # the banker's panel
    p.seen("card 6")
    rows = [line for line in p.screen() if line.strip().startswith("card ")]
    assert len(rows) == 6 and all("\u2014" in r for r in rows), rows  # none invented (B17)


def test_a_confirmed_hold_on_a_unit_switched_off_only_wakes_it_and_says_so_b16():
    from simulator import options
    from simulator.host import Host
    from simulator.terminal import Terminal

    host = Host(options.parse(["--virtual-clock", "--seed", "1"]))
    t = Terminal(host)
    host.protocol.handle("INSERT L 1")
    host.protocol.handle("KEY 1 M +")
    host.protocol.handle("REMOVE L")
    host.protocol.handle("ADVANCE 600000")  # long past the switch-off (B16)
    assert not host.unit.power
    t.feed("n")
    t.feed("y")  # hold C 3 s for a new game: the key that wakes it holds nothing
    assert host.unit.power and t.held is None
    assert t.note == words.say("note.woke.key", key="C")
    t.timers()
    assert json.loads(host.protocol.handle("BALANCES")[-1][3:])["1"] == 16000000


def test_a_bankruptcy_with_no_card_in_r_is_not_offered_and_says_what_it_needs_b21():
    from simulator import options
    from simulator.host import Host
    from simulator.terminal import Terminal

    host = Host(options.parse(["--virtual-clock", "--seed", "1"]))
    t = Terminal(host)
    host.protocol.handle("INSERT L 1")
    t.feed("X")
    assert t.asking is None and t.status == words.say("term.minus.no-card")
    t.feed("y")  # not taken as a yes to anything
    assert t.held is None
    t.feed("r2")
    t.feed("X")
    assert t.asking == "-" and t.status == words.say("term.ask.minus")


def _terminal():
    from simulator import options
    from simulator.host import Host
    from simulator.terminal import Terminal

    host = Host(options.parse(["--virtual-clock", "--seed", "1"]))
    return host, Terminal(host)


def test_esc_leaves_a_question_and_the_y_after_it_starts_no_new_game_b11():
    host, t = _terminal()
    host.protocol.handle("INSERT L 1")
    t.feed("1m+")
    host.protocol.handle("INSERT R 2")  # a bankruptcy is asked about with a card in R
    for ask in ("n", "X", "S"):
        t.feed(ask)
        t.feed("\x1b")  # never mind
        assert t.status == words.say("term.not-done")
        t.feed("y")  # no answer to anything now
        assert t.held is None, ask
    assert json.loads(host.protocol.handle("BALANCES")[-1][3:])["1"] == 16000000
    host.protocol.handle("REMOVE L")
    t.feed("l")
    t.feed("\x1b")
    assert t.status == "" and t.mode is None
    t.feed("7")  # an amount's digit now, not a card
    assert host.unit.entry == "7" and host.unit.slots["L"] is None


def test_keys_typed_during_a_hold_are_not_taken_and_the_hold_stays_said_b11():
    host, t = _terminal()
    host.protocol.handle("INSERT L 1")
    t.feed("n")
    t.feed("y")
    assert t.held == "C"
    t.feed("100k+")  # a new game would wipe it: not taken
    assert host.unit.entry == "" and t.status == words.say("term.holding", key="C")
    assert json.loads(host.protocol.handle("BALANCES")[-1][3:])["1"] == 15000000


def test_a_small_terminal_shows_the_line_that_says_what_happened():
    host, t = _terminal()
    t.feed("l9")  # 9 is no card: said on the > line
    lines, _ = t.screen(40, 12)
    assert any(text.startswith(" > ") for text, _ in lines[:12]), lines
