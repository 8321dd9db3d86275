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


NO_GAME = (b"ERR no-game no good copy of the game (Err6): none is invented; hold C for 3 s on "
           b"the unit for a new game\n")


def damaged_unit(text):
    """A unit booted on a damaged store, showing text: Err5 (the last good copy in use), or
    Err6 (no good copy: no balances, log or backup to give)."""

    def answer(line):
        w = line.upper().split()
        if w[0] == "HELLO":
            return DAMAGED.encode() + b"\n"
        if w[0] == "STATE":
            return b"OK " + json.dumps(_state(text, "store-damaged")).encode() + b"\n"
        if w[0] == "KEY":  # a host's keys: typed, and the damage still reported
            st = _state(text, "store-damaged", "".join(w[1:]))
            return b"OK " + json.dumps(st).encode() + b"\n"
        if w[0] == "INSERT":
            st = _state(w[2], "store-damaged")
            st["slots"][w[1]] = int(w[2])
            return b"OK " + json.dumps(st).encode() + b"\n"
        if text == "Err6" and w[0] in ("BALANCES", "LOG", "BACKUP"):
            return NO_GAME
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


ERR6 = "Err6: no good copy of the game was found. Hold C for 3 seconds for a new game"


def test_balances_without_a_good_copy_says_so_in_one_line_and_fails(capsys, fake):
    # B17: no good copy, no balances to report: never a table of six zeros.
    f = fake(damaged_unit("Err6"))
    code, out, err = run(capsys, "--port", f.url, "balances")
    assert (code, out) == (1, "")
    assert err.startswith("bank: no balances to show: " + ERR6) and err.endswith(
        "(no-game)\n") and err.count("\n") == 1
    code, out, err = run(capsys, "--port", f.url, "balances", "--json")
    assert (code, out) == (1, "") and ERR6 in err


def test_backup_without_a_good_copy_is_refused_and_writes_nothing(capsys, fake, tmp_path):
    f = fake(damaged_unit("Err6"))
    path = tmp_path / "b.json"
    code, out, err = run(capsys, "--port", f.url, "backup", path)
    assert (code, out) == (1, "") and not path.exists()
    assert err.startswith("bank: nothing backed up: " + ERR6) and err.count("\n") == 1


def test_status_words_err6_for_what_it_is(capsys, fake):
    f = fake(damaged_unit("Err6"))
    code, out, err = run(capsys, "--port", f.url, "status")
    assert code == 0, err
    assert "store damaged" in out and "display  Err6" in out
    assert "error    " + ERR6 in out and "Err5" not in out


def test_status_still_words_err5_for_the_last_good_copy(capsys, fake):
    f = fake(damaged_unit("Err5"))
    code, out, err = run(capsys, "--port", f.url, "status")
    assert code == 0, err
    assert "error    Err5: the unit's memory was damaged" in out and "Err6" not in out


def test_press_and_insert_without_a_good_copy_say_err6(capsys, fake):
    f = fake(damaged_unit("Err6"))
    code, out, err = run(capsys, "--port", f.url, "press", "5")
    assert code == 0 and err.startswith("bank: " + ERR6), err
    code, out, err = run(capsys, "--port", f.url, "insert", "L", "1")
    assert code == 0, err
    assert out.splitlines()[0] == "card 1 in L: no balance (no good copy of the game)"
    assert err.startswith("bank: " + ERR6)


def test_a_commit_without_a_good_copy_is_a_refusal_exit_1(capsys, fake):
    # No game (Err6): a + moves no money, and the unit sounds its error tone; it was exit 0.
    f = fake(damaged_unit("Err6"))
    for keys in ("100K+", "5-"):
        code, out, err = run(capsys, "--port", f.url, "press", keys)
        assert code == 1 and err.startswith("bank: the unit refused it: " + ERR6), err


def test_c_held_on_a_damaged_store_says_the_new_game_beside_the_damage(capsys, fake):
    # B11: C held 3 s starts a new game; the damage stays reported (B17) until the banker's key
    # on the unit, so it is no refusal of the hold, and the new game is said
    answer = damaged_unit("Err5")

    def with_hold(line):
        w = line.upper().split()
        if w[0] == "HOLD":
            return b"OK " + json.dumps(_state("0", "store-damaged")).encode() + b"\n"
        if w[0] == "LOG":
            return b"OK []\n"
        return answer(line)

    f = fake(with_hold)
    code, out, err = run(capsys, "--port", f.url, "hold", "C", "3000")
    assert code == 0 and out.endswith("new game: every account at 15,000,000\n"), (out, err)
