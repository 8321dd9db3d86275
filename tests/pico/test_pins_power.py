"""Power cuts at random instants of transactions, on the emulated Pico's own flash (B17).

The unit runs on batteries; a card is in; `1 0 K +` is typed at the keypad and the power goes
a random few milliseconds after the + contact closes: before the commit, inside LittleFS's
writes, or after the new balance showed. The emulator stops where the core is, the flash keeps
what it holds, and the unit boots again on it. Every balance it then shows is the one before or
the one after that transaction, never anything else; a transaction whose new balance was shown
before the cut is never lost; the store is never reported damaged for a cut (a line cut short is
ignored, B17).
"""

import json
import random

import pytest

from tests.pico import rig
from tests.pico.play import expect, insert, long_game, press, shown, type_keys, wait_shown

CUTS = 3  # each costs a boot (~10 s of wall time)


def balance_shown(pico):
    text, ann = shown(pico)
    mult = {"M": 1000000, "k": 1000, "": 1}[ann]
    return round(float(text) * mult)


def boot_with_card(image, flash):
    pico = rig.Pico(image, flash=flash, usb=False, vbus=False)
    pico.boot()
    assert shown(pico) == expect("0"), "the unit reports %r after a power cut" % (shown(pico),)
    insert(pico, "L", 1)
    wait_shown(pico, "1", timeout_ms=400)
    pico.run(1100)
    return pico


@pytest.mark.parametrize("seed", [1])
def test_b17_a_power_cut_inside_a_transaction_loses_nothing_acknowledged(image, version, seed):
    rnd = random.Random("%s-%d" % (version, seed))
    pico = boot_with_card(image, None)
    expected = balance_shown(pico)
    assert expected == 15000000
    for _ in range(CUTS):
        type_keys(pico, "1 0 K")
        after = expected + 10000
        pico.parts.keys.press("+")
        cut_ms = rnd.uniform(1.0, 40.0)
        shown_before_cut = []
        # Watch the glass millisecond by millisecond up to the cut: was the new balance shown?
        end = pico.now_ms() + cut_ms
        while end - pico.now_ms() > 0.001:  # to the microsecond: no float-rounding spin
            pico.run(min(0.5, end - pico.now_ms()))
            disp = pico.parts.display
            if disp.lit() and not disp.mid_frame() and shown(pico)[1] == "M":
                shown_before_cut.append(balance_shown(pico))
        flash = pico.cut()
        pico = boot_with_card(image, flash)
        got = balance_shown(pico)
        assert got in (expected, after), "after a cut %.1f ms into it: %d" % (cut_ms, got)
        if after in shown_before_cut:
            assert got == after, "a transaction shown before the cut was lost"
        expected = got
    # and the unit goes on playing on that flash
    type_keys(pico, "1 0 K")
    press(pico, "+")
    assert balance_shown(pico) == expected + 10000


def test_b17_a_long_game_comes_back_whole_at_boot(image, tmp_path):
    # Both slots as full as they get: each a checkpoint of 200 records and the newest a journal
    # of 127 lines (the next is a checkpoint), as 643 transactions leave them. A Pico's heap
    # read a slot of about a hundred lines back no more: Err6, or Err5 and the transactions
    # since the older checkpoint gone, though every line on the flash was whole; and LOG 200
    # or BACKUP then ran it out of memory, and it restarted.
    files, replies = long_game(tmp_path / "state", b"BALANCES\nLOG 200\n")
    balances, log = replies[-2:]
    assert json.loads(balances[3:])["1"] == 15000000 + 643 * 10000
    assert sorted(f.count(b"\n") for _, f in files) == [1, 201 + 127, 201 + 129]
    pico = rig.Pico(image, fs_extra=files, usb=True, vbus=False)
    pico.boot()
    assert json.loads(pico.command("HELLO")[3:])["store"] == "ok"
    assert pico.command("BALANCES") == balances
    assert pico.command("LOG 200", timeout_ms=30000) == log  # 26 KB: it crashed the unit
    backup = json.loads(pico.command("BACKUP", timeout_ms=30000)[3:])
    assert len(backup["log"]) == 200 and backup["seq"] == 643
    # and it plays on at its keys: the next line is a checkpoint, written from what it read
    insert(pico, "R", 2)
    insert(pico, "L", 1)
    pico.run(1100)
    # ... while a host's LOG 200 is made and sent, some seconds: a key tapped while it was
    # made, most of a second, was lost, and a transfer typed then went astray
    start = len(pico.rx)
    pico.send("LOG 200\n")
    pico.run(5)
    type_keys(pico, "1 0 K")
    press(pico, "-")
    wait_shown(pico, "8.56", "M", timeout_ms=400)  # the payer's, card 2
    assert pico.reply(start, timeout_ms=30000) == log  # the game as it was asked
    assert json.loads(pico.command("BALANCES")[3:])["1"] == 21440000
    # ... and while a BACKUP is: its transfer lost too, but for the first key. That "-" is
    # the journal's 129th line, so a checkpoint: a turn of 200 ms or more, and of a transfer
    # typed during it the keys were lost but one (a C after it would have undone the first),
    # and a key typed twice or more was one press ("5 5 5 K" came out "5K")
    start = len(pico.rx)
    pico.send("BACKUP\n")
    pico.run(5)
    type_keys(pico, "1 0 K - 5 5 5 K")
    press(pico, "-")
    wait_shown(pico, "7.995", "M", timeout_ms=400)
    backup = json.loads(pico.reply(start, timeout_ms=30000)[3:])
    assert backup["seq"] == 644 and len(backup["log"]) == 200  # as it was asked
    assert json.loads(pico.command("BALANCES")[3:])["1"] == 22005000
