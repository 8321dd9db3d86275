"""`python -m host_tools` / `bank`: every subcommand and every error, by message and exit code.

Most run `cli.main(argv)` in this process against a TCP simulator (fast); a few run the real
`python -m host_tools` to show there is no traceback and that Ctrl-C is clean."""

import csv
import datetime
import io
import json
import time
import os
import signal
import subprocess
import sys
import types

import pytest
import serial

import fakes
import targets
from conftest import reset, run
from desktop import words
from host_tools import cli, link
from host_tools.bank import Bank

START = 15000000


def talk(url):
    return Bank.open(url)


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


# -- reading -------------------------------------------------------------------------------------
def test_status(capsys, url):
    code, out, err = run(capsys, "--port", url, "status")
    assert code == 0 and err == ""
    assert "unit     bank-unit firmware" in out and "protocol 1, profile world" in out
    assert "power    on" in out
    assert "slots    L: -  R: -" in out
    assert "sound    2 (loud)" in out


def test_status_json(capsys, url):
    code, out, _ = run(capsys, "--port", url, "status", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["hello"]["device"] == "bank-unit" and doc["state"]["power"] == "on"


def test_balances(capsys, url):
    with talk(url) as b:
        b.insert("L", 2)
        b.press("150K+")
    code, out, _ = run(capsys, "--port", url, "balances")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["card", "balance"]
    assert lines[2].split() == ["2", "15,150,000"]
    assert lines[1].split() == ["1", "15,000,000"]
    code, out, _ = run(capsys, "--port", url, "balances", "--json")
    assert json.loads(out) == {str(c): START + (150000 if c == 2 else 0) for c in range(1, 7)}


def test_log_table_csv_json(capsys, url):
    with talk(url) as b:
        b.insert("L", 1)
        b.press("150K+")
        b.press("M")
    code, out, _ = run(capsys, "--port", url, "log")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["seq", "kind", "from", "to", "amount"]
    assert lines[2].split()[1:] == ["receive", "bank", "1", "150,000", "serial", "1=15,150,000"]
    assert lines[3].split()[1:] == ["go", "bank", "1", "2,000,000", "serial", "1=17,150,000"]
    code, out, _ = run(capsys, "--port", url, "log", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["kind"] for r in rows] == ["receive", "go"]
    assert rows[0]["amount"] == "150000" and rows[0]["to"] == "1" and rows[0]["via"] == "serial"
    # The balances after each move, one column per card, no JSON to unpack.
    assert "balances" not in rows[0]
    assert rows[0]["balance_1"] == "15150000" and rows[1]["balance_1"] == "17150000"
    assert rows[0]["balance_2"] == "15000000" and list(rows[0])[-6:] == [
        "balance_%d" % c for c in range(1, 7)]
    code, out, _ = run(capsys, "--port", url, "log", "--json", "-n", "1")
    (entry,) = json.loads(out)
    assert code == 0 and entry["kind"] == "go"


def test_log_csv_has_all_six_balances_on_every_row(capsys, murl):
    # A spreadsheet needs every card's balance after each move, not only the cards it moved.
    seen = []
    with talk(murl) as b:
        b.insert("L", 1)
        for keys in ("150K+", "M", "C"):  # B4, B9, B10 (an undo)
            b.press(keys)
            seen.append(b.balances())
        b.insert("R", 4)
        b.press("2M-")  # B6: 4 pays 1
        seen.append(b.balances())
        b.remove("L")
        b.remove("R")
        b.set_balance(6, 1000)
        seen.append(b.balances())
    code, out, _ = run(capsys, "--port", murl, "log", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["kind"] for r in rows] == ["receive", "go", "undo", "transfer", "set"]
    assert [{c: int(r["balance_%d" % c]) for c in range(1, 7)} for r in rows] == seen
    code, out, _ = run(capsys, "--port", murl, "log", "--csv", "-n", "2")  # a window of it
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [{c: int(r["balance_%d" % c]) for c in range(1, 7)} for r in rows] == seen[-2:]
    run(capsys, "--port", murl, "newgame")
    assert run(capsys, "--port", murl, "restore", "--previous")[0] == 0  # B11: its log too
    code, out, _ = run(capsys, "--port", murl, "log", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["kind"] for r in rows][-2:] == ["set", "restore"]
    assert [{c: int(r["balance_%d" % c]) for c in range(1, 7)} for r in rows] == seen + seen[-1:]


def test_log_empty(capsys, url):
    code, out, _ = run(capsys, "--port", url, "log")
    assert (code, out) == (0, "(no transactions)\n")


# -- keys and cards ------------------------------------------------------------------------------
def test_press_insert_remove(capsys, url):
    code, out, _ = run(capsys, "--port", url, "insert", "l", "3")
    # B3: the display shows the card number first; the balance is said too.
    assert (code, out) == (0, "card 3 in L: balance 15,000,000\ndisplay 3\n")
    code, out, _ = run(capsys, "--port", url, "press", "1", "5", "0", "K")
    assert (code, out) == (0, "display 150 k\n")
    code, out, err = run(capsys, "--port", url, "press", "+")
    assert (code, out) == (0, "display 15.15 M\n")
    assert err == "bank: starting from 150K, typed on the unit before this command\n"
    code, out, _ = run(capsys, "--port", url, "remove", "L")
    assert code == 0
    with talk(url) as b:
        assert b.balances()[3] == START + 150000
        assert b.state()["slots"] == {"L": None, "R": None}


def test_press_says_what_an_undo_reversed_and_the_volume_a_dot_set(capsys, url):
    # B10: the display shows the payer's balance back; the words say which move went back.
    run(capsys, "--port", url, "insert", "R", "3")
    run(capsys, "--port", url, "insert", "L", "2")
    code, out, _ = run(capsys, "--port", url, "press", "2M-")  # B6: 3 pays 2
    assert (code, out) == (0, "display 13 M\n")
    with talk(url) as b:
        seq = b.log(1)[0]["seq"]
    code, out, _ = run(capsys, "--port", url, "press", "C")
    assert (code, out) == (0, "display 15 M\nC reversed #%d: 2 M back from card 2 to card 3\n"
                           % seq)
    code, out, _ = run(capsys, "--port", url, "press", "C")  # nothing left to reverse
    assert (code, out) == (0, "display 15 M\n")
    run(capsys, "--port", url, "remove", "L")
    run(capsys, "--port", url, "remove", "R")
    code, out, _ = run(capsys, "--port", url, "press", ".")  # B12: no card, nothing typed
    assert (code, out) == (0, "display 1\nsound 1 (soft)\n")
    with talk(url) as b:
        assert b.balances()[2] == b.balances()[3] == START and b.state()["sound"] == 1


def test_a_card_taken_from_a_unit_switched_off_says_its_display_is_blank(capsys, url):
    run(capsys, "--port", url, "insert", "L", "1")
    with talk(url) as b:
        b.advance(61000)  # B16: off after a minute untouched
    code, out, _ = run(capsys, "--port", url, "remove", "L")
    assert (code, out) == (0, "display (blank)\n")  # as status says it, never an empty line


def test_press_refused_by_the_unit_is_exit_1(capsys, url):
    run(capsys, "--port", url, "insert", "R", "1")
    code, out, err = run(capsys, "--port", url, "press", "16M-")
    assert code == 1
    # The window's own sentence (firmware/desktop/words.py), balances read for it (B8)
    assert err == ("bank: the unit refused it: card 1 cannot pay 16 M: it has 15 M "
                   "(insufficient-funds); 16M is still typed (bank press C clears it)\n")


def test_a_refusal_is_said_for_the_key_that_was_refused_b2_b7(capsys, url):
    code, out, err = run(capsys, "--port", url, "press", "1.5.")
    assert (code, err) == (1, "bank: the unit refused it: an amount has one decimal point at "
                              "most (bad-entry); 1.5 is still typed (bank press C clears it)\n")
    run(capsys, "--port", url, "press", "C")
    run(capsys, "--port", url, "insert", "L", "1")
    run(capsys, "--port", url, "insert", "R", "2")
    code, out, err = run(capsys, "--port", url, "press", "2M+")
    assert code == 1 and err.startswith(
        "bank: the unit refused it: with two cards in, press \u2212 to pay from R (card 2) to L "
        "(card 1); + is for one card in L (wrong-slot)"), err


def test_a_refused_key_stops_the_keys_after_it_so_no_money_moves_b2(capsys, url):
    run(capsys, "--port", url, "insert", "L", "3")
    code, out, err = run(capsys, "--port", url, "press", "1.5.M+")
    assert (code, out) == (1, "display 1.5\n")
    assert err == ("bank: the unit refused it: an amount has one decimal point at most "
                   "(bad-entry); 1.5 is still typed (bank press C clears it); not pressed after "
                   "it: M +\n")
    with talk(url) as b:
        assert b.log() == [] and b.state()["entry"] == "1.5"


def test_a_refusal_after_keys_that_moved_money_says_they_went_through(capsys, url):  # B9
    run(capsys, "--port", url, "insert", "L", "4")
    code, out, err = run(capsys, "--port", url, "press", "M", "M")
    assert code == 1
    assert err.startswith("bank: the unit refused it: ") and err.endswith(
        "(go-taken); before it, 1 transaction went through (bank log 1)\n"), err
    code, out, err = run(capsys, "--port", url, "press", "1M+", "2M+", "30M+")
    assert code == 1 and err.endswith(
        "; before it, 2 transactions went through (bank log 2)\n"), err
    with talk(url) as b:
        assert b.balances()[4] == START + 5000000


def test_a_link_lost_after_a_money_key_says_the_money_may_have_moved(capsys, url):
    run(capsys, "--port", url, "insert", "L", "6")
    relay = fakes.Relay(url, "KEY +")
    code, out, err = run(capsys, "--port", relay.url, "press", "2M+")
    assert code == 5 and "went away" in err and err.endswith(
        "; the keys sent (2 M +) may have moved money: see bank log once the unit answers\n")
    with talk(url) as b:
        assert b.balances()[6] == START + 2000000  # it had: the unit took the +
    relay = fakes.Relay(url, "KEY 1")
    code, out, err = run(capsys, "--port", relay.url, "press", "1K")
    assert code == 5 and "may have moved money" not in err


def test_a_garbled_reply_to_a_money_key_says_the_money_may_have_moved_and_sends_no_more(
        capsys, fake):
    # The unit had the + and its reply did not read: exit 7 said nothing of the money, and
    # EVENTS OFF still went to a unit that misbehaved.
    def unit(line):
        word = line.upper()
        if word == "HELLO":
            return fakes.HELLO.encode() + b"\n"
        if word == "KEY +":
            return b"OK {not json\n"
        if word.startswith("EVENTS"):
            return b"OK\n"
        return fakes.STATE.encode() + b"\n"  # STATE, and each key before the +

    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "press", "2M+")
    assert code == 7 and "unparseable reply to 'KEY +'" in err and err.endswith(
        "; the keys sent (2 M +) may have moved money: see bank log once the unit answers\n")
    assert f.received[-1] == "KEY +"


