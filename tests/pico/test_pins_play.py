"""The rulebook played at the pins of an emulated Pico running the genuine rp2 port.

One unit per MicroPython image, deployed as `make deploy` deploys it and booted by main.py,
on batteries (no USB host): the scenarios run in order on it, as one game at a table, and check
only what a player sees on the glass, hears from the piezo and sees on the two LEDs. Rule ids
are docs/rules.md's. Before the first card, asleep and awake:

- Between presses the keypad is not scanned: its rows are held low and a column's edge wakes
  the loop (idle CPU), the glass on all the while.
- On wake the new picture is written before the glass is switched on: the balance from before
  the switch-off never shows (B16); the LED option's is tests/pico/test_pins_tm1637.py's.

What the brain alone decides on keys and cards these scenarios already carry (GO once per
insertion B9, the undo B10, the tally B14) is proven in the core, on both interpreters
(tests/core), not again here. A key's time to the glass is `make bench`'s
(docs/performance.md); a line end before any other byte is tests/pico/test_pins_serial.py's.
Times are Pico time (rig.py).
"""

import pytest

from tests.pico import rig
from tests.pico.play import (expect, heard, insert, press, remove, shown, tones_heard,
                             tone_started, type_keys, wait_shown,
                             wake_shows_only_the_new_picture)


@pytest.fixture(scope="module")
def pico(image):
    p = rig.Pico(image, usb=False, vbus=False)
    p.boot()
    return p


def test_b1_b16_the_unit_boots_showing_0(pico):
    assert pico.parts.display.lit()
    assert shown(pico) == expect("0")
    # The glass is lit only once the first picture is in its RAM, which powers up holding
    # anything: nothing but the unit's picture ever shows).
    frames = pico.parts.display.frames
    first_write = [i for i, f in enumerate(frames) if f[1] == "write"][0]
    lit = [i for i, f in enumerate(frames) if f[1:] == ("command", 0x03)]
    assert lit and lit[0] > first_write, frames[:12]
    assert not pico.parts.red.is_on() and not pico.parts.green.is_on()


# -- asleep between presses, and the picture before the glass lights --------------------------

def _rows_changes(pico):
    """A list that grows by one at every level change of a keypad row pin, and a function that
    stops it."""
    changes = []
    stops = [pico.mcu.gpio[n].add_listener(lambda new, old: changes.append(pico.now_ms()))
             for n in pico.parts.pins["KEY_ROWS"]]
    return changes, lambda: [stop() for stop in stops]


def test_idle_the_keypad_is_not_scanned_and_its_rows_are_held_low(pico):
    changes, stop = _rows_changes(pico)
    pico.run(100)
    del changes[:]
    pico.run(500)
    stop()
    assert changes == []
    rows = [pico.mcu.gpio[n] for n in pico.parts.pins["KEY_ROWS"]]
    assert all(not r.value for r in rows)  # every row low: a closing switch pulls its column
    assert shown(pico) == expect("0")  # the display on all the while


def test_waking_writes_the_picture_before_the_lcd_is_switched_on(pico):
    wake_shows_only_the_new_picture(pico)  # and leaves it showing 0, as the game starts


def test_a_silent_beeper_runs_no_pwm_alarms_and_its_next_click_sounds_true(pico):
    # The rig stops the alarms of a PWM slice whose output cannot change (rig.py): the silent
    # beeper's 2 kHz slice costs the emulator nothing, and a tone brings them back in phase.
    ch = pico.mcu.pwm.channels[pico.parts.piezo.slice]
    alarms = (ch.alarm_a, ch.alarm_b, ch.alarm_bottom)
    inner = [a.callback for a in alarms]
    fired = []
    for a, fn in zip(alarms, inner, strict=True):
        a.callback = lambda fn=fn: (fired.append(pico.now_ms()), fn())
    try:
        pico.run(1000)
        assert pico.parts.piezo.now() is None and fired == []
        t0 = pico.now_ms()
        press(pico, "5")
        assert fired and heard(pico, t0) == [("click", "loud")]
        del fired[:]
        pico.run(1000)
        assert fired == []  # silent again
    finally:
        for a, fn in zip(alarms, inner, strict=True):
            a.callback = fn
    press(pico, "C")
    assert shown(pico) == expect("0")


# -- the game ---------------------------------------------------------------------------------

def test_b3_a_card_shows_its_number_then_its_balance(pico):
    t0 = pico.now_ms()
    insert(pico, "L", 3)
    seen = wait_shown(pico, "3", timeout_ms=400)
    seated = pico.parts.slots["L"].seated_ms
    assert seen - seated < 150  # the stable-contact time (50 ms) and a scan or two
    pico.run(700)
    assert shown(pico) == expect("3")  # still the number, a second in all
    assert heard(pico, t0) == [("card", "loud")]
    wait_shown(pico, "15", "M", timeout_ms=500)
    assert 950 <= pico.now_ms() - seen <= 1200


