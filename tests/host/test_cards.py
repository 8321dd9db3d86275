"""`bank card write L|R CARD`: the RFID build's tags numbered from the host (WRITECARD,
maintenance mode; docs/host_tools.md), against the simulator (whose cards are not tags) and a
fake RFID unit."""

import pytest

import fakes
from conftest import run
from host_tools import cli

STATE = ('OK {"power": "on", "display": {"text": "3", "k": false, "M": false}, "red": "off", '
         '"green": "on", "slots": {"L": null, "R": null}, "entry": "", "deal": "idle", '
         '"sound": 2, "error": null, "tally": 0, "maintenance": true}')


def rfid_unit(reply):
    def answer(line):
        if line.startswith("HELLO"):
            return (fakes.HELLO + "\n").encode()
        if line.startswith("WRITECARD"):
            return (reply + "\n").encode()
        return (STATE + "\n").encode()

    return fakes.FakeUnit(answer)


def test_card_write_numbers_the_tag_on_the_reader(capsys):
    unit = rfid_unit(STATE)
    try:
        code, out, err = run(capsys, "--port", unit.url, "card", "write", "l", 3)
    finally:
        unit.close()
    assert (code, out, err) == (0, "the card on reader L is card 3 now\n", "")
    assert "WRITECARD L 3" in unit.received


@pytest.mark.parametrize("reply, said", [
    ("ERR no-tag no tag answers on that reader: hold the card flat on it",
     "no card answers on the reader: hold it flat on the reader and try again (no-tag)"),
    ("ERR card-in-use that card is on the other reader: two tags of one number are one card",
     "the unit refused it: that card is in the other slot already (card-in-use)"),
    ("ERR maintenance-required hold DEAL for 3 s on the unit first",
     "not in maintenance mode: hold DEAL for 3 seconds on the unit's own keypad"),
])
def test_card_write_says_why_the_unit_refused(capsys, reply, said):
    unit = rfid_unit(reply)
    try:
        code, _, err = run(capsys, "--port", unit.url, "card", "write", "R", 5)
    finally:
        unit.close()
    assert code == 1 and said in err


def test_card_write_on_a_unit_of_contacts_says_its_cards_are_cut(capsys, murl):
    code, _, err = run(capsys, "--port", murl, "card", "write", "L", 3)
    assert code == 1
    assert "this unit reads its cards by contacts" in err and "(unsupported)" in err


def test_card_write_checks_its_arguments_before_sending(capsys):
    for argv in (["card", "write", "X", "3"], ["card", "write", "L", "7"], ["card", "read"]):
        with pytest.raises(SystemExit) as exc:  # argparse's usage error, nothing sent
            cli.main(argv)
        assert exc.value.code == 2
        capsys.readouterr()
