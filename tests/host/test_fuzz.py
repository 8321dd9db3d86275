"""Junk over a real pty (pyserial on the slave, the simulator on the master): every line gets
exactly one reply, nothing the junk says changes the unit, and it answers afterwards."""

import random
import re
import threading

import pytest

import targets
from host_tools.bank import Bank

REPLY = re.compile(r"^(OK( .*)?|ERR [a-z0-9]+(-[a-z0-9]+)*( [ -~]*)?)$")


@pytest.fixture
def sim(tmp_path):
    if not targets.simulator_available():
        pytest.skip("python -m simulator is not in this checkout yet")
    s = targets.Simulator("pty", tmp_path)
    yield s
    s.stop()


@pytest.fixture
def bank(sim):
    with Bank.open(sim.url, timeout=5.0) as b:
        b.insert("L", 1)
        b.press("M")  # something in the log, a card in, so "unchanged" means something
        yield b


def snapshot(bank):
    return bank.balances(), bank.state(), bank.log(200), bank.hello()


def read_replies(bank, n):
    replies = []
    for _ in range(n):
        line = bank.read_line(10.0)
        assert line is not None, "no reply after %d of %d lines" % (len(replies), n)
        replies.append(line)
    return replies


class Writer(threading.Thread):
    """Sends while the test reads, so neither side's pty buffer fills up; keeps its error."""

    def __init__(self, bank, data):
        super().__init__(daemon=True)
        self.bank, self.data, self.error = bank, data, None
        self.start()

    def run(self):
        try:
            self.bank.send_raw(self.data)
        except Exception as exc:  # reported by finish()
            self.error = exc

    def finish(self):
        self.join(30)
        assert self.error is None, self.error


def test_random_junk_lines_each_get_one_refusal(bank):
    before = snapshot(bank)
    rnd = random.Random(5)
    junk = []
    for _ in range(600):
        size = rnd.randrange(150)
        body = bytes(rnd.choice([b for b in range(256) if b != 10]) for _ in range(size))
        junk.append(b"X" + body)  # never blank, never a command word
    for i in range(0, len(junk), 50):
        batch = junk[i : i + 50]
        bank.send_raw(b"".join(line + b"\n" for line in batch))
        for line, reply in zip(batch, read_replies(bank, len(batch)), strict=True):
            assert reply.startswith("ERR "), (line, reply)
            assert REPLY.match(reply), reply  # printable ASCII, no junk echoed
    assert bank.read_line(0.05) is None  # exactly one reply each: nothing more came
    assert snapshot(bank) == before


def test_overlong_lines_get_line_too_long_and_are_skipped(bank):
    before = snapshot(bank)
    for length in (201, 1000, 5000, 100_000):
        bank.send_raw(b"KEY " + b"1" * (length - 4) + b"\n")
        assert read_replies(bank, 1)[0].startswith("ERR line-too-long")
        assert bank.read_line(0.02) is None
    line = "HELLO" + " " * 195  # exactly 200 bytes is allowed
    assert bank.exchange(line).ok
    assert snapshot(bank) == before


def test_a_blob_of_random_bytes_changes_nothing(bank):
    before = snapshot(bank)
    rnd = random.Random(11)
    blob = bytes(rnd.randrange(256) for _ in range(64 * 1024))
    writer = Writer(bank, blob + b"\nHELLO\n")
    replies = []
    while True:  # a blank junk line gets no reply, so the count is not known: read to HELLO
        line = bank.read_line(10.0)
        assert line is not None, "the simulator stopped answering after %d" % len(replies)
        replies.append(line)
        if line.startswith('OK {"device": "bank-unit"'):
            break
    writer.finish()
    assert all(REPLY.match(r) for r in replies), [r for r in replies if not REPLY.match(r)][:3]
    assert len(replies) > 100  # the junk did get answered
    assert snapshot(bank) == before


def test_a_flood_of_10000_commands_is_answered_in_order(bank):
    before = snapshot(bank)
    rnd = random.Random(3)
    menu = [
        ("STATE", "OK {"), ("BALANCES", 'OK {"1": '), ("HELLO", 'OK {"device"'),
        ("LOG 1", "OK ["), ("KEY 1 X", "ERR bad-key"), ("INSERT L 9", "ERR bad-argument"),
        ("REMOVE Z", "ERR bad-argument"), ("FROB", "ERR unknown-command"),
        ("INSERT L 2", "ERR slot-occupied"), ("EVENTS MAYBE", "ERR bad-argument"),
    ]
    plan = [rnd.choice(menu) for _ in range(10_000)]
    data = b"".join(cmd.encode() + b"\n" for cmd, _ in plan)
    writer = Writer(bank, data)
    replies = read_replies(bank, len(plan))
    writer.finish()
    wrong = [(cmd, got) for (cmd, want), got in zip(plan, replies, strict=True)
             if not got.startswith(want)]
    assert wrong == []
    assert bank.read_line(0.05) is None
    assert snapshot(bank) == before
    assert bank.exchange("HELLO").ok  # still responsive