def test_a_refused_entry_left_typed_is_said_and_not_added_to(capsys, url):  # B2
    run(capsys, "--port", url, "insert", "R", "1")
    code, out, err = run(capsys, "--port", url, "press", "99M-")
    assert (code, out) == (1, "display 99 M\n")
    # the limit is the profile's (firmware/brain/profiles.py), said as the window says it
    assert err == ("bank: the unit refused it: 99 M is above the largest amount at one time, "
                   "20 M: split it in two (above-maximum); 99M is still typed (bank press C "
                   "clears it)\n")
    code, out, err = run(capsys, "--port", url, "status")
    assert "entry    99M\n" in out
    assert ("error    99 M is above the largest amount at one time, 20 M: split it in two "
            "(above-maximum)\n") in out
    # 5K- after it would be 99M then a refused 5: refused here, before any key is sent
    code, out, err = run(capsys, "--port", url, "press", "5K-")
    assert (code, out) == (1, "")
    assert err == ("bank: 99M is typed on the unit, left from before: these keys would add to "
                   "it. Clear it first (bank press C), or type onto it with --onto-entry\n")
    with talk(url) as b:
        assert b.state()["entry"] == "99M" and b.log() == []
    code, out, err = run(capsys, "--port", url, "press", "C")  # B10: C clears the entry
    assert (code, out, err) == (0, "display 15 M\n", "")  # as advised: no warning of it
    code, out, err = run(capsys, "--port", url, "press", "50K-")
    assert (code, out, err) == (0, "display 14.95 M\n", "")
    with talk(url) as b:
        assert b.balances()[1] == START - 50000
    code, out, err = run(capsys, "--port", url, "press", "50K\u2212")  # − as README writes it
    assert (code, out, err) == (0, "display 14.9 M\n", "")


def test_press_onto_an_entry_on_purpose(capsys, url):  # B2
    run(capsys, "--port", url, "insert", "L", "2")
    run(capsys, "--port", url, "press", "1")
    code, out, err = run(capsys, "--port", url, "press", "--onto-entry", "5K+")
    assert (code, out) == (0, "display 15.015 M\n")
    assert err == "bank: starting from 1, typed on the unit before this command\n"


def test_press_d_is_deal_as_in_the_window(capsys, url):  # B13
    code, out, err = run(capsys, "--port", url, "press", "d")
    assert (code, err) == (0, "")
    with talk(url) as b:
        assert b.state()["deal"] == "running"
        b.press("DEAL")  # stops it
    code, _, err = run(capsys, "--port", url, "press", "e")
    assert code == 2 and "'e' is not a key (keys: 0 1 2" in err and "D is DEAL" in err


def test_press_with_no_card_says_no_money_moved(capsys, url):  # B14
    code, out, err = run(capsys, "--port", url, "press", "150K+")
    assert (code, out) == (0, "display 150 k\n")  # the unit did as told: the tally's total
    assert err == ("bank: no card is in, so no money moved: + and - added to the tally (the "
                   "adding machine), now 150,000\n")
    with talk(url) as b:
        assert b.log() == [] and b.balances()[1] == START
        b.insert("L", 1)
    code, out, err = run(capsys, "--port", url, "press", "150K+")  # B4: with a card, a receipt
    assert (code, out, err) == (0, "display 15.15 M\n", "")


def test_keys_that_set_the_game_clock_are_not_said_to_go_to_the_tally(capsys, url):  # B20
    code, _, err = run(capsys, "--port", url, "hold", "K", "3000")
    assert (code, err) == (0, "")
    code, out, err = run(capsys, "--port", url, "press", "45+")
    assert (code, out, err) == (0, "display 45.00\n", "")
    with talk(url) as b:
        assert b.state()["clock"]["minutes"] == 45 and b.state()["tally"] == 0


def test_status_says_the_tally_and_maintenance_mode(capsys, url, murl):
    run(capsys, "--port", url, "press", "2M+")  # B14: no card in
    code, out, _ = run(capsys, "--port", url, "status")
    assert code == 0 and "tally    2,000,000\n" in out
    assert "maint    off: maintenance mode is entered by holding DEAL 3 s on the unit\n" in out
    code, out, _ = run(capsys, "--port", murl, "status")
    assert "tally    0\n" in out
    assert "maint    on: maintenance mode (DEAL held 3 s on the unit leaves it)\n" in out


def test_press_a_typo_touches_nothing(capsys, url):
    code, out, err = run(capsys, "--port", url, "press", "1", "x")
    assert code == 2 and "'x' is not a key" in err
    with talk(url) as b:
        assert b.state()["entry"] == ""


def test_press_wakes_a_unit_that_switched_off(capsys, url):  # B16
    with talk(url) as b:
        assert b.advance(61000)["power"] == "off"
    code, out, _ = run(capsys, "--port", url, "press", "10K")
    assert code == 0
    with talk(url) as b:
        state = b.state()
    assert state["power"] == "on" and state["entry"] == "10K"  # no key was lost


def test_hold(capsys, url):
    with talk(url) as b:
        b.insert("L", 1)
        b.press("M")
    code, _, _ = run(capsys, "--port", url, "hold", "C", "3000")
    assert code == 0
    with talk(url) as b:
        assert b.log() == []  # B11: a new game


def test_hold_c_for_a_new_game_says_so_b11(capsys, url):
    run(capsys, "--port", url, "insert", "L", "1")
    run(capsys, "--port", url, "press", "150K+")
    run(capsys, "--port", url, "remove", "L")
    code, out, _ = run(capsys, "--port", url, "hold", "C", "1000")
    assert code == 0 and "new game" not in out  # held too briefly: the game goes on
    code, out, _ = run(capsys, "--port", url, "hold", "C", "3000")
    assert (code, out) == (0, "display 0\nnew game: every account at 15,000,000\n")
    code, out, _ = run(capsys, "--port", url, "hold", "C", "3000")  # a game with none, too
    assert (code, out) == (0, "display 0\nnew game: every account at 15,000,000\n")


def test_insert_refused(capsys, url):
    run(capsys, "--port", url, "insert", "L", "3")
    code, _, err = run(capsys, "--port", url, "insert", "L", "4")
    assert code == 1 and err.startswith("bank: unit refused 'INSERT L 4': slot-occupied")
    code, _, err = run(capsys, "--port", url, "remove", "R")
    assert code == 1 and "slot-empty" in err


def test_bad_usage_is_exit_2(capsys, url):
    with pytest.raises(SystemExit) as e:
        cli.main(["--port", url, "insert", "X", "3"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["--port", url, "insert", "L", "7"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err

    for wait in ("0", "-1", "nan", "inf", "1e400", "3601"):  # inf ended in a traceback
        code, _, err = run(capsys, "--port", url, "--timeout", wait, "status")
        assert code == 2 and "--timeout is seconds to wait for a reply" in err, (wait, err)
        assert err.count("\n") == 1


# -- run -----------------------------------------------------------------------------------------
GOOD_SCRIPT = """\
# receive 150k on card 1 (B4)
> HELLO
< OK {"device": "bank-unit", "protocol": 1}
> INSERT L 1
< OK {"slots": {"L": 1, "R": null}}
> EVENTS ON
< OK
> KEY 1 5 0 K +
< ! tone {"name": "money-in"}
< OK {"display": {"text": "15.15", "M": true}}
> KEY 1 X
< ERR bad-key
> BALANCES
< OK {"1": 15150000, "2": 15000000}
> STATE
< OK {"power": "on", *
> LOG 1
< OK [{"kind": "receive", "amount": 150000, "via": "*"}]
> EVENTS OFF
"""


def test_run_a_script_that_holds(capsys, url, tmp_path):
    path = tmp_path / "good.txt"
    path.write_text(GOOD_SCRIPT)
    code, out, _ = run(capsys, "--port", url, "run", path)
    assert code == 0
    assert out.endswith("good.txt: all 9 commands got the expected reply\n")


def test_run_a_script_that_does_not_hold(capsys, url, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("> INSERT L 1\n< OK {\"slots\": {\"L\": 2}}\n> HELLO\n< OK *\n"
                    "> EVENTS ON\n> KEY 1 0 K +\n< ! tone {\"name\": \"money-out\"}\n< OK *\n")
    code, out, _ = run(capsys, "--port", url, "run", path)
    assert code == 1
    assert "bad.txt:2: > INSERT L 1\n    expected OK {\"slots\": {\"L\": 2}}\n" in out
    assert "bad.txt:7: > KEY 1 0 K +\n    expected event ! tone {\"name\": \"money-out\"}" in out
    assert "2 of 4 commands did not get the expected reply" in out


def test_run_fail_fast_and_verbose(capsys, url, tmp_path):
    path = tmp_path / "ff.txt"
    path.write_text("> HELLO\n< ERR nope\n> INSERT L 1\n")
    code, out, _ = run(capsys, "--port", url, "run", "-x", "-v", path)
    assert code == 1
    assert out.startswith("> HELLO\n< OK {\"device\": \"bank-unit\"")
    assert "INSERT" not in out  # stopped at the first failure
    with talk(url) as b:
        assert b.state()["slots"]["L"] is None


def test_run_syntax_error_and_missing_file(capsys, url, tmp_path):
    path = tmp_path / "syntax.txt"
    path.write_text("> HELLO\nOK\n")
    code, _, err = run(capsys, "--port", url, "run", path)
    assert code == 2 and "syntax.txt:2: lines start with '> '" in err
    code, _, err = run(capsys, "--port", url, "run", tmp_path / "nope.txt")
    assert code == 2 and "cannot read" in err and "No such file" in err


def test_run_of_an_endless_device_is_refused_and_sends_nothing(capsys, fake):
    f = fake(lambda line: fakes.HELLO.encode() + b"\n")
    code, out, err = run(capsys, "--port", f.url, "run", "/dev/zero")
    assert (code, out) == (2, "") and err == (
        "bank: /dev/zero is not a script: it is longer than 4 MB, and no script is\n")
    assert [x for x in f.received if not x.upper().startswith("HELLO")] == []


# -- monitor -------------------------------------------------------------------------------------
def test_mem_on_a_unit(capsys, fake):
    # docs/protocol-extensions.md: MEM, the heap a unit reports (main.py), in KB and bytes.
    def unit(line):
        if line.upper() == "MEM":
            return (b'OK {"firmware": 40960, "boot": 45056, "now": 58368, "free": 140288, '
                    b'"gc_us": 3125}\n')
        return fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"ERR unknown\n"

    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "mem")
    assert code == 0, err
    assert out.splitlines() == ["the firmware took at boot  40.0 KB (40960 bytes)",
                                "in use after boot          44.0 KB (45056 bytes)",
                                "in use now                 57.0 KB (58368 bytes)",
                                "free now                   137.0 KB (140288 bytes)",
                                "a gc.collect() took        3.12 ms"]
    code, out, err = run(capsys, "--port", f.url, "mem", "--json")
    assert code == 0 and json.loads(out)["firmware"] == 40960


def test_mem_on_the_simulator_is_refused(capsys, url):
    code, out, err = run(capsys, "--port", url, "mem")
    assert code == 1 and out == "" and "unsupported" in err


def test_monitor_prints_events(capsys, fake):
    f = fake(fakes.eventful(3))
    code, out, err = run(capsys, "--port", f.url, "monitor", "--count", "3")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].split(None, 2)[1:] == ["tone", '{"name": "money-in", "n": 0}']
    assert "stopped after 3 events" in err
    assert f.received[-1] == "EVENTS OFF"  # left the unit as it found it


def test_press_turns_the_events_it_asked_for_off_again(capsys, fake):
    # On a serial port the next program to open it was sent events it never asked for.
    def unit(line):
        word = line.upper()
        if word == "HELLO":
            return fakes.HELLO.encode() + b"\n"
        if word == "STATE" or word.startswith("KEY "):
            return fakes.STATE.encode() + b"\n"
        return b"OK\n" if word in ("EVENTS ON", "EVENTS OFF") else b"ERR unknown-command\n"

    f = fake(unit)
    assert run(capsys, "--port", f.url, "press", "10K")[0] == 0
    asked = [line for line in f.received if line.startswith("EVENTS") or line.startswith("KEY")]
    assert asked[0] == "EVENTS ON" and asked[-1] == "EVENTS OFF" and len(asked) == 5, asked


def test_monitor_refuses_a_time_that_is_no_time(capsys, fake):
    for bad in ("-1", "0", "nan"):
        code, out, err = run(capsys, "--port", fake(fakes.eventful(1)).url, "monitor",
                             "--seconds", bad)
        assert code == 2 and "--seconds" in err and out == "", (bad, err)


def test_monitor_refuses_a_count_of_no_events(capsys, fake):
    for bad in ("0", "-3"):
        code, out, err = run(capsys, "--port", fake(fakes.eventful(1)).url, "monitor",
                             "--count", bad)
        assert code == 2 and "--count" in err and out == "", (bad, err)


def test_monitor_json_and_seconds(capsys, fake):
    f = fake(fakes.eventful(2, then_silent=True))
    code, out, err = run(capsys, "--port", f.url, "monitor", "--json", "--seconds", "0.2")
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["data"]["n"] for e in events] == [0, 1] and events[0]["type"] == "tone"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_monitor_stopped_by_ctrl_c_or_a_service_managers_sigterm_exits_cleanly(fake, sig):
    f = fake(fakes.eventful(1))
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "--port", f.url, "monitor"],
        cwd=targets.REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    first = proc.stdout.readline()  # the one event: monitor is running
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=10)
    assert "tone" in first
    assert proc.returncode == 0
    assert "Traceback" not in err and "stopped after 1 event" in err


