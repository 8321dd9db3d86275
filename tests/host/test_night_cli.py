"""`bank night` (host_tools/night.py): the count and who wins by name (B19), the game clock
(B20), a bankruptcy in one step (B21) and the Free Parking pot (B22), against a TCP simulator;
and the other commands read game night's moves (`bank log`, `--csv`) without a stumble."""

import csv
import io
import json

import pytest

from conftest import reset, run
from host_tools.bank import Bank

START = 15000000


@pytest.fixture
def murl(sims):
    sim = sims("tcp", "--maintenance")
    with Bank.open(sim.url) as b:
        reset(b, True)
    yield sim.url
    with Bank.open(sim.url) as b:
        reset(b, True)  # a new game empties the pot ...
        b.request("SET POT OFF")  # ... and the next test finds it off, as by default


def test_b19_the_count_names_the_winner_by_name(capsys, url):
    assert run(capsys, "-p", url, "name", 3, "Ann")[0] == 0
    code, out, err = run(capsys, "-p", url, "night", "count", 3, "9M", "500K+", "1M-")
    assert code == 0, err
    assert "count: 1. Ann (card 3) 23.5 M; Ann (card 3) wins with 23.5 M" in out
    assert "the count is on, for the next player" in out  # why the next clock is refused
    code, out, _ = run(capsys, "-p", url, "night", "count", 5, "12M")
    assert "count: 1. card 5 27 M, 2. Ann (card 3) 23.5 M; card 5 wins with 27 M" in out
    code, out, _ = run(capsys, "-p", url, "night", "--json")
    got = json.loads(out)["count"]
    assert got == {"on": True, "cards": {"3": 23500000, "5": 27000000}, "ranking": [5, 3]}
    with Bank.open(url) as b:
        assert b.balances() == {c: START for c in range(1, 7)}  # no account moved
    code, out, _ = run(capsys, "-p", url, "night", "count", "--end")
    assert code == 0 and "the count is off" in out
    code, out, _ = run(capsys, "-p", url, "night")  # what was counted, kept once it is left
    assert out.count("count: 1. card 5 27 M, 2. Ann (card 3) 23.5 M; card 5 wins") == 1, out
    assert "the count is off" in out
    code, out, _ = run(capsys, "-p", url, "night", "clock", 90)
    assert code == 0 and "game clock: 90 min left" in out
    assert "the count is off" not in out  # said where the count is the subject only
    code, out, _ = run(capsys, "-p", url, "status")  # game night among the unit's state
    assert "\nnight    game clock: 90 min left\n" in out and "count:" not in out, out
    assert run(capsys, "-p", url, "night", "clock", "off")[0] == 0
    assert run(capsys, "-p", url, "name", 3)[0] == 0


def test_b19_a_count_past_the_five_cells_is_said_whole(capsys, url):  # B1: ----- on the unit
    code, out, err = run(capsys, "-p", url, "night", "count", 1, "99999M")
    assert code == 0, err
    assert "count: 1. card 1 100,014,000,000; card 1 wins with 100,014,000,000" in out, out
    assert run(capsys, "-p", url, "night", "count", "--end")[0] == 0


def test_b19_a_bad_amount_touches_nothing(capsys, url):
    code, _, err = run(capsys, "-p", url, "night", "count", 2, "9X")
    assert code == 2 and "9X" in err
    with Bank.open(url) as b:
        assert b.state()["count"] is None


def test_b19_an_amount_the_count_would_refuse_starts_no_count(capsys, url):
    code, _, err = run(capsys, "-p", url, "night", "count", 1, "2M", "5")
    assert code == 1 and "would refuse 5" in err and "(no-suffix)" in err, err
    with Bank.open(url) as b:
        assert b.state()["count"] is None and b.state()["display"]["text"] == "0"


def test_b20_the_clock_set_stopped_and_taken_away(capsys, url):
    code, out, err = run(capsys, "-p", url, "night", "clock", 90)
    assert code == 0, err
    assert "game clock: 90 min left" in out
    code, out, _ = run(capsys, "-p", url, "night", "clock", "stop")
    assert "game clock stopped: 90 min left" in out
    code, out, _ = run(capsys, "-p", url, "night", "clock", "off")
    assert "the game clock is off\nno game night" in out
    code, _, err = run(capsys, "-p", url, "night", "clock", "1000")
    assert code == 2 and "1-999" in err
    code, _, err = run(capsys, "-p", url, "night", "clock", "start")
    assert code == 1 and "no game clock runs" in err


def test_b21_a_bankruptcy_to_a_creditor_and_to_the_bank(capsys, url):
    assert run(capsys, "-p", url, "name", 4, "Bea")[0] == 0
    code, out, err = run(capsys, "-p", url, "night", "bankrupt", 2, "--to", 4)
    assert code == 0, err
    assert out == "card 2 is bankrupt: 15 M to Bea (card 4)\n"  # the move, said
    assert run(capsys, "-p", url, "name", 4)[0] == 0
    with Bank.open(url) as b:
        bal = b.balances()
        assert (bal[2], bal[4]) == (0, 2 * START)
        assert b.state()["slots"] == {"L": None, "R": None}
        assert b.log(1)[0]["kind"] == "bankrupt"
    code, _, err = run(capsys, "-p", url, "night", "bankrupt", 2)
    assert code == 1 and "nothing left to hand over" in err
    code, out, err = run(capsys, "-p", url, "night", "--json", "bankrupt", 4)
    assert code == 0, err
    rec = json.loads(out)
    assert (rec["kind"], rec["from"], rec["to"], rec["amount"]) == ("bankrupt", 4, "bank",
                                                                    2 * START)
    with Bank.open(url) as b:
        assert b.balances()[4] == 0 and b.log(1)[0]["to"] == "bank"


