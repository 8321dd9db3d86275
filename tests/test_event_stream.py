"""A host that follows a simulator's events over TCP, on CPython and on the MicroPython unix
port (docs/protocol.md, "Events"): in random sessions with keys, cards, balances set in
maintenance, new games (HOLD C 3000, NEWGAME, SET PROFILE: B11, B15), kept games brought back
and a backup put back, the `! txn` and `! newgame` lines alone give BALANCES after every
command. And what a host sees of B16 and B17 after play: a key held past the switch-off minute
leaves the unit on, and HELLO's store is "ok" once a game has been played."""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

import eventplay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
INTERPRETERS = [
    sys.executable,
    pytest.param(MICROPYTHON, marks=pytest.mark.skipif(
        not os.path.exists(MICROPYTHON),
        reason="the MicroPython unix port wheel exists for Linux x86_64 only")),
]


class Simulator:
    """python -m simulator --headless --tcp 0 ..., and one TCP connection to it."""

    def __init__(self, interp, *args):
        self.p = subprocess.Popen([interp, "-m", "simulator", "--headless", "--tcp", "0",
                                   "--virtual-clock", *args], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = self.p.stdout.readline().decode()
        assert first.startswith("listening tcp 127.0.0.1:"), (first, self.p.stderr.read())
        self.port = int(first.split(":")[-1])
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.f = self.sock.makefile("rb")

    def ask(self, line):
        """The lines the simulator sent for line: its events, then its one reply."""
        self.sock.sendall((line + "\n").encode())
        out = []
        while True:
            got = self.f.readline().decode()
            assert got.endswith("\n"), "no reply to %r" % line
            out.append(got.rstrip("\n"))
            if not got.startswith("! "):
                return out

    def state(self, line):
        return eventplay.reply_json(self.ask(line))

    def close(self):
        self.f.close()
        self.sock.close()
        self.p.send_signal(signal.SIGTERM)
        try:
            self.p.wait(timeout=10)
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()


@pytest.fixture
def sim(request):
    made = []

    def start(interp, *args):
        s = Simulator(interp, *args)
        made.append(s)
        return s

    yield start
    for s in made:
        s.close()


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_the_events_alone_rebuild_balances_over_tcp(sim, interp, tmp_path):
    s = sim(interp, "--maintenance", "--seed", "7", "--state", str(tmp_path))
    seen = eventplay.play(s.ask, 11, 250)
    eventplay.enough(seen)
    # the state the events rebuilt is the one on flash, too: a restarted simulator has it
    bal = s.state("BALANCES")
    s.close()
    again = sim(interp, "--state", str(tmp_path))
    assert again.state("BALANCES") == bal


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_the_events_alone_rebuild_balances_and_the_pot_through_game_night_over_tcp(sim, interp):
    # B19-B22: bankruptcies, the pot's moves and setting, the count, among the rest.
    s = sim(interp, "--maintenance", "--seed", "7")
    seen = eventplay.play(s.ask, 5, 200, True)
    assert seen.get("bankrupt") and seen.get("pot-in"), seen


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_transaction_one_client_makes_reaches_a_client_following_the_events_at_once(sim,
                                                                                      interp):
    # The follower connected first, as the table's own line is: the events of the other
    # client's lines waited in its queue until something else woke the loop (on a virtual
    # clock nothing ever did; on a real one, a timer or the table's next STATE, 400 ms on).
    follower = sim(interp)
    assert follower.ask("EVENTS ON") == ["OK"]
    with socket.create_connection(("127.0.0.1", follower.port), timeout=10) as other:
        replies = other.makefile("rb")
        other.sendall(b"INSERT L 1\nKEY 1 0 K +\n")
        assert replies.readline().startswith(b"OK ") and replies.readline().startswith(b"OK ")
        seen = []
        while not seen or not seen[-1].startswith("! txn "):
            seen.append(follower.f.readline().decode())  # the socket's 10 s timeout: failed
        assert json.loads(seen[-1][6:])["kind"] == "receive"
        replies.close()


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_restore_sends_all_six_balances_over_tcp(sim, interp):
    s = sim(interp, "--maintenance")
    s.ask("INSERT R 2")
    s.ask("KEY 3M-")
    s.ask("REMOVE R")
    s.ask("HOLD C 3000")  # B11: the game with the payment is kept
    assert s.ask("EVENTS ON") == ["OK"]
    out = s.ask("RESTORE PREVIOUS")
    txn = [json.loads(x[6:]) for x in out if x.startswith("! txn ")]
    assert [t["kind"] for t in txn] == ["restore"]
    assert txn[0]["balances"] == s.state("BALANCES") == {
        "1": 15000000, "2": 12000000, "3": 15000000, "4": 15000000, "5": 15000000,
        "6": 15000000}


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_a_key_held_past_the_minute_leaves_the_unit_on_b16(sim, interp):
    s = sim(interp)
    state = s.state("HOLD 1 61000")
    assert state["power"] == "on" and state["entry"] == "1"
    assert s.state("ADVANCE 59999")["power"] == "on"  # the minute counts from the release
    assert s.state("ADVANCE 1")["power"] == "off"


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_hello_says_ok_once_a_game_is_played_b17(sim, interp, tmp_path):
    s = sim(interp, "--state", str(tmp_path))
    assert s.state("HELLO")["store"] == "new"
    s.ask("INSERT L 4")
    assert s.state("HELLO")["store"] == "new"  # a card moves no money
    s.ask("KEY 150K+")
    assert s.state("HELLO")["store"] == "ok"