# -- backup, restore, new game, set --------------------------------------------------------------
def test_backup_and_restore(capsys, murl, tmp_path):
    with talk(murl) as b:
        b.insert("L", 4)
        b.press("M")
        b.remove("L")
        b.insert("R", 5)
        b.press("1M-")
        b.remove("R")
        want = b.balances()
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "--port", murl, "backup", path)
    assert code == 0 and out.startswith("backed up 6 balances and 2 log entries")
    doc = json.loads(path.read_text())
    assert doc["format"] == "bank-backup" and doc["profile"] == "world"
    assert doc["balances"] == {str(c): v for c, v in want.items()}
    assert [e["kind"] for e in doc["log"]] == ["go", "pay"]
    assert doc["snapshot"]["seq"] == doc["log"][-1]["seq"]
    run(capsys, "--port", murl, "newgame")
    code, out, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    assert out == "restored profile world and 6 balances from %s\n" % path
    with talk(murl) as b:
        assert b.balances() == want
        changes = [e for e in b.log(50) if e["kind"] == "set"]
        assert len(changes) == 2 and all(e["via"] == "serial" for e in changes)


def test_a_backup_to_standard_output_restores_from_standard_input(capsys, murl, monkeypatch):
    with talk(murl) as b:
        b.insert("L", 4)
        b.press("M")
        b.remove("L")
        want = b.balances()
    code, out, err = run(capsys, "--port", murl, "backup", "-")
    assert code == 0 and err.startswith("bank: backed up 6 balances and 1 log entries")
    assert json.loads(out)["balances"]["4"] == START + 2000000  # stdout is the backup alone
    run(capsys, "--port", murl, "newgame")
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(out.encode())))
    code, out, err = run(capsys, "--port", murl, "restore", "-")
    assert (code, err) == (0, "")
    with talk(murl) as b:
        assert b.balances() == want


def test_restore_needs_maintenance(capsys, url, tmp_path):
    path = tmp_path / "game.json"
    assert run(capsys, "--port", url, "backup", path)[0] == 0
    doc = json.loads(path.read_text())
    doc["balances"]["1"] = 1000
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "--port", url, "restore", path)
    assert code == 1
    assert "not in maintenance mode: hold DEAL for 3 seconds on the unit's own keypad" in err
    with talk(url) as b:
        assert b.balances()[1] == START


def test_restore_refuses_a_bad_file(capsys, murl, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "bank-backup", "profile": "world", "balances": {"1": -5}}')
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and "must give cards 1-6" in err
    path.write_text("not json")
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and "is not a JSON file" in err
    code, _, err = run(capsys, "--port", murl, "restore")
    assert code == 2 and "restore needs a FILE" in err


def test_a_backup_edited_past_its_shape_is_refused_before_a_first_command(capsys, murl, tmp_path):
    # A volume that is a number but no whole one (0.0 passed a look-up in the volumes), JSON
    # nested deeper than a parser goes, a version this tool does not read: each one line and
    # exit 2, and the unit as it was (no new game, no balance set: no half-done restore).
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    good = json.loads(path.read_text())
    with talk(murl) as b:
        before = (b.balances(), b.log(50), b.state()["sound"])
    bad = [dict(good, volume=0.0, balances=dict(good["balances"], **{"3": 1000000})),
           dict(good, volume=True), dict(good, version=99), dict(good, version="1")]
    for doc in bad:
        path.write_text(json.dumps(doc))
        code, _, err = run(capsys, "--port", murl, "restore", path)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (doc, err)
    path.write_text(json.dumps(dict(good, version="1")))
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert 'of version "1", not 1,' in err, err  # the string said as one
    path.write_text(json.dumps(good).replace('"1": %d' % good["balances"]["1"], '"1": ' +
                                             "9" * 5000))
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and "a number of 5000 digits" in err and "sys." not in err, err
    path.write_text("[" * 100000 + "]" * 100000)
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and "nested too deep" in err, err
    # a card given twice, edited in above its old balance: json's own reading kept the last
    text = json.dumps(good).replace('"balances": {', '"balances": {"1": 1000, ', 1)
    path.write_text(text)
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and '"1" is given twice' in err, err
    path.write_text(json.dumps(dict(good, pot=10 ** 12)))
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and '"pot" is past 999,999,999,999' in err, err
    # a file no backup is as large as (/dev/zero ran the tool out of memory)
    path.write_bytes(b" " * (5 << 20))
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert code == 2 and "larger than 4 MB" in err, err
    with talk(murl) as b:
        assert (b.balances(), b.log(50), b.state()["sound"]) == before


def test_a_backup_saved_again_with_a_bom_restores(capsys, murl, tmp_path):
    # Windows' Notepad starts a file it saves with one.
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")


def test_the_same_restore_run_again_keeps_the_played_game_and_previous_still_undoes_it(
        capsys, sims, tmp_path):
    # B11 keeps the last three games with transactions: a restore run again (as the partway
    # message asks) goes on in the game it restored, and pushes no played game out.
    url = sims("tcp", "--maintenance", "--seed", "20").url
    with talk(url) as b:
        reset(b, True)
        b.insert("L", 1)
        b.press("2M+")
        b.remove("L")
        played = b.balances()
    path = tmp_path / "game.json"
    assert run(capsys, "--port", url, "backup", path)[0] == 0
    doc = json.loads(path.read_text())
    doc["balances"]["2"] = START + 1000000
    path.write_text(json.dumps(doc))
    for _ in range(4):
        code, _, err = run(capsys, "--port", url, "restore", path)
        assert (code, err) == (0, "")
    with talk(url) as b:
        assert b.balances()[2] == START + 1000000
        assert [e["kind"] for e in b.log(50)] == ["set", "set"]  # cards 1 and 2, once
        assert b.games()[0]["balances"] == {str(c): v for c, v in played.items()}
    code, _, _ = run(capsys, "--port", url, "restore", "--previous")
    assert code == 0
    with talk(url) as b:
        assert b.balances() == played


def test_restore_previous(capsys, murl):
    with talk(murl) as b:
        b.insert("L", 1)
        b.press("M")
        b.remove("L")
    run(capsys, "--port", murl, "newgame")
    code, out, _ = run(capsys, "--port", murl, "restore", "--previous")
    assert (code, out) == (0, "restored the previous game\n")
    with talk(murl) as b:
        assert b.balances()[1] == START + 2000000


def test_restore_previous_takes_no_file_or_game_beside_it(capsys, murl):
    for extra in (["12"], ["game.json"], ["--id", "3"]):
        code, out, err = run(capsys, "--port", murl, "restore", "--previous", *extra)
        assert (code, out) == (2, "") and err == (
            "bank: restore takes --previous, a FILE, a game's number or --id ID: one\n")


def test_a_restore_the_link_cuts_short_says_so_and_a_second_run_finishes_it(capsys, murl,
                                                                             tmp_path):
    with talk(murl) as b:
        for card, keys in ((2, "2M-"), (3, "1M-")):
            b.insert("R", card)
            b.press(keys)
            b.remove("R")
        want = b.balances()
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    run(capsys, "--port", murl, "newgame")
    relay = fakes.Relay(murl, "SET BALANCE")  # the link drops as the unit sets the first card
    code, out, err = run(capsys, "--port", relay.url, "restore", path)
    assert (code, out) == (5, "")
    partway, gone = err.splitlines()
    assert partway == ("bank: the restore stopped partway: the unit may hold part of %s. Run the "
                       "same restore again to finish it, or bank restore --previous to go back "
                       "to the game before it" % path)
    assert gone.startswith("bank: socket://127.0.0.1:") and "went away" in gone
    with talk(murl) as b:
        assert [b.balances()[c] for c in (2, 3)] == [want[2], START]  # half done, as said
    code, out, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    with talk(murl) as b:
        assert b.balances() == want


def test_a_restore_its_unit_refuses_at_once_changes_nothing_and_says_nothing_of_partway(
        capsys, url, tmp_path):
    path = tmp_path / "game.json"
    assert run(capsys, "--port", url, "backup", path)[0] == 0
    code, _, err = run(capsys, "--port", url, "restore", path)
    assert code == 1 and "partway" not in err and "not in maintenance mode" in err


def test_restore_previous_with_no_game_before_says_so(capsys, sims):
    url = sims("tcp", "--maintenance", "--seed", "41").url  # a unit that never had a new game
    code, _, err = run(capsys, "--port", url, "restore", "--previous")
    assert code == 1 and "keeps no game from before the last new game" in err, err