def test_b22_the_pot_needs_maintenance_to_turn_on(capsys, url):
    code, _, err = run(capsys, "-p", url, "night", "pot", "on")
    assert code == 1 and "maintenance mode" in err
    code, _, err = run(capsys, "-p", url, "night", "pot", "in", 1, "1M")
    assert code == 1 and "the Free Parking pot is off" in err


def test_b22_into_the_pot_and_collected_and_the_log_reads_it(capsys, murl):
    code, out, err = run(capsys, "-p", murl, "night", "pot", "on")
    assert code == 0, err
    assert out.startswith("the Free Parking pot is on: a card in R, an amount and + put money "
                          "in it\nFree Parking pot: 0\n")
    assert run(capsys, "-p", murl, "night", "pot", "in", 1, "2M")[0] == 0
    code, out, _ = run(capsys, "-p", murl, "night", "pot", "in", 2, "500K")
    assert "Free Parking pot: 2.5 M" in out
    code, _, err = run(capsys, "-p", murl, "night", "pot", "off")
    assert code == 1 and "pot-not-empty" in err
    code, out, _ = run(capsys, "-p", murl, "night", "pot", "collect", 6)
    assert code == 0 and "Free Parking pot: 0" in out
    code, out, err = run(capsys, "-p", murl, "log")
    assert code == 0, err
    assert "pot-in" in out and "pot-out" in out
    code, out, err = run(capsys, "-p", murl, "log", "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["kind"], r["from"], r["to"], r["balance_6"]) for r in rows[-1:]] == [
        ("pot-out", "pot", "6", str(START + 2500000))]
    code, _, err = run(capsys, "-p", murl, "night", "pot", "collect", 6)
    assert code == 1 and "empty" in err


def test_b19_b21_b22_in_the_count_pot_and_bankruptcy_are_refused_and_change_nothing(capsys,
                                                                                   murl):
    assert run(capsys, "-p", murl, "night", "pot", "on")[0] == 0
    assert run(capsys, "-p", murl, "night", "count", 3, "2M")[0] == 0
    with Bank.open(murl) as b:
        before = b.state()["count"], b.balances(), len(b.log(200))
    for args in (("pot", "in", 2, "1M"), ("pot", "collect", 5), ("bankrupt", 5, "--to", 4),
                 ("bankrupt", 3)):
        code, _, err = run(capsys, "-p", murl, "night", *args)
        assert code == 1 and "the count is on" in err, (args, err)
    with Bank.open(murl) as b:
        assert (b.state()["count"], b.balances(), len(b.log(200))) == before


def test_b20_at_the_clocks_end_the_clock_pot_and_bankruptcy_refuse_and_count_goes_on(capsys,
                                                                                     murl):
    assert run(capsys, "-p", murl, "night", "pot", "on")[0] == 0
    assert run(capsys, "-p", murl, "night", "clock", 1)[0] == 0
    with Bank.open(murl) as b:
        assert b.advance(60000)["display"]["text"] == "End"
    for args in (("clock", 5), ("pot", "in", 2, "1M"), ("bankrupt", 5)):
        code, _, err = run(capsys, "-p", murl, "night", *args)
        assert code == 1 and "shows End" in err, (args, err)
    with Bank.open(murl) as b:
        state = b.state()
        assert state["display"]["text"] == "End" and state["count"] is None
        assert b.balances() == {c: START for c in range(1, 7)}
    code, out, err = run(capsys, "-p", murl, "night", "count", 2, "1M")
    assert code == 0 and "count: 1. card 2 16 M" in out, err


def test_b22_a_backup_puts_the_pot_back(capsys, murl, tmp_path):
    assert run(capsys, "-p", murl, "night", "pot", "on")[0] == 0
    assert run(capsys, "-p", murl, "night", "pot", "in", 3, "4M")[0] == 0
    path = tmp_path / "b.json"
    assert run(capsys, "-p", murl, "backup", path)[0] == 0
    assert json.loads(path.read_text())["pot"] == 4000000
    with Bank.open(murl) as b:
        reset(b, True)  # a new game: the pot empty
        b.request("SET POT OFF")
        assert b.state()["pot"] is None
    code, _, err = run(capsys, "-p", murl, "restore", path)
    assert code == 0, err
    with Bank.open(murl) as b:
        assert b.state()["pot"] == 4000000 and b.balances()[3] == START - 4000000


def test_b22_a_backup_of_a_game_without_the_pot_turns_it_off(capsys, murl, tmp_path):
    # The pot left on would take a + with only an R card where the game it came from paid the
    # bank (B7): the restored game played by other rules.
    path = tmp_path / "b.json"
    assert run(capsys, "-p", murl, "backup", path)[0] == 0
    assert json.loads(path.read_text())["pot"] is None
    assert run(capsys, "-p", murl, "night", "pot", "on")[0] == 0
    assert run(capsys, "-p", murl, "night", "pot", "in", 3, "4M")[0] == 0
    code, _, err = run(capsys, "-p", murl, "restore", path)
    assert code == 0, err
    with Bank.open(murl) as b:
        assert b.state()["pot"] is None and b.balances()[3] == START


def test_b19_b20_the_clock_taken_away_does_not_say_a_count_kept_is_gone(capsys, url):
    for argv in (("count", 3, "2M"), ("count", 1, "1M"), ("count", "--end"), ("clock", 30)):
        assert run(capsys, "-p", url, "night", *argv)[0] == 0
    code, out, _ = run(capsys, "-p", url, "night", "clock", "off")
    assert code == 0 and "no count" not in out and "its last results kept" in out, out
    code, out, _ = run(capsys, "-p", url, "night")
    assert "wins" in out or "win" in out, out
