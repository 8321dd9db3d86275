"""Game night at the pins of an emulated Pico running the genuine rp2 port (B19-B22): the
count and its winner, a bankruptcy held on -, the Free Parking pot turned on in maintenance,
and the game clock across switch-off and a power cut, in Pico time. On batteries (no USB
host), one unit per image; only what a player sees on the glass and hears from the piezo."""

import pytest

from tests.pico import rig
from tests.pico.play import expect, heard, insert, press, remove, shown, type_keys, wait_shown

MIN = 60000


@pytest.fixture(scope="module")
def pico(image):
    p = rig.Pico(image, usb=False, vbus=False)
    p.boot()
    return p


def _count_card(pico, card, keys):
    insert(pico, "L", card)
    wait_shown(pico, str(card), timeout_ms=400)
    wait_shown(pico, "15", "M", timeout_ms=1500)  # its count starts from its balance
    type_keys(pico, keys)
    remove(pico, "L")


def test_b19_the_count_and_its_winner_at_the_pins(pico):
    press(pico, "+")  # no card, nothing on the tally
    assert shown(pico) == expect("Count")
    _count_card(pico, 3, "9 M +")
    _count_card(pico, 5, "2 M +")
    assert shown(pico) == expect("Count")
    t0 = pico.now_ms()
    press(pico, "+")
    assert shown(pico) == expect("1-3")
    assert heard(pico, t0) == [("winner", "loud")]
    press(pico, "+")
    assert shown(pico) == expect("2-5")
    press(pico, "C")  # no card: the count ends, the unit in play again
    assert shown(pico) == expect("0")


def test_b21_minus_held_hands_the_whole_balance_over(pico):
    insert(pico, "R", 2)
    wait_shown(pico, "2", timeout_ms=400)
    insert(pico, "L", 4)
    pico.run(1200)
    t0 = pico.now_ms()
    press(pico, "-", hold_ms=3200)
    assert shown(pico) == expect("0")  # the payer's balance, all of it gone
    wait_shown(pico, "30", "M", timeout_ms=1500)  # then the creditor's
    assert [n for n, _ in heard(pico, t0)] == ["money-out", "money-in"]
    remove(pico, "L")
    remove(pico, "R")


def test_b22_the_pot_turned_on_in_maintenance_then_filled_and_collected(pico):
    press(pico, "DEAL", hold_ms=3100)  # maintenance, on the unit's own keypad
    wait_shown(pico, "SErv", timeout_ms=400)
    pico.run(1100)
    press(pico, "M")
    assert shown(pico) == expect("Pot 1")
    pico.run(1100)
    press(pico, "DEAL", hold_ms=3100)
    wait_shown(pico, "PLAY", timeout_ms=400)
    pico.run(1100)
    insert(pico, "R", 1)
    wait_shown(pico, "15", "M", timeout_ms=1500)
    type_keys(pico, "1 M +")
    assert shown(pico) == expect("14", "M")
    remove(pico, "R")
    press(pico, "M")
    assert shown(pico) == expect("Pot")
    wait_shown(pico, "1", "M", timeout_ms=1500)
    insert(pico, "L", 6)
    wait_shown(pico, "15", "M", timeout_ms=1500)
    press(pico, "+")
    assert shown(pico) == expect("16", "M")
    remove(pico, "L")


def test_b20_the_clock_runs_switched_off_wakes_for_its_warning_and_survives_a_cut(image):
    pico = rig.Pico(image, usb=False, vbus=False)
    pico.boot()
    type_keys(pico, "K 7 +")
    assert shown(pico) == expect("7.00")
    press(pico, "K")  # the view ends; the clock runs on
    pico.idle(61000)
    assert not pico.parts.display.lit()  # switched off (B16)
    t0 = pico.now_ms()
    pico.idle(2 * MIN - 61000 + 500)  # 5 minutes left: it wakes for the warning
    # idle() lets the loop see the time once a second: the time left as it was then
    assert pico.parts.display.lit() and shown(pico) in (expect("5.00"), expect("4.59"))
    assert ("clock-warning", "loud") in heard(pico, t0)
    pico.idle(20000)
    flash = pico.cut()  # 4:40 left at the cut; 5:00 was kept
    pico = rig.Pico(image, flash=flash, usb=False, vbus=False)
    pico.boot()
    press(pico, "K")
    assert shown(pico) == expect("5.00")  # at most a minute more than at the cut
    pico.run(1000)
    assert shown(pico) == expect("4.59")
    press(pico, "K")
    t0 = pico.now_ms()
    pico.idle(5 * MIN)
    assert pico.parts.display.lit() and shown(pico) == expect("End")
    assert ("clock-end", "loud") in heard(pico, t0)
    press(pico, "1")  # the key after End starts the count
    assert shown(pico) == expect("Count")
