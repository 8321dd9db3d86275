"""The host tools on a unit whose store is damaged (B17), against a fake unit that answers as
the firmware does: the damage is said for what it is, and what the unit cannot vouch for is
never printed or saved as if it could."""

import json

import pytest

import fakes
from host_tools import cli

START = 15000000
DAMAGED = ('OK {"device": "bank-unit", "firmware": "fake", "protocol": 1, "profile": "world", '
           '"store": "damaged"}')


def _state(text, error, entry=""):
    return {"power": "on", "display": {"text": text, "k": False, "M": False}, "red": "off",
            "green": "off", "slots": {"L": None, "R": None}, "entry": entry, "deal": "idle",
            "sound": 2, "error": error, "tally": 0, "maintenance": False}


def damaged_unit(text):
    """A unit booted on a damaged store, showing text (Err5: the last good copy in use)."""

    def answer(line):
        w = line.upper().split()
        if w[0] == "HELLO":
            return DAMAGED.encode() + b"\n"
        if w[0] == "STATE":
            return b"OK " + json.dumps(_state(text, "store-damaged")).encode() + b"\n"
        if w[0] == "KEY":  # a host's keys: typed, and the damage still reported
            st = _state(text, "store-damaged", "".join(w[1:]))
            return b"OK " + json.dumps(st).encode() + b"\n"
        if w[0] == "BALANCES":
            return b"OK " + json.dumps({str(c): START for c in range(1, 7)}).encode() + b"\n"
        if w[0] == "NAMES":
            return b"OK " + json.dumps({str(c): None for c in range(1, 7)}).encode() + b"\n"
        return b"ERR unknown-command\n"

    return answer


@pytest.fixture
def fake():
    made = []

    def make(answer):
        f = fakes.FakeUnit(answer)
        made.append(f)
        return f

    yield make
    for f in made:
        f.close()


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_press_on_a_damaged_store_is_done_and_the_damage_said_not_a_refusal(capsys, fake):
    # B17: the report stays until the banker's key on the unit (a host's key is none), so the
    # keys a host pressed are not refused for it: exit 0, the damage said beside the display.
    f = fake(damaged_unit("Err5"))
    code, out, err = run(capsys, "--port", f.url, "press", "5")
    assert (code, out) == (0, "display Err5\n"), err
    assert err.startswith("bank: Err5: the unit's memory was damaged") and err.endswith(
        " (store-damaged)\n")
    assert "refused" not in err