def test_games_lists_the_kept_games_and_restore_brings_one_back(capsys, murl):
    # B11: two new games in a row keep the real game; bank games lists it, bank restore ID
    # brings it back.
    with talk(murl) as b:
        b.insert("R", 3)
        b.press("2M-")
        b.remove("R")
    run(capsys, "--port", murl, "newgame")
    run(capsys, "--port", murl, "newgame")
    code, out, _ = run(capsys, "--port", murl, "games", "--json")
    assert code == 0
    kept = json.loads(out)
    assert kept[0]["balances"]["3"] == START - 2000000 and kept[0]["transactions"] >= 1
    assert all(g["transactions"] != 0 for g in kept)  # the empty new game was not kept
    number = kept[0]["number"]
    code, out, _ = run(capsys, "--port", murl, "games")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["game", "profile", "txns"]
    assert lines[1].split()[:2] == [str(number), "world"] and "13,000,000" in lines[1]
    code, out, _ = run(capsys, "--port", murl, "restore", str(number))
    assert (code, out) == (0, "restored game %d\n" % number)
    with talk(murl) as b:
        assert b.balances()[3] == START - 2000000
        assert b.log(1)[0]["kind"] == "restore"
    code, _, err = run(capsys, "--port", murl, "restore", "99999")
    assert code == 1 and "keeps no game 99999" in err


def test_bank_games_and_bank_restore_go_by_the_one_number_the_window_lists(capsys, murl):
    # B11: a person sees one number for a kept game: `bank games` lists it, `bank restore N`
    # takes it, and both say the window's and the page's "game N"; the protocol's id (GAMES'
    # `id`, another number) is reached with --id.
    with talk(murl) as b:
        b.insert("R", 3)
        for keys in ("2M-", "1M-", "500K-"):
            b.press(keys)
        b.remove("R")
    run(capsys, "--port", murl, "newgame")
    with talk(murl) as b:
        kept = b.games()[0]
    number, gid = kept["number"], kept["id"]
    assert number != gid  # the two numbers a person could be shown differ here
    head = words.kept_game(kept)[0]
    assert head.startswith("game %d " % number)  # as the window and the page list it
    code, out, _ = run(capsys, "--port", murl, "games")
    row = out.splitlines()[1].split()
    assert code == 0 and row[:3] == [str(number), "world", "3"]  # game, profile, txns
    assert str(gid) not in row  # no second number for it
    assert out.splitlines()[-1] == "bring one back with: bank restore <game>  (maintenance mode)"
    code, _, err = run(capsys, "--port", murl, "restore", str(gid))
    assert (code, err.splitlines()[-1]) == (1, "bank: the unit keeps no game %d (see bank "
                                                "games)" % gid)
    with talk(murl) as b:
        assert b.balances()[3] == START  # nothing changed
    code, out, _ = run(capsys, "--port", murl, "restore", str(number))
    assert (code, out) == (0, "restored game %d\n" % number)
    with talk(murl) as b:
        assert b.balances()[3] == START - 3500000
    # Put away again (the game in play had no transactions: only the restore's record).
    run(capsys, "--port", murl, "newgame")
    with talk(murl) as b:
        kept = b.games()[0]
    code, out, _ = run(capsys, "--port", murl, "restore", "--id", str(kept["id"]))
    assert (code, out) == (0, "restored game %d\n" % kept["number"])
    code, _, err = run(capsys, "--port", murl, "restore", "--id", "99999")
    assert code == 1 and "keeps no game with id 99999" in err
    code, _, err = run(capsys, "--port", murl, "restore", "1", "--id", "2")
    assert code == 2 and "not both" in err


def test_games_shows_the_games_by_number_when_put_away_and_the_damaged(capsys, fake):
    # B11, B17: the banker's game 1, 2 (not the seq ids), and a damaged one said so; NAMES of
    # a unit with a damaged names file carries "store": "damaged" besides the six cards.
    kept = 1796135625
    games = [{"id": 40, "profile": "world", "seq": 40, "transactions": 12,
              "balances": {str(c): 15000000 for c in range(1, 7)}, "number": 2,
              "kept": kept, "damaged": False},
             {"id": 9, "profile": None, "seq": 9, "transactions": None, "balances": None,
              "number": 1, "kept": None, "damaged": True}]

    def unit(line):
        if line.upper() == "GAMES":
            return b"OK " + json.dumps(games).encode() + b"\n"
        if line.upper() == "NAMES":
            return (b'OK {"1": "Ann", "2": null, "3": null, "4": null, "5": null, "6": null, '
                    b'"store": "damaged"}\n')
        return fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"ERR unknown\n"

    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "games")
    lines = out.splitlines()
    assert code == 0, err
    when = datetime.datetime.fromtimestamp(kept).strftime("%Y-%m-%d %H:%M")
    assert lines[1].split()[:2] == ["2", "world"]
    assert lines[1].endswith("15,000,000  put away " + when)
    assert lines[2].split()[:2] == ["1", "-"]
    assert lines[2].endswith("DAMAGED: cannot be brought back")
    with talk(f.url) as b:
        assert b.names() == {1: "Ann", 2: None, 3: None, 4: None, 5: None, 6: None}


def test_games_lists_a_game_the_unit_dated_in_the_last_second_of_9999_b11(capsys, fake,
                                                                          monkeypatch):
    # The unit dates a kept game up to then (firmware/store/slot.py); east of UTC that second
    # is in year 10000, past what datetime holds.
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    time.tzset()
    games = [{"id": 40, "profile": "world", "seq": 40, "transactions": 12,
              "balances": {str(c): 15000000 for c in range(1, 7)}, "number": 1,
              "kept": 253402300799, "damaged": False}]

    def unit(line):
        if line.upper() == "GAMES":
            return b"OK " + json.dumps(games).encode() + b"\n"
        if line.upper() == "NAMES":
            return b'OK {"1": null, "2": null, "3": null, "4": null, "5": null, "6": null}\n'
        return fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"ERR unknown\n"

    try:
        code, out, err = run(capsys, "--port", fake(unit).url, "games")
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert (code, err) == (0, "")
    assert out.splitlines()[1].endswith("put away 10000-01-01 13:59")


def test_restore_by_id_needs_maintenance(capsys, url):
    code, _, err = run(capsys, "--port", url, "restore", "1")
    assert code == 1 and "maintenance mode" in err


def test_newgame(capsys, url):
    with talk(url) as b:
        b.insert("L", 6)
        b.press("M")
        b.remove("L")
    code, out, _ = run(capsys, "--port", url, "newgame")
    assert (code, out) == (0, "new game: every account at 15,000,000\n")
    with talk(url) as b:
        assert b.log() == [] and set(b.balances().values()) == {START}


def test_set_sound(capsys, url):
    code, out, _ = run(capsys, "--port", url, "set", "sound", "0")
    assert (code, out) == (0, "sound 0 (off)\n")
    with talk(url) as b:
        assert b.state()["sound"] == 0
        b.insert("L", 1)  # now the keypad cannot do it (B12): the SET SOUND extension does
    code, out, _ = run(capsys, "--port", url, "set", "sound", "1")
    assert (code, out) == (0, "sound 1 (soft)\n")
    code, _, err = run(capsys, "--port", url, "set", "sound", "5")
    assert code == 2 and "sound must be 0 (off), 1 (soft) or 2 (loud)" in err
    code, _, err = run(capsys, "--port", url, "set", "sound", "٢")  # int() took it as 2
    assert code == 2 and "sound must be 0" in err
    with talk(url) as b:
        assert b.state()["sound"] == 1


def test_set_profile(capsys, url, murl):
    code, _, err = run(capsys, "--port", url, "set", "profile", "classic")
    assert code == 1 and "not in maintenance mode" in err
    code, out, _ = run(capsys, "--port", murl, "set", "profile", "classic")
    assert (code, out) == (0, "profile classic: a new game has started\n")
    with talk(murl) as b:
        assert b.balances()[1] == 1500
        b.set_profile("world")  # leave the shared simulator in the default profile
    code, _, err = run(capsys, "--port", murl, "set", "profile", "monopoly")
    assert code == 2 and "bad-argument" in err  # the user's argument, out of the unit's range


def test_a_maintenance_action_wakes_a_unit_that_switched_itself_off_b16(capsys, murl,
                                                                        tmp_path):
    # Switched off, a unit is in no mode; woken, in the one it was left in: a minute without a
    # key made every maintenance action say "hold DEAL", on a unit in maintenance mode.
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    with talk(murl) as b:
        assert b.advance(61000)["power"] == "off"
    code, out, err = run(capsys, "--port", murl, "set", "profile", "classic")
    assert (code, out, err) == (0, "profile classic: a new game has started\n", "")
    with talk(murl) as b:
        assert b.advance(61000)["power"] == "off"
    code, _, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    with talk(murl) as b:
        assert b.state()["power"] == "on" and b.balances()[1] == START


def test_arguments_out_of_range_are_usage_errors(capsys, url):
    for n in ("-1", "0"):  # 0 printed "(no transactions)" of a game that had some
        code, _, err = run(capsys, "--port", url, "log", "-n", n)
        assert code == 2 and "-n takes how many entries: 1 or more" in err
    code, _, err = run(capsys, "--port", url, "hold", "C", "-5")
    assert code == 2 and "0 or more" in err
    code, _, err = run(capsys, "--port", url, "hold", "C", "9999999")  # past the unit's longest
    assert code == 2 and "bad-argument" in err
    with talk(url) as b:
        assert b.state()["error"] is None and b.log() == []  # nothing happened


# -- deploy --------------------------------------------------------------------------------------
def fake_mpremote(tmp_path, exit_code):
    script = tmp_path / "mpremote"
    log = tmp_path / "calls"
    script.write_text("#!/bin/sh\necho \"$@\" >> %s\nexit %d\n" % (log, exit_code))
    script.chmod(0o755)
    return str(script), log


def test_deploy(capsys, tmp_path, monkeypatch):
    # Another tree, by make deploy's plan: what its manifest lists, each file to its place.
    fw = tmp_path / "fw"
    (fw / "drivers").mkdir(parents=True)
    (fw / "main.py").write_text("")
    (fw / "unit.py").write_text("")
    (fw / "drivers" / "keys.py").write_text("")
    (fw / "__pycache__").mkdir()
    (fw / "manifest.py").write_text('module("main.py")\nmodule("unit.py")\npackage("drivers")\n')
    tool, calls = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("MPREMOTE", tool)
    pico = tmp_path / "ttyACM7"  # the Pico's port: there, and the fake mpremote's to talk to
    pico.touch()
    code, out, _ = run(capsys, "--port", str(pico), "deploy", "--firmware", fw)
    assert code == 0 and "deployed 3 files to %s" % pico in out
    done = calls.read_text()  # the board asked which .mpy it takes, then the copy
    assert "connect %s exec import os" % pico in done  # its folders made, stale forms gone
    assert done.endswith("+ fs cp {0}/drivers/keys.py :/drivers/keys.py + fs cp {0}/main.py "
                         ":/main.py + fs cp {0}/unit.py :/unit.py + reset\n".format(fw))
    code, out, _ = run(capsys, "--port", str(pico), "deploy", "--firmware", fw,
                       "--dry-run", "--no-reset")
    assert code == 0 and out.startswith(tool + " connect %s exec" % pico)
    assert "reset" not in out and calls.read_text() == done  # nothing more ran