def test_b4_receive_from_the_bank(pico):
    t0 = pico.now_ms()
    type_keys(pico, "1 5 0")
    assert shown(pico) == expect("150")
    press(pico, "K")
    assert shown(pico) == expect("150", "k")
    press(pico, "+")
    assert shown(pico) == expect("15.15", "M")
    tones = heard(pico, t0)
    assert tones[-1] == ("money-in", "loud")
    assert [n for n, _ in tones[:-1]] == ["click"] * 4


def test_b6_player_to_player(pico):
    insert(pico, "R", 5)
    wait_shown(pico, "5", timeout_ms=400)
    press(pico, "2")  # a key during the card's second ends it and is input (B3)
    assert shown(pico) == expect("2")
    type_keys(pico, ". 5 M")
    t0 = pico.now_ms()
    press(pico, "-")
    assert shown(pico) == expect("12.5", "M")  # the payer's new balance first
    wait_shown(pico, "17.65", "M", timeout_ms=1300)  # then the payee's
    names = [n for n, _ in heard(pico, t0)]
    assert names[-2:] == ["money-out", "money-in"]


def test_b8_no_overdraft(pico):
    type_keys(pico, "2 0 M")
    t0 = pico.now_ms()
    press(pico, "-")
    assert shown(pico) == expect("Err1")
    assert ("error", "loud") in heard(pico, t0)
    pico.run(1200)
    press(pico, "C")  # the entry stays as typed until cleared (B2)
    assert shown(pico) == expect("12.5", "M")  # both cards in: the payer's balance (B3)


def test_b12_the_volume_cycles_and_the_beeper_follows(pico):
    remove(pico, "R")
    remove(pico, "L")
    press(pico, ".")
    assert shown(pico) == expect("1")
    t0 = pico.now_ms()
    insert(pico, "L", 1)
    pico.run(300)
    assert heard(pico, t0) == [("card", "soft")]
    remove(pico, "L")
    pico.run(1000)
    press(pico, ".")
    assert shown(pico) == expect("0")
    t0 = pico.now_ms()
    insert(pico, "L", 1)
    pico.run(300)
    assert heard(pico, t0) == []  # volume 0: nothing sounds (B18)
    remove(pico, "L")
    pico.run(1000)
    press(pico, ".")
    assert shown(pico) == expect("2")


def test_b13_deal_flashes_red_then_green(pico):
    pico.run(1000)
    t0 = pico.now_ms()
    press(pico, "DEAL")
    pico.run(2100)
    red, green = pico.parts.red, pico.parts.green
    assert red.pattern(t0 + 100, pico.now_ms()) == "slow"  # B13 'running'
    assert not green.is_on()
    # The end comes 13-50 s after DEAL: the deal-end tone and the green light. The pins cannot
    # see the deadline, so time jumps 500 ms at a time (the end is seen up to 0.5 s late).
    step = 500
    end = None
    while pico.now_ms() - t0 < 50000 + 2 * step:
        pico.idle(step, step_ms=step, window_ms=20)
        names = [n for n, _ in tones_heard(pico, t0)]
        if "deal-end" in names:
            end = [t for t, s in pico.parts.piezo.history if s and s[0] == 2400][0]
            break
        assert not green.is_on()
    assert end is not None, "no deal-end tone within 51 s of DEAL"
    assert 13000 <= end - t0 <= 50000 + step + 40
    assert "deal-warning" in names  # the last 5 s were announced (B13 'ending')
    t1 = pico.now_ms()
    pico.run(2100)
    assert not red.is_on() and red.pattern(t1, pico.now_ms()) == "off"
    assert green.pattern(t1, pico.now_ms()) == "slow"  # B13 'done'
    pico.idle(4000)
    pico.run(1100)
    assert green.pattern(pico.now_ms() - 1000, pico.now_ms()) == "off"


def test_b16_switch_off_after_a_minute_and_a_key_wakes_it(pico):
    pico.idle(8000)  # the green flashing of the deal's end is over
    insert(pico, "L", 4)
    wait_shown(pico, "15", "M", timeout_ms=1500)
    remove(pico, "L")
    pico.idle(58000)
    assert pico.parts.display.lit()  # not yet
    pico.idle(3000)
    assert not pico.parts.display.lit()
    assert not pico.parts.red.is_on() and not pico.parts.green.is_on()
    assert pico.parts.piezo.now() is None
    press(pico, "5", hold_ms=60, gap_ms=200)  # a brisk tap wakes it; it is not input
    assert pico.parts.display.lit()
    assert shown(pico) == expect("0")
    insert(pico, "L", 5)
    wait_shown(pico, "12.5", "M", timeout_ms=1500)  # kept through the switch-off


