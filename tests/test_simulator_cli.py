"""The simulator's command line (docs/protocol.md, "The simulator's command line"), through
real processes, a real pty and a real TCP socket opened with pyserial."""

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest
import serial

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
INTERPRETERS = [sys.executable] + ([MICROPYTHON] if os.path.exists(MICROPYTHON) else [])


def start(*args):
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--headless", *args], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline().decode().strip()
    return p, first


def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=10)
    finally:
        if p.poll() is None:
            p.kill()


def ask(port, line):
    port.write((line + "\n").encode())
    while True:
        reply = port.readline().decode()
        assert reply.endswith("\n"), "no reply to %r" % line
        if not reply.startswith("! "):
            return reply.rstrip("\n")


def said(p, line, timeout=10):
    """Whether p says line on stderr within timeout seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if select.select([p.stderr], [], [], max(0, end - time.monotonic()))[0]:
            got = p.stderr.readline()
            if not got:
                return False
            if got.decode().rstrip("\n") == line:
                return True
    return False


def stdio(data, *args):
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio", *args],
                       input=data, capture_output=True, cwd=ROOT, timeout=60)
    return p


def test_tcp_serves_and_keeps_state_between_connections(tmp_path):
    p, first = start("--tcp", "0", "--virtual-clock", "--state", str(tmp_path))
    try:
        assert first.startswith("listening tcp 127.0.0.1:")
        url = "socket://" + first.split()[-1]
        with serial.serial_for_url(url, timeout=5) as s:
            assert ask(s, "HELLO").startswith('OK {"device": "bank-unit"')
            ask(s, "INSERT L 4")
            ask(s, "KEY 1M+")
        with serial.serial_for_url(url, timeout=5) as s:  # a new connection, the same unit
            assert json.loads(ask(s, "BALANCES")[3:])["4"] == 16000000
            assert json.loads(ask(s, "STATE")[3:])["slots"]["L"] == 4
    finally:
        stop(p)
    assert p.returncode == 0  # SIGTERM stops it as Ctrl-C does


@pytest.mark.parametrize("mode", ["--tcp", "--pty"])
def test_a_reader_that_takes_the_first_line_and_goes_stops_no_server_nor_its_table(tmp_path,
                                                                                   mode):
    # `simulator --headless --tcp 0 --table 0 | head -1`: the table's line, written after the
    # first, found its reader gone.
    p, first = start(*([mode] + (["0"] if mode == "--tcp" else [])), "--table", "0",
                     "--virtual-clock", "--state", str(tmp_path))
    try:
        p.stdout.close()
        assert said(p, "simulator: standard output cannot be written (Broken pipe); serving on")
        assert p.poll() is None
        url = ("socket://" + first.split()[-1]) if mode == "--tcp" else first.split()[-1]
        with serial.serial_for_url(url, timeout=5) as s:
            assert ask(s, "HELLO").startswith('OK {"device": "bank-unit"')
    finally:
        stop(p)
    assert p.returncode == 0 and b"Traceback" not in p.stderr.read()


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_stdio_whose_replies_cannot_be_written_stops_and_says_why(tmp_path, interp):
    with open("/dev/full", "wb") as full:
        p = subprocess.run([interp, "-m", "simulator", "--headless", "--state", str(tmp_path)],
                           input=b"HELLO\nINSERT L 1\n", stdout=full, stderr=subprocess.PIPE,
                           cwd=ROOT, timeout=60)
    assert p.returncode == 1
    assert p.stderr.decode().splitlines()[-1].lower() == (
        "simulator: standard output cannot be written (no space left on device): stopped")


def test_a_standard_output_closed_at_start_takes_no_file_of_the_game(tmp_path):
    closed = dict(stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, timeout=60,
                  preexec_fn=lambda: os.close(1))
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--state",
                        str(tmp_path / "a")], input=b"HELLO\n", **closed)
    assert p.returncode == 2 and p.stderr.decode() == (
        "simulator: standard output is closed: the protocol on stdio has nowhere to answer\n")
    assert not os.path.exists(str(tmp_path / "a"))
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--headless", "--tcp", str(port),
                          "--state", str(tmp_path / "b")], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                         preexec_fn=lambda: os.close(1))
    try:
        assert said(p, "simulator: made the folder %s (it was not there)" % (tmp_path / "b"))
        end = time.monotonic() + 10
        while time.monotonic() < end:  # listening once the game is booted
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.02)
        with serial.serial_for_url("socket://127.0.0.1:%d" % port, timeout=5) as s:
            assert ask(s, "HELLO").startswith('OK {"device": "bank-unit"')
            ask(s, "INSERT L 4")
            ask(s, "KEY 1M+")
    finally:
        stop(p)
    assert p.returncode == 0 and b"Traceback" not in p.stderr.read()
    with open(str(tmp_path / "b" / "bank.lock"), "rb") as f:
        assert f.read().strip().isdigit()  # its pid alone: no line meant for standard output


def test_a_relative_xdg_state_home_is_ignored_as_the_xdg_rule_says(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME="relative/dir")
    env.pop("DISPLAY", None)
    env.pop("BANK_SIM_STATE", None)
    subprocess.run([sys.executable, "-m", "simulator"], input=b"HELLO\n", capture_output=True,
                   cwd=str(tmp_path), env=dict(env, PYTHONPATH=ROOT), timeout=60, check=True)
    assert os.listdir(str(tmp_path / "home" / ".local" / "state")) == ["bank-unit-simulator"]
    assert not os.path.exists(str(tmp_path / "relative"))


def test_sigterm_stops_the_server_with_exit_status_0_and_the_game_kept(tmp_path):
    # docs/protocol.md's command line: --tcp and --pty serve until SIGINT or SIGTERM; every
    # move is on disk before its reply (B17), so a stop loses none.
    p, first = start("--tcp", "0", "--state", str(tmp_path))
    try:
        with serial.serial_for_url("socket://" + first.split()[-1], timeout=5) as s:
            ask(s, "INSERT L 2")
            ask(s, "KEY 3 0 0 K +")
    finally:
        stop(p)
    assert p.returncode == 0, p.stderr.read()
    p, first = start("--pty", "--state", str(tmp_path))  # the state folder is free again
    try:
        assert first.startswith("listening pty ")
        with serial.Serial(first.split()[-1], timeout=5) as s:
            assert json.loads(ask(s, "BALANCES")[3:])["2"] == 15300000
    finally:
        stop(p)
    assert p.returncode == 0, p.stderr.read()


def test_sigint_stops_the_server_started_with_sigint_ignored():
    # A shell script's background job starts with SIGINT ignored, which CPython keeps: the
    # simulator still stops on it, as the command line says (and as the unix port does).
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--headless", "--tcp", "0"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert p.stdout.readline().startswith(b"listening tcp ")
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=10) == 0, p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_pty_serves_with_pyserial(tmp_path):
    p, first = start("--pty", "--virtual-clock")
    try:
        assert first.startswith("listening pty /dev/")
        path = first.split()[-1]
        with serial.Serial(path, timeout=5) as s:
            assert ask(s, "hello").startswith("OK {")
            assert ask(s, "ADVANCE 60000").startswith('OK {"power": "off"')
        with serial.Serial(path, timeout=5) as s:
            assert ask(s, "STATE").startswith('OK {"power": "off"')
    finally:
        stop(p)


def test_a_pty_left_echoing_gets_each_reply_once_not_its_echo_answered(tmp_path):
    import termios

    p, first = start("--pty", "--virtual-clock")
    try:
        fd = os.open(first.split()[-1], os.O_RDWR | os.O_NOCTTY)
        try:
            attrs = termios.tcgetattr(fd)  # as `stty sane`, or a shell's cat, leaves a port
            attrs[3] |= termios.ECHO | termios.ICANON
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
            got = []
            with os.fdopen(fd, "rb", buffering=0, closefd=False) as f:
                for command in ("EVENTS ON", "INSERT L 1", "KEY 1 M -", "HELLO"):
                    os.write(fd, command.encode() + b"\n")
                    while True:  # ICANON: a read is a line
                        line = f.readline().decode().rstrip("\r\n")
                        got.append(line)
                        if not line.startswith("! "):
                            break
            # each reply in turn: an echoed reply or event answered (ERR ...) would come first
            replies = [g for g in got if not g.startswith("! ")]
            assert len(replies) == 4 and all(r.startswith("OK") for r in replies), got
            assert replies[-1].startswith('OK {"device": "bank-unit"')
        finally:
            os.close(fd)
    finally:
        stop(p)


def test_state_survives_restart_and_profile_change(tmp_path):
    out = stdio(b"INSERT R 2\nKEY 2.5M-\n", "--virtual-clock", "--state", str(tmp_path))
    assert out.returncode == 0
    out = stdio(b"HELLO\nBALANCES\n", "--state", str(tmp_path)).stdout.decode().splitlines()
    assert '"store": "ok"' in out[0]
    assert json.loads(out[1][3:])["2"] == 12500000
    out = stdio(b"HELLO\nBALANCES\n", "--state", str(tmp_path), "--profile", "classic")
    lines = out.stdout.decode().splitlines()
    assert '"profile": "classic"' in lines[0]
    assert json.loads(lines[1][3:])["2"] == 1500  # B15: another profile starts a new game


def test_seed_makes_deals_reproducible():
    script = b"KEY DEAL\n" + b"ADVANCE 100\n" * 600

    def end_step(*args):
        lines = stdio(script, "--virtual-clock", *args).stdout.decode().splitlines()
        for i, line in enumerate(lines):
            if '"deal": "done"' in line:
                return i
        raise AssertionError("the deal never ended")

    a = end_step("--seed", "11")
    assert a == end_step("--seed", "11")
    ends = {end_step("--seed", str(n)) for n in range(12, 18)}
    assert len(ends) > 1  # different seeds, different deals
    assert all(130 <= e <= 501 for e in ends | {a})  # 13-50 s in 100 ms steps


def test_usage_errors():
    for args in (["--tcp"], ["--tcp", "x"], ["--bogus"], ["--profile", "monopoly"],
                 ["--stdio", "--pty"], ["--terminal"], ["--seed", "١"], ["--tcp", "５５５５"]):
        p = stdio(b"", *args)
        assert p.returncode == 2, args
        assert p.stderr.startswith(b"simulator: "), p.stderr
        # why (with the choices, or then the synopsis): short, the why stays on the screen
        said = p.stderr.decode().splitlines()
        assert len(said) == 1 or said[1].startswith("usage: python -m simulator") and \
            len(said) <= 8 and "--help" in said[-1], said
    assert stdio(b"", "--help").stdout.startswith(b"usage: python -m simulator")


def test_a_number_is_ascii_digits_and_a_state_folder_is_no_option(tmp_path):
    # int() also reads " 5000", "+5000" and "5_000"; a --state with its folder forgotten took
    # the next option for one and ran without it (./--virtual-clock made, the real clock used).
    for args in (["--tcp", " 5000"], ["--tcp", "+5000"], ["--tcp", "5_000"], ["--seed", "1_0"]):
        p = subprocess.run([sys.executable, "-m", "simulator", "--headless", *args],
                           input=b"", capture_output=True, cwd=ROOT, timeout=60)
        assert p.returncode == 2 and p.stderr.decode().startswith(
            "simulator: %s takes a whole number\n" % args[0]), (args, p.stderr)
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--state",
                        "--virtual-clock"], input=b"HELLO\n", capture_output=True,
                       cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert p.returncode == 2 and p.stderr.decode().startswith(
        "simulator: --state needs a folder, not the option --virtual-clock"), p.stderr
    assert os.listdir(str(tmp_path)) == []


def test_a_refusal_names_what_named_the_state_folder_and_ports_that_collide(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless"], input=b"HELLO\n",
                       capture_output=True, cwd=ROOT, timeout=60,
                       env=dict(os.environ, BANK_SIM_STATE=str(afile)))
    assert (p.returncode, p.stderr.decode()) == (2, (
        "simulator: BANK_SIM_STATE %s is not a folder; give BANK_SIM_STATE a folder\n" % afile))
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--tcp", "5126",
                        "--table", "5126"], capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and p.stderr.decode().startswith(
        "simulator: --tcp and --table listen on two ports: 5126 is given to both\n"), p.stderr


def test_stdio_without_headless_is_refused_not_a_window_that_never_answers(tmp_path):
    for args in (["--stdio"], ["--stdio", "--terminal"]):
        p = subprocess.run([sys.executable, "-m", "simulator", *args, "--state", str(tmp_path)],
                           input=b"HELLO\n", capture_output=True, cwd=ROOT, timeout=60)
        assert (p.returncode, p.stdout) == (2, b""), args
        assert p.stderr.decode().splitlines()[0] == (
            "simulator: --stdio goes with --headless: the window and the terminal serve the "
            "protocol on --tcp PORT or --pty"), p.stderr
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_an_empty_state_folder_name_is_refused_not_a_game_kept_nowhere(interp):
    # Before, --state "" started a unit that kept nothing: a game played and lost at the end.
    for args in (["--headless", "--stdio", "--state", ""], ["--headless", "--state="],
                 ["--terminal", "--state", ""]):
        p = subprocess.run([interp, "-m", "simulator", *args], input=b"INSERT R 1\nKEY 1M-\n",
                           capture_output=True, cwd=ROOT, timeout=60)
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.decode().startswith("simulator: --state needs a folder"), p.stderr
        assert p.stdout == b"", args


@pytest.mark.skipif(MICROPYTHON not in INTERPRETERS, reason="no MicroPython unix port here")
def test_the_unix_port_refuses_what_only_cpython_runs_in_one_line_and_serves_headless(tmp_path):
    # The window, the terminal, the emulated Pico and the page's server need CPython: under
    # the unix port each ended in a traceback (no os.environ, no functools, no subprocess).
    state = ["--state", str(tmp_path)]
    for args in (state, ["--terminal"] + state, ["--pico"], ["--web", "0"], ["--web", "99999"]):
        p = subprocess.run([MICROPYTHON, "-m", "simulator", *args],
                           input=b"HELLO\n", capture_output=True, cwd=ROOT, timeout=60)
        said = p.stderr.decode().splitlines()
        assert p.returncode == 2 and len(said) == 1 and p.stdout == b"", (args, p.stderr)
        assert said[0].startswith("simulator: ") and "needs CPython" in said[0], said
    p = subprocess.run([MICROPYTHON, "-m", "simulator", "--headless", *state], input=b"HELLO\n",
                       capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith(b'OK {"device": "bank-unit"'), p.stderr


def test_a_long_log_after_a_batch_of_moves_is_answered_alike_on_both_interpreters():
    # A host that sends a game's worth of lines at once, then LOG 200: MicroPython's default
    # heap wrote LOG's reply a character at a time into one list, ran out, and the simulator
    # died with the replies of moves already made unsent.
    data = b"INSERT L 1\n" + b"KEY 10K + C\n" * 150 + b"LOG 200\nBALANCES\n"
    got = []
    for interp in INTERPRETERS:
        p = subprocess.run([interp, "-m", "simulator", "--headless", "--stdio"], input=data,
                           capture_output=True, cwd=ROOT, timeout=120)
        assert p.returncode == 0, (interp, p.stderr[-300:])
        lines = p.stdout.decode().splitlines()
        assert len(lines) == 153 and len(json.loads(lines[-2][3:])) == 200, interp
        assert json.loads(lines[-1][3:])["1"] == 15000000  # each move undone, as the keys said
        got.append(p.stdout)
    assert len(set(got)) == 1


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_the_headless_simulator_keeps_its_game_where_bank_sim_state_says(tmp_path, interp):
    # docs/simulator.md has BANK_SIM_STATE=DIR the same as --state DIR: headless, it kept
    # nothing, and a game played over TCP was gone at the next start without a word.
    def sim(lines, where):
        p = subprocess.run([interp, "-m", "simulator", "--headless"], input=lines.encode(),
                           env=dict(os.environ, BANK_SIM_STATE=where), capture_output=True,
                           cwd=ROOT, timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stdout.decode().splitlines()

    sim("INSERT L 1\nKEY 1 5 0 K +\n", str(tmp_path))
    hello, balances = sim("HELLO\nBALANCES\n", str(tmp_path))
    assert json.loads(hello[3:])["store"] == "ok" and json.loads(balances[3:])["1"] == 15150000
    assert json.loads(sim("HELLO\n", "none")[0][3:])["store"] == "new"
    # none in any case keeps nothing: NONE kept the game in a folder of that name
    try:
        for where in ("NONE", "None"):
            sim("INSERT L 1\nKEY 1 5 0 K +\n", where)
            assert json.loads(sim("HELLO\n", where)[0][3:])["store"] == "new", where
            assert not os.path.exists(os.path.join(ROOT, where)), where
    finally:
        for where in ("NONE", "None"):
            shutil.rmtree(os.path.join(ROOT, where), ignore_errors=True)


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_profile_that_starts_a_new_game_says_so_b15(tmp_path, interp):
    # The game in play was put away in silence: nothing on the unit shows it.
    def sim(lines, *args):
        p = subprocess.run([interp, "-m", "simulator", "--headless", "--state", str(tmp_path),
                            *args], input=lines.encode(), capture_output=True, cwd=ROOT,
                           timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stderr.decode()

    sim("INSERT R 2\nKEY 1M-\n")
    said = "simulator: --profile classic: a new game; the one before is kept if it had " \
        "transactions (GAMES, bank games)\n"
    assert sim("HELLO\n", "--profile", "classic") == said
    assert sim("HELLO\n", "--profile", "classic") == ""  # the stored game's: nothing new


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_state_folder_that_was_not_there_is_said_made(tmp_path, interp):
    # A mistyped --state was a new game begun in silence.
    said, folder = [], tmp_path / "typo" / "x"
    for _ in range(2):
        p = subprocess.run([interp, "-m", "simulator", "--headless", "--state", str(folder)],
                           input=b"HELLO\n",
                           capture_output=True, cwd=ROOT, timeout=60)
        assert p.returncode == 0 and p.stdout.startswith(b"OK {"), p.stderr
        said.append(p.stderr.decode())
    assert said == ["simulator: made the folder %s (it was not there)\n" % folder, ""]


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_path_or_argument_with_control_characters_is_said_escaped_never_raw(tmp_path, interp):
    # An escape sequence echoed raw recolours or retitles the terminal that reads the message.
    odd = "a\x1b[31mred\x07"
    runs = [("--state", str(tmp_path / odd)), ("--profile", odd),
            ("--state", str(tmp_path / "file" / odd))]
    (tmp_path / "file").write_text("")
    said = []
    for flag, value in runs:
        p = subprocess.run([interp, "-m", "simulator", "--headless", flag, value],
                           input=b"HELLO\n", capture_output=True, cwd=ROOT, timeout=60)
        said.append(p.stderr.decode().split("\n")[0])
    shown = "a\\x1b[31mred\\x07"
    assert said[:2] == [
        "simulator: made the folder %s/%s (it was not there)" % (tmp_path, shown),
        "simulator: unknown profile %s (world, classic, francs)" % shown]
    assert said[2].startswith("simulator: cannot make the state folder %s/file/%s (" % (
        tmp_path, shown)), said[2]


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_state_folder_replaced_under_a_running_simulator_takes_none_of_its_writes(tmp_path,
                                                                                   interp):
    # B17: the folder moved away and a copy put at its path is no longer the one held, so a
    # second simulator may hold it: the writes of both would interleave there, each losing the
    # other's acknowledged moves.
    state, old = tmp_path / "s", tmp_path / "old"
    p = subprocess.Popen([interp, "-m", "simulator", "--headless", "--stdio", "--state",
                          str(state)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)

    def asked(line):
        p.stdin.write(line.encode() + b"\n")
        p.stdin.flush()
        return p.stdout.readline().decode()

    try:
        asked("INSERT L 1")
        assert '"error": null' in asked("KEY 1 0 K +")
        os.rename(state, old)
        shutil.copytree(old, state)
        copy = {f.name: f.read_bytes() for f in state.iterdir()}
        assert '"error": "store-failed"' in asked("KEY 2 0 K +")  # refused: nothing changed
        assert asked("BALANCES").startswith('OK {"1": 15010000, "2": 15000000')
        assert {f.name: f.read_bytes() for f in state.iterdir()} == copy
    finally:
        p.stdin.close()
        p.wait(timeout=30)


def test_the_simulator_with_no_terminal_keeps_its_game_as_the_front_end_does(tmp_path):
    # `make sim` with its input piped (no display, no terminal): the protocol on stdio, and
    # the game kept where the terminal front end keeps it, as the README says; it said nothing
    # and kept nothing.
    env = dict(os.environ, BANK_SIM_STATE=str(tmp_path), DISPLAY="")

    def sim(lines):
        p = subprocess.run([sys.executable, "-m", "simulator"], input=lines.encode(), env=env,
                           capture_output=True, cwd=ROOT, timeout=60)
        assert p.returncode == 0, p.stderr
        return p.stdout.decode().splitlines(), p.stderr.decode()

    _, err = sim("INSERT L 1\nKEY 1 5 0 K +\n")
    assert "serving the protocol on stdio (the game kept in %s)" % tmp_path in err
    out, _ = sim("HELLO\nBALANCES\n")
    assert json.loads(out[0][3:])["store"] == "ok"
    assert json.loads(out[1][3:])["1"] == 15150000


def test_the_simulator_with_no_terminal_serves_the_port_it_was_asked_for(tmp_path):
    # `make sim SIMFLAGS="--tcp PORT"` run from a script (no display, no terminal): the port,
    # as asked, not stdio; and a port in use said, exit 2.
    env = dict(os.environ, BANK_SIM_STATE=str(tmp_path), DISPLAY="")
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--tcp", "0"], cwd=ROOT, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = p.stdout.readline().decode().strip()
        assert first.startswith("listening tcp 127.0.0.1:"), first
        port = int(first.rsplit(":", 1)[1])
        with serial.serial_for_url("socket://127.0.0.1:%d" % port, timeout=10) as s:
            assert ask(s, "HELLO").startswith('OK {"device": "bank-unit"')
        busy = subprocess.run([sys.executable, "-m", "simulator", "--tcp", str(port)], cwd=ROOT,
                              env=dict(env, BANK_SIM_STATE=str(tmp_path / "other")),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        assert busy.returncode == 2 and b"in use" in busy.stderr, busy.stderr
    finally:
        stop(p)
    # The port picked, not the 0 asked for: the listening line has its number.
    assert b"serving the protocol on a TCP port picked for it" in p.stderr.read()


def test_stdio_exits_at_end_of_input():
    # No final newline: the last line was never finished, so it is no command (docs/protocol.md)
    p = stdio(b"STATE\nHELLO", "--virtual-clock")
    assert p.returncode == 0
    lines = p.stdout.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith('OK {"power"')
    assert b"a last line without its newline was dropped" in p.stderr


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_pot_given_on_a_store_with_no_good_game_starts_and_says_it_was_not_set(tmp_path, interp):
    # B17's Err6 leaves nothing to set the pot on (B22): the simulator starts all the same,
    # the damage reported, and says on stderr that --pot was not set; the new game is the way on.
    def run(data, *args):
        return subprocess.run([interp, "-m", "simulator", "--headless", "--stdio",
                               "--virtual-clock", "--state", str(tmp_path), *args],
                              input=data, capture_output=True, cwd=ROOT, timeout=60)

    assert run(b"INSERT L 1\nKEY 1 M +\n").returncode == 0
    for name in ("bank.a", "bank.b"):
        if (tmp_path / name).exists():
            (tmp_path / name).unlink()  # every copy of the game gone: Err6
    p = run(b"HELLO\nBALANCES\n", "--pot", "on")
    assert p.returncode == 0, p.stderr
    hello, balances = p.stdout.decode().splitlines()
    assert '"store": "damaged"' in hello and balances.startswith("ERR no-game"), balances
    assert "simulator: --pot on not set: the store has no good game (Err6)" in p.stderr.decode()
    p = run(b"HOLD C 3000\nSET POT ON\nHELLO\n", "--pot", "on", "--maintenance")
    assert p.returncode == 0 and p.stdout.decode().splitlines()[1].startswith("OK")


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_pot_on_and_off_is_kept_with_the_game_b22(tmp_path, interp):
    # Where the profile is chosen, the Free Parking pot: kept on flash, and never turned off
    # while it holds money (the simulator says so and starts nothing).
    def run(data, *args):
        return subprocess.run([interp, "-m", "simulator", "--headless", "--stdio",
                               "--state", str(tmp_path), *args], input=data,
                              capture_output=True, cwd=ROOT, timeout=60)

    p = run(b"INSERT R 2\nKEY 1 M +\nSTATE\n", "--pot", "on")
    assert p.returncode == 0 and '"pot": 1000000' in p.stdout.decode().splitlines()[-1]
    p = run(b"STATE\n")
    assert '"pot": 1000000' in p.stdout.decode()
    p = run(b"STATE\n", "--pot", "off")
    assert p.returncode != 0 and p.stdout == b""
    assert "--pot off: the Free Parking pot holds 1 M;" in p.stderr.decode()  # as shown
    p = run(b"", "--pot", "maybe")
    assert p.returncode == 2 and "--pot is on or off" in p.stderr.decode()