def test_deploy_uses_the_repos_tool(capfd, tmp_path, monkeypatch):
    if not os.path.isfile(os.path.join(targets.REPO, "tools", "deploy.py")):
        pytest.skip("no tools/deploy.py in this checkout")
    tool, _ = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("MPREMOTE", tool)
    code = cli.main(["--port", "/dev/ttyACM7", "deploy", "--dry-run"])
    out = capfd.readouterr().out
    assert code == 0
    assert out.startswith(tool + " connect /dev/ttyACM7 ")  # tools/deploy.py printed its plan
    assert ":/protocol/__init__.py" in out and out.rstrip().endswith("reset")


def test_a_deploy_dry_run_needs_no_pico(capfd, tmp_path, monkeypatch):
    tool, _ = fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("MPREMOTE", tool)
    monkeypatch.delenv("BANK_PORT", raising=False)
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])  # no Pico plugged in
    code = cli.main(["deploy", "--dry-run"])
    out = capfd.readouterr().out
    assert code == 0 and out.startswith(tool + " connect PORT ")  # the plan, the port to give
    code = cli.main(["deploy"])
    assert code == 3 and "no unit found" in capfd.readouterr().err  # a real deploy needs one


def test_deploy_errors(capsys, tmp_path, monkeypatch):
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "main.py").write_text("")
    tool, _ = fake_mpremote(tmp_path, 1)
    monkeypatch.setenv("MPREMOTE", tool)
    (fw / "manifest.py").write_text('module("main.py")\n')
    pico = tmp_path / "ttyACM7"
    pico.touch()
    code, _, err = run(capsys, "--port", str(pico), "deploy", "--firmware", fw)
    assert code == 1 and err.count("mpremote exited with 1") == 2  # once more, then it fails
    code, _, err = run(capsys, "--port", "/dev/ttyNOPE9", "deploy", "--firmware", fw)
    assert (code, err) == (3, "bank: no unit at /dev/ttyNOPE9: no such port\n")  # one line
    code, _, err = run(capsys, "--port", "/dev/x", "deploy", "--firmware", tmp_path / "none")
    assert code == 2 and "no firmware directory" in err


# -- errors --------------------------------------------------------------------------------------
def ports(*devices):
    return [types.SimpleNamespace(device=d, vid=v) for d, v in devices]


def test_no_unit_found(capsys, monkeypatch):
    monkeypatch.delenv("BANK_PORT", raising=False)
    monkeypatch.setattr(link.serial.tools.list_ports, "comports",
                        lambda: ports(("/dev/ttyUSB0", 0x0403)))
    code, _, err = run(capsys, "status")
    assert code == 3
    assert err.startswith("bank: no unit found: no USB serial device with the Raspberry Pi "
                          "vendor id 2E8A")


def test_several_units_found(capsys, monkeypatch):
    monkeypatch.delenv("BANK_PORT", raising=False)
    monkeypatch.setattr(link.serial.tools.list_ports, "comports",
                        lambda: ports(("/dev/ttyACM1", 0x2E8A), ("/dev/ttyACM0", 0x2E8A)))
    code, _, err = run(capsys, "balances")
    assert code == 3
    assert err == ("bank: several units found (/dev/ttyACM0, /dev/ttyACM1); "
                   "choose one with --port\n")


def test_one_unit_found_is_used(monkeypatch):
    monkeypatch.delenv("BANK_PORT", raising=False)
    monkeypatch.setattr(link.serial.tools.list_ports, "comports",
                        lambda: ports(("/dev/ttyACM3", 0x2E8A), ("/dev/ttyS0", None)))
    assert link.resolve_port(None) == "/dev/ttyACM3"


def test_port_that_does_not_exist(capsys):
    code, _, err = run(capsys, "--port", "/dev/ttyNOPE9", "status")
    assert (code, err) == (3, "bank: no unit at /dev/ttyNOPE9: no such port\n")


def test_a_port_that_is_no_url_is_a_usage_error(capsys):
    code, _, err = run(capsys, "--port", "bogus://x", "status")
    assert code == 2 and "not a device path or a valid pyserial URL" in err


def test_a_socket_url_without_its_port_says_so(capsys):
    code, _, err = run(capsys, "--port", "socket://127.0.0.1", "status")
    assert (code, err) == (2, "bank: cannot open socket://127.0.0.1: a socket URL names its "
                              "port, 1-65535, as socket://127.0.0.1:5000 (or give the port "
                              "alone: -p 5000)\n")
    for url in ("socket://127.0.0.1:99999", "socket://127.0.0.1:65536"):  # pyserial's words
        code, _, err = run(capsys, "--port", url, "status")  # were about logging levels
        assert code == 2 and "a socket URL names its port, 1-65535" in err, err


def test_a_port_number_past_65535_or_an_empty_port_is_a_usage_error(capsys):
    for port in ("70000", "localhost:0"):  # it read as a device path: "no unit", exit 3
        code, _, err = run(capsys, "--port", port, "status")
        assert (code, err) == (2, "bank: cannot open %s: a simulator's TCP port is a number "
                                  "from 1 to 65535 (-p 5000, HOST:5000 or socket://HOST:5000)\n"
                               % port)
    code, _, err = run(capsys, "--port", "", "status")  # it searched the USB for a Pico
    assert (code, err) == (2, "bank: --port needs a device path or a simulator's TCP port; "
                              "without --port the Pico is found by its USB id\n")


def test_connection_refused(capsys):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    free = s.getsockname()[1]
    s.close()  # nothing listens there now
    code, _, err = run(capsys, "--port", "socket://127.0.0.1:%d" % free, "status")
    assert code == 3 and "connection refused" in err
    # A bare port number said nothing of how it was read until it failed: then the socket.
    code, _, err = run(capsys, "--port", str(free), "status")
    assert code == 3 and err == ("bank: no unit at socket://127.0.0.1:%d: connection refused "
                                 "(is the simulator running?)\n" % free)


def test_port_busy(capsys, sims):
    path = sims("pty").url
    holder = serial.Serial(path, exclusive=True)
    try:
        code, _, err = run(capsys, "--port", path, "status")
    finally:
        holder.close()
    assert code == 4
    assert err == ("bank: port %s is busy: another program (mpremote, a serial monitor, "
                   "another bank command?) has it open\n" % path)


def test_a_full_simulator_says_so_with_its_own_exit_code(capsys, tmp_path):
    if not targets.simulator_available():
        pytest.skip("python -m simulator is not in this checkout yet")
    sim = targets.Simulator("tcp", tmp_path)
    port = sim.url.rsplit(":", 1)[1]
    held = []
    try:
        held += [Bank.open(sim.url) for _ in range(8)]  # the most it takes (docs/simulator.md)
        for _ in range(10):  # whenever its refusal comes: before our HELLO, or as its reply
            code, _, err = run(capsys, "--port", "127.0.0.1:" + port, "status")
            assert code == 8, err
            assert err.endswith(
                "bank: socket://127.0.0.1:%s: the simulator already serves the most hosts it "
                "takes (8 clients are connected); close one of them, or try again once one "
                "has closed\n" % port), err
        held.pop().close()
        code, out, err = run(capsys, "--port", "127.0.0.1:" + port, "status")
        assert code == 0 and out.startswith("unit     bank-unit"), err  # free at once
    finally:
        for b in held:
            b.close()
        sim.stop()


def test_reply_timeout(capsys, fake):
    f = fake(fakes.silent)
    code, _, err = run(capsys, "--port", f.url, "--timeout", "0.2", "status")
    assert code == 6
    assert err == "bank: no reply from %s to 'HELLO' within 0.2 s\n" % f.url


def test_reply_timeout_mid_session(capsys, fake):
    f = fake(fakes.hello_then_silent)
    code, _, err = run(capsys, "--port", f.url, "--timeout", "0.2", "balances")
    assert code == 6 and "to 'BALANCES' within 0.2 s" in err


def test_unparseable_reply(capsys, fake):
    f = fake(fakes.garbage)
    code, _, err = run(capsys, "--port", f.url, "status")
    assert code == 7
    assert err.startswith("bank: unparseable reply to 'HELLO': '\\x00\\ufffdhello there'")
    f = fake(fakes.hello_then_garbage)
    code, _, err = run(capsys, "--port", f.url, "balances")
    assert code == 7 and "unparseable reply to 'BALANCES'" in err
    f = fake(fakes.not_a_bank)
    code, _, err = run(capsys, "--port", f.url, "status")
    assert code == 7 and "is not a bank unit" in err


def test_the_rest_of_a_reply_another_host_was_cut_off_from_is_not_taken_for_the_unit_s(fake):
    f = fake(fakes.cut_off_before())
    with Bank.open(f.url) as bank:
        assert bank.info["device"] == "bank-unit"
    assert f.received == ["HELLO", "HELLO"]  # asked again once the stale line was seen


def test_a_first_hello_a_re_plugged_unit_dropped_is_asked_again(fake):
    f = fake(fakes.deaf_to_the_first())
    with Bank.open(f.url, timeout=0.3) as bank:
        assert bank.info["device"] == "bank-unit"
    assert f.received == ["HELLO", "HELLO"]


def test_events_and_no_reply_time_out_as_no_reply(capsys, fake):
    # The wait is for the reply: events (or blank lines) coming meanwhile do not restart it.
    f = fake(fakes.dripping(b'! tone {"name": "click"}\n', 0.02))
    began = time.monotonic()
    code, _, err = run(capsys, "--port", f.url, "--timeout", "0.3", "balances")
    assert code == 6 and "to 'BALANCES' within 0.3 s" in err, err
    assert time.monotonic() - began < 10  # the unit drips for 30 s


