"""A line is a command only once its newline arrives (docs/protocol.md, "Lines"): a half line
that its sender leaves behind is dropped, on every transport. Real processes on both
interpreters, a real TCP socket, a real pty, real pipes. A dropped line moves no money (B4, B17)
and types no key (B2)."""

import json
import os
import subprocess
import sys
import time

import pytest

from tests.test_simulator_serving import INTERPRETERS, ask, connect, start, stop, tcp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def asleep(pid):
    """Wait (2 s at most) until the process is asleep in its wait: it has handled what woke it
    (on a loaded machine 50 ms may not be enough for it to be scheduled)."""
    for _ in range(100):
        with open("/proc/%d/stat" % pid) as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "S":
                return
        time.sleep(0.02)


def hang_up(conn):
    conn[1].close()  # the reader holds the socket open too
    conn[0].close()


def state_of(conn):
    reply = ask(conn, "STATE")
    assert reply.startswith("OK {"), reply
    return json.loads(reply[3:])


def balance(conn, card):
    reply = ask(conn, "BALANCES")
    assert reply.startswith("OK {"), reply
    return json.loads(reply[3:])[str(card)]


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_tcp_clients_half_key_line_types_nothing_for_the_next(interp):
    p, port = tcp("--virtual-clock", interp=interp)
    try:
        other = connect(port)
        assert ask(other, "INSERT L 3").startswith("OK")
        dead = connect(port)
        assert ask(dead, "HELLO").startswith("OK")
        dead[0].sendall(b"KEY 2")  # a script killed mid-line, a moment later
        time.sleep(0.05)
        hang_up(dead)
        time.sleep(0.05)  # the server, idle, sees the close at once
        assert state_of(other)["entry"] == ""
        assert ask(other, "KEY 150K +").startswith("OK")
        assert balance(other, 3) == 15150000  # B4: 150 K received, not 2,150 K
        other[0].close()
    finally:
        stop(p)


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_tcp_clients_half_maintenance_line_moves_no_money(interp):
    p, port = tcp("--virtual-clock", "--maintenance", interp=interp)
    try:
        dead = connect(port)
        assert ask(dead, "HELLO").startswith("OK")
        dead[0].sendall(b"SET BALANCE 3 15000")
        time.sleep(0.05)
        hang_up(dead)
        time.sleep(0.05)
        other = connect(port)
        ask(other, "HELLO")
        assert balance(other, 3) == 15000000
        log = json.loads(ask(other, "LOG")[3:])
        assert log == []
        other[0].close()
    finally:
        stop(p)


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_stdio_drops_a_last_line_without_its_newline(tmp_path, interp):
    state = str(tmp_path / "state")
    first = subprocess.run([interp, "-m", "simulator", "--headless", "--stdio", "--state", state,
                            "--virtual-clock"], cwd=ROOT, timeout=60, capture_output=True,
                           input=b"INSERT L 3\nKEY 1 0 0 K +\nKEY 5 0 K +")
    assert first.returncode == 0, first.stderr
    replies = first.stdout.decode().splitlines()
    assert len(replies) == 2 and all(r.startswith("OK {") for r in replies), replies
    assert b"a last line without its newline was dropped" in first.stderr
    again = subprocess.run([interp, "-m", "simulator", "--headless", "--stdio", "--state", state,
                            "--virtual-clock"], cwd=ROOT, timeout=60, capture_output=True,
                           input=b"BALANCES\nLOG\n")
    lines = again.stdout.decode().splitlines()
    assert json.loads(lines[0][3:])["3"] == 15100000  # the 100 K only, not the 50 K
    assert [t["amount"] for t in json.loads(lines[1][3:])] == [100000]


@pytest.mark.skipif(sys.platform != "linux", reason="the pty's hang-up as Linux reports it")
def test_a_pty_clients_half_line_is_dropped_when_it_closes():
    import serial  # pyserial, as the host tools open the pty

    p = start("--pty", "--virtual-clock")
    try:
        first = p.stdout.readline().decode()
        assert first.startswith("listening pty /dev/"), first
        path = first.split()[-1]
        a = serial.Serial(path, timeout=5)
        a.write(b"INSERT L 3\n")
        assert a.readline().startswith(b"OK {")
        a.write(b"KEY 2")  # and the script dies
        a.close()
        # The next script starts later than the same instant (a pty tells a leaving client
        # only by the hang-up the simulator sees while nobody has it open).
        time.sleep(0.05)
        asleep(p.pid)
        b = serial.Serial(path, timeout=5)
        b.write(b"KEY 150K +\n")
        reply = b.readline()
        assert reply.startswith(b"OK {"), reply
        b.write(b"BALANCES\n")
        assert json.loads(b.readline()[3:])["3"] == 15150000
        b.close()
        # and a client that stays finishes its own line, whatever the pause
        c = serial.Serial(path, timeout=5)
        c.write(b"KEY 1")
        c.write(b"0 K +\n")
        reply = c.readline()
        assert reply.startswith(b"OK {") and b'"text": "15.16"' in reply, reply
        c.close()
    finally:
        stop(p)