def test_b11_holding_c_three_seconds_starts_a_new_game(pico):
    keys = pico.parts.keys
    t0 = pico.now_ms()
    keys.press("C")
    pico.run(60)  # the firmware sees the key go down (a click), then time passes
    pico.idle(2840)
    assert [n for n, _ in tones_heard(pico, t0)] == ["click"]  # not yet
    # A banker holds on until the new-game tone sounds, then lets go.
    pico.run_until(lambda: tone_started(pico, "new-game", t0), 1500, 5)
    assert 3000 <= pico.now_ms() - t0 <= 3300
    keys.release("C")
    assert heard(pico, t0)[-1] == ("new-game", "loud")
    remove(pico, "L")
    insert(pico, "L", 5)
    wait_shown(pico, "15", "M", timeout_ms=1500)


def test_two_keys_at_once_are_both_taken_in_the_order_pressed(pico):
    # "1" and "4" share a column, "4" and "5" a row: the open-drain scan tells each apart.
    remove(pico, "L")
    keys = pico.parts.keys
    keys.press("1")
    pico.run(40)
    keys.press("4")
    pico.run(40)
    keys.press("5")
    pico.run(40)
    keys.release("4")
    keys.release("1")
    keys.release("5")
    pico.run(60)
    assert shown(pico) == expect("145")
    press(pico, "C")
    assert shown(pico) == expect("0")


def test_b2_a_hand_on_the_keypad_moves_no_money(pico):
    # All 17 keys down at once: the matrix's look reports them row by row, and typed in that
    # order they were a payment (4 5 6 K -), a deal, a new game held 3 s and a receive.
    insert(pico, "R", 2)
    pico.run(1100)
    balance = shown(pico)
    keys = pico.parts.keys
    every = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M", "K", "C", "DEAL",
             "+", "-")
    t = pico.now_ms()
    for k in every:
        keys.press(k)
    pico.run(3500)
    for k in every:
        keys.release(k)
    tones = [name for name, _ in heard(pico, t)]
    assert tones[-1] == "error" and set(tones) <= {"click", "error"}, tones
    # The two keys the look found before the third, at most, were taken: an entry of two
    # digits or fewer (which two is the matrix's order), cleared by C.
    typed = shown(pico)
    assert typed[1] == "" and len(typed[0].replace(".", "").strip()) <= 2, typed
    press(pico, "C")
    assert shown(pico) == balance  # no payment, and no new game
    assert not pico.parts.red.is_on()
    pico.run(1000)
    assert not pico.parts.red.is_on()  # no deal
    remove(pico, "R")


def test_brisk_keys_pressed_as_the_garbage_is_collected_are_all_taken(pico):
    # The loop collects a second after the unit last changed (app.py's quiet_ms): each key
    # below touches from just before that moment to just after, while the collection runs.
    keys = pico.parts.keys
    press(pico, "1", hold_ms=35)
    t0 = keys.first_closed["1"]
    for key, offset_ms in (("2", 1), ("3", 3), ("4", 5), ("5", 8)):
        pico.run_to(t0 + 1000 + offset_ms)
        keys.press(key)
        t0 = keys.first_closed[key]
        pico.run(35)
        keys.release(key)
    pico.run(60)
    assert shown(pico) == expect("12345")
    press(pico, "C")
    assert shown(pico) == expect("0")


def test_b3_a_card_the_wrong_way_round_reads_as_no_card(pico):
    t0 = pico.now_ms()
    insert(pico, "L", 3, wrong_way=True)
    pico.run(400)
    assert shown(pico) == expect("0")
    assert heard(pico, t0) == []
    remove(pico, "L")


def test_b5_pay_the_bank_and_a_card_pulled_half_out_is_out(pico):
    insert(pico, "R", 2)
    wait_shown(pico, "2", timeout_ms=400)
    wait_shown(pico, "15", "M", timeout_ms=1500)
    type_keys(pico, "2 0 0 K")
    t0 = pico.now_ms()
    press(pico, "-")
    assert shown(pico) == expect("14.8", "M")
    assert heard(pico, t0)[-1] == ("money-out", "loud")
    type_keys(pico, "5 0")
    pico.parts.slots["R"].half_out()  # the seated contact opens: the card is out (B3)
    pico.run(200)
    assert shown(pico) == expect("0")
    pico.parts.slots["R"].push_back()
    wait_shown(pico, "2", timeout_ms=400)
    wait_shown(pico, "14.8", "M", timeout_ms=1500)  # the entry it had was discarded (B3)


def test_b16_a_card_wakes_the_unit_too(pico):
    remove(pico, "R")
    pico.idle(61000)
    assert not pico.parts.display.lit()
    t0 = pico.now_ms()
    insert(pico, "L", 2)
    wait_shown(pico, "2", timeout_ms=600)
    assert heard(pico, t0) == [("card", "loud")]
    wait_shown(pico, "14.8", "M", timeout_ms=1500)