def test_a_long_reply_that_keeps_coming_is_waited_for_past_the_timeout(capsys, fake):
    # A Pico sends some 4 KB a second: LOG 200 or BACKUP mid-game take it seconds, past the
    # 2 s a reply is waited for; a reply that keeps coming is no unit that does not answer.
    entry = ('{"seq": 1, "kind": "receive", "from": "bank", "to": 1, "amount": 10000, '
             '"balances": {"1": 15010000}, "via": "key"}')
    reply = ("OK [" + ", ".join([entry] * 40) + "]\n").encode()

    def unit(line):
        if line.upper() == "HELLO":
            return fakes.HELLO.encode() + b"\n"

        def slowly(conn):  # the whole line over about 0.4 s, ten times the wait below
            for i in range(0, len(reply), len(reply) // 40):
                conn.sendall(reply[i:i + len(reply) // 40])
                time.sleep(0.01)
        return slowly

    code, out, err = run(capsys, "--port", fake(unit).url, "--timeout", "0.04", "log", "-n",
                         "40", "--json")
    assert (code, err) == (0, ""), err
    assert len(json.loads(out)) == 40


def test_a_reply_that_drips_slower_than_any_unit_sends_times_out(capsys, fake, monkeypatch):
    # Each byte put the wait off again: a byte every 50 ms held `bank status -t 0.2` for as
    # long as the device went on (a hostile one: for days).
    monkeypatch.setattr("host_tools.bank.PACE", 100000)  # bytes a second: 4 KB in 0.04 s
    began = time.monotonic()
    code, _, err = run(capsys, "--port", fake(fakes.dripping(b"O", 0.05)).url, "--timeout", "0.2",
                      "status")
    assert code == 6 and "to 'STATE' within 0.2 s" in err, err
    assert time.monotonic() - began < 5  # the unit drips for 30 s


@pytest.mark.parametrize("reply", [b"OK " + b"[" * 5000 + b"]" * 5000 + b"\n",
                                   b"! tone " + b"[" * 5000 + b"]" * 5000 + b"\nOK\n"])
def test_json_nested_too_deep_is_a_unit_that_misbehaved_not_a_traceback(capsys, fake, reply):
    f = fake(lambda line: fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else reply)
    code, out, err = run(capsys, "--port", f.url, "balances")
    assert code == 7 and err.startswith("bank: unparseable ") and err.count("\n") == 1, err


def test_a_line_longer_than_any_reply_is_a_unit_that_misbehaved(capsys, fake):
    f = fake(lambda line: fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else
             b"OK " + b"7" * 300000 + b"\n")
    code, out, err = run(capsys, "--port", f.url, "--timeout", "60", "balances")
    assert code == 7 and "longer than any reply" in err, err


def test_a_newer_units_log_keys_head_the_csv_as_text_never_as_formulas(capsys, fake):
    entry = ('{"seq": 1, "kind": "go", "from": "bank", "to": 1, "amount": 2000000, '
             '"balances": {"1": 17000000}, "via": "key", "=HYPERLINK(\\"http://x/\\")": 1}')
    unit = fakes.reading(lambda: '{"1": 17000000, %s}' % SIX, "[%s]" % entry)
    code, out, err = run(capsys, "--port", fake(unit).url, "log", "--csv")
    assert code == 0, err
    head = next(csv.reader(io.StringIO(out)))
    assert "'=HYPERLINK(\"http://x/\")" in head and not [c for c in head if c[:1] == "="]


def test_a_backup_of_balances_no_unit_holds_is_refused_and_no_file_is_written(capsys, fake,
                                                                             tmp_path):
    # A backup that restore would refuse is worth nothing on the day it is needed.
    for bad in ("1" + "0" * 30, "123"):
        unit = fakes.reading(lambda bad=bad: '{"1": %s, %s}' % (bad, SIX))
        path = tmp_path / "game.json"
        code, out, err = run(capsys, "--port", fake(unit).url, "backup", path)
        assert code == 7 and "balance of card 1" in err and err.count("\n") == 1, err
        assert not path.exists()


def _with_backup(payload):
    """A reading unit whose BACKUP answers payload (its snapshot)."""
    reading = fakes.reading(lambda: '{"1": %d, %s}' % (START, SIX))
    return lambda line: b"OK " + payload + b"\n" if line.upper() == "BACKUP" else reading(line)


def test_nan_or_infinity_from_the_unit_is_a_unit_that_misbehaved_not_json_passed_on(
        capsys, fake, tmp_path):
    # Python's json reads NaN and Infinity, which are no JSON: `--json` printed them and a
    # backup file kept them, for jq or a restore elsewhere to choke on.
    entry = ('{"seq": 1, "kind": "receive", "from": "bank", "to": 1, "amount": 10000, '
             '"balances": {"1": 15010000}, "via": "key", "x": NaN}')
    unit = fakes.reading(lambda: '{"1": %d, %s}' % (START, SIX), "[%s]" % entry)
    code, out, err = run(capsys, "--port", fake(unit).url, "log", "--json")
    assert code == 7 and out == "" and "unparseable reply to 'LOG" in err, err
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "--port", fake(_with_backup(b'{"y": -Infinity}')).url,
                         "backup", path)
    assert code == 7 and not path.exists(), err
    path.write_text('{"profile": "world", "x": NaN}')
    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "restore", path)
    assert code == 2 and "NaN is no JSON number" in err and f.received == ["HELLO"], err


def test_a_backup_restore_would_refuse_as_too_large_is_never_written(capsys, fake, tmp_path):
    # A snapshot of 240 KB nested deep grew past 4 MB indented: backup wrote it, exit 0, and
    # restore refused the file.
    blob = ("[" + ",".join(["[" * 120 + "]" * 120] * 1000) + "]").encode()
    path = tmp_path / "game.json"
    code, out, err = run(capsys, "--port", fake(_with_backup(b'{"x": ' + blob + b"}")).url,
                         "backup", path)
    assert code == 7 and "nothing written" in err and err.count("\n") == 1, err
    assert not path.exists()


def _unit_at_play(card1):
    """A fake unit whose card 1 reads card1(n) at its nth BALANCES: play going on meanwhile."""
    reads = []

    def balances():
        reads.append(1)
        return '{"1": %d, %s}' % (card1(len(reads)), SIX)

    return fakes.reading(balances)


def test_a_backup_is_read_again_when_money_moves_while_it_is_read(capsys, fake, tmp_path):
    # Its parts come from several commands: a move between them left a file whose balances and
    # pot were of two moments, and restoring it lost or made money.
    path = tmp_path / "game.json"
    unit = _unit_at_play(lambda n: START if n == 1 else START - 1000000)  # a move after read 1
    code, out, _ = run(capsys, "--port", fake(unit).url, "backup", path)
    assert code == 0 and out.startswith("backed up")
    assert json.loads(path.read_text())["balances"]["1"] == START - 1000000


def test_a_backup_that_never_reads_still_is_refused_and_no_file_is_written(capsys, fake,
                                                                           tmp_path):
    path = tmp_path / "game.json"
    unit = _unit_at_play(lambda n: START - 10000 * n)  # a move between every two reads
    code, _, err = run(capsys, "--port", fake(unit).url, "backup", path)
    assert code == 1 and "money moved on the unit while it was read" in err
    assert not path.exists()


@pytest.mark.parametrize("argv", [["status"], ["restore", "--previous"], ["newgame"]])
def test_a_unit_of_another_protocol_is_told_nothing_after_hello(capsys, fake, argv):
    f = fake(lambda line: fakes.HELLO.replace('"protocol": 1', '"protocol": 2').encode() +
             b"\n" if line.upper() == "HELLO" else b"OK\n")
    code, out, err = run(capsys, "--port", f.url, *argv)
    assert code == 7 and "speaks serial protocol 2" in err and err.count("\n") == 1, err
    assert f.received == ["HELLO"]


def test_unit_gone_mid_command(capsys, fake):
    f = fake(fakes.closes_after_hello)
    code, _, err = run(capsys, "--port", f.url, "balances")
    assert code == 5
    assert err.startswith("bank: %s went away (unplugged, or the simulator stopped)" % f.url)
    f = fake(fakes.closes)
    code, _, err = run(capsys, "--port", f.url, "status")
    assert code == 5


def test_events_before_a_reply_are_not_the_reply(capsys, fake):
    f = fake(fakes.eventful(0))
    code, out, _ = run(capsys, "--port", f.url, "--timeout", "0.2", "monitor", "--seconds",
                       "0.05")
    assert code == 0  # HELLO's reply came after an event line and was still found


def test_pty_unplugged_mid_session(tmp_path):
    if not targets.simulator_available():
        pytest.skip("no simulator")
    sim = targets.Simulator("pty", tmp_path)
    try:
        bank = Bank.open(sim.url, timeout=2.0)
        sim.proc.kill()
        sim.proc.wait()
        with pytest.raises(Exception) as err:
            for _ in range(3):  # the first write may still land in the pty's buffer
                bank.state()
        assert type(err.value).__name__ == "DisconnectedError"
        assert "went away" in str(err.value)
        bank.close()
    finally:
        sim.stop()


def test_the_real_command_has_no_traceback(fake):
    f = fake(fakes.silent)
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "--port", f.url, "--timeout", "0.1", "balances"],
        cwd=targets.REPO, capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 6
    assert proc.stderr.startswith("bank: no reply from") and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "host_tools", "--help"], cwd=targets.REPO,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    for name in ("status", "balances", "log", "press", "insert", "remove", "run", "monitor",
                 "backup", "restore", "newgame", "set", "deploy"):
        assert name in proc.stdout


def test_a_port_number_in_bank_port_is_the_socket_without_a_note_at_every_call(capsys, url,
                                                                               monkeypatch):
    # $BANK_PORT is set once for all the calls that follow: how it reads is no news each time.
    monkeypatch.setenv("BANK_PORT", url.split("://", 1)[1].rsplit(":", 1)[1])
    for _ in range(2):
        code, out, err = run(capsys, "balances", "--json")
        assert code == 0 and json.loads(out)["1"] == START and err == ""


def test_bank_port_environment(capsys, url, monkeypatch):
    monkeypatch.setenv("BANK_PORT", url)
    code, out, _ = run(capsys, "balances", "--json")
    assert code == 0 and json.loads(out)["1"] == START
    assert os.environ["BANK_PORT"] == url


def test_the_port_and_timeout_may_follow_the_command(capsys, url):
    # `bank status -p PORT` was an unrecognized argument: -p had to come first.
    code, out, _ = run(capsys, "balances", "--json", "-p", url, "-t", "5")
    assert code == 0 and json.loads(out)["1"] == START
    code, _, err = run(capsys, "-p", "/dev/nothing-here", "balances", "--port", url)
    assert code == 0, err  # the one after the command counts


def test_a_port_number_or_host_port_is_the_simulators_socket(capsys, url):
    # `listening tcp 127.0.0.1:PORT` is what the simulator prints: that, or the bare port, works.
    hostport = url.split("://", 1)[1]
    port = hostport.rsplit(":", 1)[1]
    for given in (port, "localhost:" + port, hostport):
        code, out, err = run(capsys, "-p", given, "balances", "--json")
        assert (code, err) == (0, "") and json.loads(out)["1"] == START
    assert link.socket_url("/dev/ttyACM0") is None and link.socket_url("COM3") is None
    assert link.socket_url("socket://h:1") is None and link.socket_url(":5555") is None
    # tcp:HOST:PORT was taken as the host "tcp:HOST", and pyserial's own error came back.
    assert link.socket_url("tcp:127.0.0.1:" + port) is None
    code, _, err = run(capsys, "-p", "tcp:127.0.0.1:" + port, "balances")
    assert code == 3 and err == ("bank: no unit at tcp:127.0.0.1:%s: no such port (a simulator's "
                                 "TCP port is PORT, HOST:PORT or socket://HOST:PORT)\n" % port)


def test_run_wakes_a_unit_that_switched_off(capsys, url, tmp_path):  # B16
    with talk(url) as b:
        b.insert("L", 1)
        assert b.advance(61000)["power"] == "off"
    path = tmp_path / "pay.txt"
    path.write_text("> KEY 1 5 0 K +\n< OK *\n")
    code, out, _ = run(capsys, "--port", url, "run", path)
    assert code == 0
    with talk(url) as b:
        assert b.balances()[1] == START + 150000  # not 50,000: the 1 was not swallowed


