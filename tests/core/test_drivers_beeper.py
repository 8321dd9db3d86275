"""The beeper driver: a tone starts at once, plays on as time is given, never blocks."""

import machine
from brain import tones
from board.drivers.beeper import Beeper


def make():
    pwm = machine.PWM(machine.Pin("BUZ"), freq=2000, duty_u16=0)
    b = Beeper(pwm)
    return pwm, b


def test_a_tone_starts_without_blocking_and_advances_with_time():
    pwm, b = make()
    notes = tones.TONES["money-in"]  # 2200 Hz 70 ms, 2800 Hz 70 ms, 3400 Hz 110 ms
    b.play(notes, 2, 1000)
    # play() returned with the first note sounding and the rest still to come
    assert (pwm.freq(), pwm.duty_u16()) == (2200, 32768)
    assert b.deadline() == 1070
    b.update(1069)
    assert pwm.freq() == 2200 and pwm.duty_u16() == 32768
    b.update(1070)
    assert pwm.duty_u16() == 0  # the short gap between notes
    b.update(1070 + Beeper.gap_ms)
    assert (pwm.freq(), pwm.duty_u16()) == (2800, 32768)
    b.update(5000)  # long after: caught up to the end, silent
    assert pwm.duty_u16() == 0
    assert b.deadline() is None
    played = [f for f, d in pwm.history if d]
    assert 3400 in played


def test_volume_levels():
    # B12: 1 is soft (a narrow pulse), 0 is silent
    pwm, b = make()
    b.play(tones.TONES["click"], 1, 0)
    assert pwm.duty_u16() == Beeper.duty[1] and 0 < pwm.duty_u16() < 32768
    b.play(tones.TONES["click"], 0, 0)
    assert pwm.duty_u16() == 0 and b.deadline() is None


def test_rests_are_silent_and_a_new_tone_replaces_the_old():
    pwm, b = make()
    b.play(tones.TONES["card"], 2, 0)  # 2000 Hz 60 ms, rest 30 ms, 2600 Hz 60 ms
    b.update(60 + Beeper.gap_ms)
    assert pwm.duty_u16() == 0  # the rest
    b.play(tones.TONES["error"], 2, 70)
    assert (pwm.freq(), pwm.duty_u16()) == (600, 32768)
    assert b.deadline() == 320


def test_the_deadline_wraps_with_the_ticks():
    pwm, b = make()
    b.play(tones.TONES["click"], 2, (1 << 30) - 5)
    assert b.deadline() == 10
    b.update(9)
    assert b.deadline() is not None
    b.update(10)
    assert b.deadline() is None