def test_hold_deal_for_maintenance_says_it_is_done_on_the_keypad(capsys, url):
    code, _, err = run(capsys, "--port", url, "hold", "DEAL", "3000")
    assert code == 2 and "on the unit's own keypad" in err and "bank press DEAL" in err
    with talk(url) as b:
        state = b.state()
    assert state["deal"] == "idle" and state["maintenance"] is False  # nothing was sent (B13)


def test_maintenance_hint_names_the_keypad(capsys, url):
    code, _, err = run(capsys, "--port", url, "restore", "--previous")
    assert code == 1 and "hold DEAL for 3 seconds on the unit's own keypad" in err
    assert "cannot be done over serial" in err


@pytest.fixture
def nurl(sims):
    """A simulator of its own: names outlive a new game, so they must not reach other tests."""
    sim = sims("tcp", "--seed", "16")
    with Bank.open(sim.url) as b:
        reset(b, True)
        for card in range(1, 7):
            b.set_name(card)
    return sim.url


def test_names_in_the_host_tools_output(capsys, nurl):
    code, out, _ = run(capsys, "--port", nurl, "name", "1", "Ann", "Lee")
    assert (code, out) == (0, "card 1: Ann Lee\n")
    assert run(capsys, "--port", nurl, "name", "2", "Bob")[0] == 0
    code, out, _ = run(capsys, "--port", nurl, "insert", "L", "1")
    assert out.startswith("card 1 Ann Lee in L: balance 15,000,000\n")
    code, out, _ = run(capsys, "--port", nurl, "status")
    assert "slots    L: 1 Ann Lee  R: -" in out
    with talk(nurl) as b:
        b.insert("R", 2)
        b.press("250K-")  # Bob pays Ann (B6)
    code, out, _ = run(capsys, "--port", nurl, "balances")
    lines = out.splitlines()
    assert lines[0] == "card  name                 balance"
    assert lines[1] == "   1  Ann Lee           15,250,000"
    assert lines[3] == "   3                    15,000,000"
    code, out, _ = run(capsys, "--port", nurl, "log")
    assert out.splitlines()[2].split()[1:8] == ["transfer", "2", "Bob", "1", "Ann", "Lee",
                                               "250,000"]
    code, out, _ = run(capsys, "--port", nurl, "log", "--csv")
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert (row["from_name"], row["to_name"]) == ("Bob", "Ann Lee")
    code, out, _ = run(capsys, "--port", nurl, "name", "1")
    assert (code, out) == (0, "card 1: (no name)\n")
    code, _, err = run(capsys, "--port", nurl, "name", "1", "Seventeen chars!!")
    assert code == 2 and "a name is at most 16 characters" in err
    # spaces run together as the unit runs them: the tool refused a name the unit takes
    code, out, _ = run(capsys, "--port", nurl, "name", "1", "Ann" + " " * 20 + "Lee")
    assert (code, out) == (0, "card 1: Ann Lee\n")


def test_names_in_any_language_in_the_host_tools_output_and_a_safe_csv(capsys, nurl):
    zoe, li_lei = "Zo\u00eb", "\u674e\u96f7"
    assert run(capsys, "--port", nurl, "name", "1", zoe) == (0, "card 1: %s\n" % zoe, "")
    assert run(capsys, "--port", nurl, "name", "2", li_lei)[:2] == (0, "card 2: %s\n" % li_lei)
    assert run(capsys, "--port", nurl, "name", "3", "=1+2")[:2] == (0, "card 3: =1+2\n")
    assert run(capsys, "--port", nurl, "name", "4", "@SUM(A1)")[0] == 0
    with talk(nurl) as b:
        assert b.names()[2] == li_lei  # the unit's reply escapes it; JSON brings it back
        b.insert("L", 1)
        b.insert("R", 2)
        b.press("1M-")  # Li Lei pays Zoe
        b.remove("L")
        b.insert("L", 3)
        b.press("2M-")  # Li Lei pays "=1+2"
        b.remove("R")
        b.insert("R", 4)
        b.press("250K-")  # "@SUM(A1)" pays "=1+2"
    code, out, _ = run(capsys, "--port", nurl, "balances")
    lines = out.splitlines()
    assert lines[1] == "   1  " + zoe + " " * 15 + "16,000,000"
    assert lines[2] == "   2  " + li_lei + " " * 14 + "12,000,000"  # 2 columns a character
    code, out, _ = run(capsys, "--port", nurl, "log")
    assert out.splitlines()[2].split()[1:6] == ["transfer", "2", li_lei, "1", zoe]
    code, out, _ = run(capsys, "--port", nurl, "log", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["from_name"], r["to_name"]) for r in rows] == [
        (li_lei, zoe), (li_lei, "'=1+2"), ("'@SUM(A1)", "'=1+2")]
    assert not any(cell[:1] in "=+-@" for r in rows for cell in r.values() if cell)
    # Refused before anything is sent, in the window's sentence; the names stay
    for text, why in (("\u00e9" * 17, "a name is at most 16 characters"),
                      ("\U0001F600" * 13, "a name is at most 48 bytes of text, and an emoji"),
                      ("Zo\u00eb\u202e", "a name cannot hold control characters"),
                      ("Zo\tb", "a name cannot hold control characters")):
        code, _, err = run(capsys, "--port", nurl, "name", "1", text)
        assert code == 2 and why in err, (text, err)
    with talk(nurl) as b:
        assert b.names()[1] == zoe
        # and the unit itself refuses them the same way, sent past the tool's own check
        reply = b.exchange("NAME 1 " + "\u00e9" * 17)
        assert (reply.ok, reply.message) == (False, "a name is at most 16 characters")
        assert b.names()[1] == zoe


def test_backup_and_restore_keep_the_names(capsys, sims, tmp_path):
    sim = sims("tcp", "--maintenance", "--seed", "17")  # names outlive a new game: its own unit
    with Bank.open(sim.url) as b:
        reset(b, True)
        b.set_name(1, "Ann")
        b.set_name(3, "Cy")
        b.set_name(5, "\u674e\u96f7\U0001F600")
    path = tmp_path / "game.json"
    assert run(capsys, "--port", sim.url, "backup", path)[0] == 0
    assert json.loads(path.read_text())["names"] == {"1": "Ann", "3": "Cy",
                                                     "5": "\u674e\u96f7\U0001F600"}
    with Bank.open(sim.url) as b:
        b.set_name(1, "Zed")
        b.set_name(3)
        b.set_name(5)
    code, out, err = run(capsys, "--port", sim.url, "restore", path)
    assert (code, err) == (0, "")
    assert out == "restored profile world, 6 balances and 3 player names from %s\n" % path
    with Bank.open(sim.url) as b:
        assert b.names() == {1: "Ann", 2: None, 3: "Cy", 4: None, 5: "\u674e\u96f7\U0001F600",
                             6: None}


def test_a_restore_that_fills_the_pot_says_so(capsys, murl, tmp_path):  # B22
    # The pot turned on and 5 M put in it, and the one line said only the balances.
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    doc = json.loads(path.read_text())
    doc["pot"] = 5000000
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    assert out == ("restored profile world, 6 balances and the Free Parking pot on with "
                   "5,000,000 from %s\n" % path)
    with talk(murl) as b:
        assert b.state()["pot"] == 5000000


def test_restore_previous_as_a_word_points_to_the_option(capsys, murl, tmp_path, monkeypatch):
    # RESTORE PREVIOUS is the protocol's: `bank restore PREVIOUS` said only that no file
    # PREVIOUS could be read.
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "--port", murl, "restore", "PREVIOUS")
    assert (code, out) == (2, "")
    assert err == ("bank: cannot read PREVIOUS: No such file or directory (the game before the "
                   "last new game is bank restore --previous; a kept game, its number: see bank "
                   "games)\n")


def test_a_restore_that_turns_the_pot_off_and_the_sound_down_says_so(capsys, murl, tmp_path):
    # B22, B12: a pot left on takes a + with one card, and a quieter unit is heard less; a
    # restore that changed them and said only the balances left the table to find out.
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    doc = json.loads(path.read_text())
    doc["pot"], doc["volume"] = None, 1
    path.write_text(json.dumps(doc))
    with talk(murl) as b:
        b.request("SET POT ON")
    code, out, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    assert out == ("restored profile world, 6 balances, the Free Parking pot off and sound "
                   "volume 1 from %s\n" % path)
    with talk(murl) as b:
        assert (b.state()["pot"], b.state()["sound"]) == (None, 1)


def test_a_backup_of_a_unit_nobody_is_named_on_restores_with_no_names(capsys, sims, tmp_path):
    sim = sims("tcp", "--maintenance", "--seed", "19")  # names outlive a new game
    with Bank.open(sim.url) as b:
        reset(b, True)
        for card in range(1, 7):
            b.set_name(card)
    path = tmp_path / "game.json"
    assert run(capsys, "--port", sim.url, "backup", path)[0] == 0
    assert json.loads(path.read_text())["names"] == {}
    with Bank.open(sim.url) as b:
        b.set_name(1, "Zo\u00eb")
    code, _, err = run(capsys, "--port", sim.url, "restore", path)
    assert (code, err) == (0, "")
    with Bank.open(sim.url) as b:
        assert set(b.names().values()) == {None}  # the game as it was: nobody named


def test_restore_brings_back_every_name_the_unit_takes(capsys, sims, tmp_path):
    # One rule for a name, the unit's (protocol/names.py): 16 characters, any printable text.
    sim = sims("tcp", "--maintenance", "--seed", "18")  # names outlive a new game
    taken = {"1": "Sixteen letters!", "2": "Ann\u00a0Lee", "4": "Zo\u00eb \u674e"}
    with Bank.open(sim.url) as b:
        reset(b, True)
        for card in range(1, 7):
            b.set_name(card, taken.get(str(card), ""))
    path = tmp_path / "game.json"
    assert run(capsys, "--port", sim.url, "backup", path)[0] == 0
    with Bank.open(sim.url) as b:
        for card in range(1, 7):
            b.set_name(card)
    code, out, err = run(capsys, "--port", sim.url, "restore", path)
    assert (code, err) == (0, "")
    with Bank.open(sim.url) as b:
        assert {str(c): n for c, n in b.names().items() if n} == taken


def test_restore_checks_the_whole_file_before_its_first_command(capsys, murl, tmp_path):
    # docs/host_tools.md: never a half-done restore. Each file the unit would refuse a part of
    # is refused whole (usage, exit 2), and the game in play is as it was: no new game, no SET.
    with talk(murl) as b:
        b.insert("L", 2)
        b.press("M")  # B9
        b.remove("L")
        before = (b.balances(), b.log(), b.hello()["profile"])
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    good = json.loads(path.read_text())
    bad = [
        ({"balances": dict(good["balances"], **{"1": 1000000009000})},
         "balance of card 1 is past 999,999,999,999, the most a balance holds"),
        ({"balances": dict(good["balances"], **{"3": 1500})},
         "balance of card 3 is not a multiple of 1,000, as every amount of the world profile is"),
        ({"profile": "monopoly"}, '"profile" must be one of world, classic, francs'),
        ({"names": {"1": "Seventeen letters"}},
         "the name of card 1: a name is at most 16 characters"),
        ({"names": {"2": "Ann\x1b[2J"}},
         "the name of card 2: a name cannot hold control characters (tab, newline, overrides of "
         "direction)"),
        ({"names": {"7": "Ann"}}, '"names" must map cards 1-6 to names'),
        ({"names": {"1": 5}}, "the name of card 1: a name is text"),
        ({"volume": 3}, '"volume" must be 0, 1 or 2'),
    ]
    for change, why in bad:
        path.write_text(json.dumps(dict(good, **change)))
        code, out, err = run(capsys, "--port", murl, "restore", path)
        assert (code, out, err) == (2, "", "bank: %s: %s\n" % (path, why)), change
        with talk(murl) as b:
            assert (b.balances(), b.log(), b.hello()["profile"]) == before, change


def test_a_genuine_backup_of_the_fullest_balance_restores(capsys, murl, tmp_path):
    # The most a balance holds is what SET BALANCE sets (docs/protocol-extensions.md): a
    # receipt past it is refused, so every game that can be backed up can be restored.
    with talk(murl) as b:
        b.set_balance(1, 999999999000)
        b.insert("L", 1)
        assert b.press("10K+")["error"] == "balance-limit"  # B4
        b.remove("L")
        want = b.balances()
    path = tmp_path / "game.json"
    assert run(capsys, "--port", murl, "backup", path)[0] == 0
    run(capsys, "--port", murl, "newgame")
    code, out, err = run(capsys, "--port", murl, "restore", path)
    assert (code, err) == (0, "")
    with talk(murl) as b:
        assert b.balances() == want and want[1] == 999999999000


def test_without_the_firmware_beside_it_restore_sends_nothing(capsys, fake, tmp_path,
                                                              monkeypatch):
    # Installed alone (pyproject.toml packages host_tools only) the tools have none of the
    # unit's rules to check a backup by: the restore is refused before anything is sent.
    from host_tools import rules

    monkeypatch.setattr(rules, "WORDS", None)
    f = fake(lambda line: fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"OK\n")
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "bank-backup", "profile": "world",
                                "balances": {str(c): START for c in range(1, 7)}}))
    code, out, err = run(capsys, "--port", f.url, "restore", path)
    assert (code, out) == (1, "")
    assert err.startswith("bank: restoring a backup needs the unit's rules, in the firmware/ "
                          "beside host_tools")
    assert f.received == ["HELLO"]


SIX = ", ".join('"%d": 15000000' % c for c in range(2, 7))
HOSTILE = [  # (the command line, the command whose reply is hostile, that reply's JSON)
    (["status"], "STATE", '{"display": "x", "slots": []}'),
    (["status"], "STATE", '{"power": "on", "display": {"text": 5}}'),
    (["status"], "HELLO", '{"device": "bank-unit", "firmware": ["x"], "protocol": 1, '
                          '"profile": "world", "store": "ok"}'),
    (["log"], "LOG", "[1, 2]"),
    (["log"], "LOG", '[{"seq": 1, "kind": "go", "from": "bank", "to": 9, "amount": 1, '
                     '"balances": {}}]'),
    (["log", "--csv"], "LOG", '[{"seq": 1, "kind": "go", "from": "bank", "to": 1, '
                              '"amount": 1, "balances": []}]'),
    (["balances"], "BALANCES", '{"1": 1e400, %s}' % SIX),
    (["balances"], "BALANCES", '{"1": true, %s}' % SIX),
    (["balances"], "BALANCES", '{"1": -5, %s}' % SIX),
    (["balances"], "BALANCES", "1e400"),
    (["balances"], "BALANCES", "true"),
    (["games"], "GAMES", '[{"id": 1, "profile": "world", "seq": 1, "transactions": 1, '
                         '"balances": null, "kept": 99999999999999}]'),
    (["games"], "GAMES", '[{"id": "1"}]'),
    (["mem"], "MEM", '{"firmware": "lots"}'),
    (["restore", "--previous"], "MAINT", '{"maintenance": "no"}'),
]


@pytest.mark.parametrize("argv,command,payload", HOSTILE)
def test_a_reply_of_the_wrong_shape_is_one_line_and_the_unit_misbehaved(capsys, fake, argv,
                                                                        command, payload):
    f = fake(fakes.hostile(command, payload))
    code, out, err = run(capsys, "--port", f.url, *argv)
    assert code == 7  # the unit misbehaved (docs/host_tools.md, "Exit codes"), not "refused"
    assert err.startswith("bank: the unit misbehaved: its reply to '%s" % command), err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [["status"], ["balances"], ["log"], ["log", "--csv"],
                                  ["games"], ["insert", "L", "1"]])
def test_what_comes_from_the_unit_is_shown_never_obeyed(capsys, fake, argv):
    # Escape sequences, a bell, a carriage return, a newline, a direction override in the
    # unit's text reach the terminal as their escapes, and the tables still line up.
    f = fake(fakes.escaping)
    code, out, err = run(capsys, "--port", f.url, *argv)
    for text in (out, err):
        bad = [c for c in text if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F
                                                   or c == "\u202e")]
        assert bad == [], (argv, text)
    assert "\\x1b" in out + err, (argv, out, err)
    if argv == ["balances"]:
        lines = out.splitlines()[1:]
        assert [line.split("  ")[2] for line in lines if line[3] != "5"] == [
            "Ann\\x1b[2J", "Bob\\x07", "\\u202eLi", "Zo\\n\u00eb", "Cy\\r"]
        assert {len(line) for line in lines} == {34}  # the balances in one column
    if argv == ["status"]:
        assert "unit     bank-unit firmware 1\\x1b[31m, protocol 1" in out
        assert "display  \\x1b[5m0\n" in out and "entry    5\\x1b[A\n" in out
    if argv[0] == "insert":
        assert code == 1 and err == ("bank: unit refused 'INSERT L 1': slot-occupied "
                                     "(\\x1b[2Jslot L holds a card)\n")


# -- the Python API ------------------------------------------------------------------------------
def test_the_api_raises_a_refusal_when_asked_with_its_code_and_words(url):  # B8
    from host_tools import Refused

    with talk(url) as b:
        b.insert("R", 2)
        state = b.request("KEY 2 0 M -")  # the line is fine: OK, the refusal in the state
        assert state["error"] == "insufficient-funds" and b.balances()[2] == START
        with pytest.raises(Refused) as no:
            b.request("KEY C 2 0 M -", check=True)
        assert (no.value.code, no.value.words) == (
            "insufficient-funds", "card 2 cannot pay 20 M: it has 15 M (insufficient-funds)")
        assert no.value.state["entry"] == "20M" and no.value.exit_code == 1
        assert str(no.value) == ("the unit refused 'KEY C 2 0 M -': card 2 cannot pay 20 M: "
                                 "it has 15 M (insufficient-funds)")
        with pytest.raises(Refused):
            b.press("C", "20M-", check=True)
        assert b.press("C", "5M-", check=True)["error"] is None
        assert b.balances()[2] == START - 5000000


def test_events_handed_over_in_a_reply_are_not_waited_for_again(url):
    with talk(url) as b:
        b.events_on()
        b.insert("L", 1)
        b.events.clear()
        reply = b.exchange("KEY M")  # B9
        assert [e.type for e in reply.events] == ["txn", "tone"]
        assert reply.events[0].data["kind"] == "go"
        assert b.wait_event(0.05) is None  # neither given again
        b.press("C")  # B10; a request keeps its events for wait_event
        got = []
        while not got or got[-1] is not None:
            got.append(b.wait_event(0.05))
        assert [e.data["kind"] for e in got[:-1] if e.type == "txn"] == ["undo"]


def test_games_explains_its_columns_and_names_the_cards(capsys, fake):  # B11
    games = [{"id": 40, "profile": "world", "seq": 40, "transactions": 12,
              "balances": {str(c): 15000000 for c in range(1, 7)}, "number": 1, "kept": None,
              "damaged": False}]

    def unit(line):
        if line.upper() == "GAMES":
            return b"OK " + json.dumps(games).encode() + b"\n"
        if line.upper() == "NAMES":
            return (b'OK {"1": "Ann", "2": null, "3": "Zo\\u00eb", "4": null, "5": null, '
                    b'"6": null}\n')
        return fakes.HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"ERR unknown\n"

    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "games")
    lines = out.splitlines()
    assert code == 0, err
    # the game's one number leads its row (the protocol's id and seq are --json's)
    assert lines[1].split()[:3] == ["1", "world", "12"]
    assert lines[2] == "txns: how many transactions the game had"
    assert lines[3] == "cards: 1 Ann, 2, 3 Zo\u00eb, 4, 5, 6"


def test_monitor_shows_the_cards_and_the_deal_timer(capsys, fake, monkeypatch):  # B3, B13
    # The unit sends no event for a card or the deal timer: monitor reads them from STATE.
    from host_tools import monitor

    monkeypatch.setattr(monitor, "POLL", 0.01)
    states = [fakes.STATE]
    states.append(states[-1].replace('"L": null', '"L": 3'))
    states.append(states[-1].replace('"deal": "idle"', '"deal": "running"'))
    states.append(states[-1].replace('"L": 3', '"L": null').replace('"R": null', '"R": 5'))
    seen = []

    def unit(line):
        word = line.upper()
        if word == "STATE":
            seen.append(word)
            return states[min(len(seen), len(states)) - 1].encode() + b"\n"
        if word in ("EVENTS ON", "EVENTS OFF"):
            return b"OK\n"
        return fakes.HELLO.encode() + b"\n" if word == "HELLO" else b"ERR unknown-command\n"

    f = fake(unit)
    code, out, err = run(capsys, "--port", f.url, "monitor", "--count", "4", "--seconds", "5")
    assert code == 0, err
    assert [line.split(None, 2)[1:] for line in out.splitlines()] == [
        ["card", '{"slot": "L", "card": 3}'], ["deal", '{"deal": "running"}'],
        ["card", '{"slot": "L", "card": null}'], ["card", '{"slot": "R", "card": 5}']]
    assert err.endswith("stopped after 4 events\n")
    seen.clear()
    code, out, err = run(capsys, "--port", f.url, "monitor", "--count", "1", "--json")
    assert json.loads(out)["type"] == "card" and json.loads(out)["read"] == "STATE"


def test_a_game_number_in_another_script_is_a_file_name_not_a_traceback(capsys, murl):
    code, _, err = run(capsys, "--port", murl, "restore", "²")  # '²'.isdigit(), int('²') fails
    assert code == 2 and err.startswith("bank: ") and "Traceback" not in err, err


def test_numbers_in_another_script_are_refused_before_anything_is_sent(capsys):
    # int() reads '١' (Arabic-Indic one) and '１' (full width) as 1: a card the user never typed
    for argv in (("insert", "L", "١"), ("name", "１", "Ann"), ("log", "-n", "٣"),
                 ("-t", "٢", "status"), ("night", "bankrupt", "٢")):
        with pytest.raises(SystemExit) as e:
            cli.main(["--port", "/dev/ttyNOPE9", *argv])
        out, err = capsys.readouterr()
        assert e.value.code == 2 and out == "" and "invalid" in err, (argv, err)
