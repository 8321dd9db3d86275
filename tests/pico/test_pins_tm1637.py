"""The LED option: the same firmware with `DISPLAY = "tm1637"` in pins.py, a TM1637 module at
CLK/DIO (GP1/GP2) emulated from its datasheet, read through the module's grid order
(simulator/pico/glass.py: 2 1 0 5 4 3 from the left). B1, B3, B4 at the pins, and B16: on wake
the new picture is written before the LEDs are switched on, as on the LCD
(tests/pico/test_pins_play.py).
"""

import os

import pytest

from tests.pico import rig
from tests.pico.play import (expect, insert, press, remove, shown, type_keys, wait_shown,
                             wake_shows_only_the_new_picture)


def tm1637_pins():
    with open(os.path.join(rig.REPO, "firmware", "pins.py")) as f:
        src = f.read()
    assert 'DISPLAY = "ht1621"' in src
    # pins.py as a maker edits it; a .py beside the deployed pins.mpy is what MicroPython
    # imports first.
    return src.replace('DISPLAY = "ht1621"', 'DISPLAY = "tm1637"').encode()


@pytest.fixture(scope="module")
def pico(image):
    p = rig.Pico(image, usb=False, vbus=False, display="tm1637",
                 fs_extra=[("pins.py", tm1637_pins())])
    p.boot()
    return p


def test_b1_the_led_module_boots_showing_0(pico):
    assert pico.parts.display.lit()
    assert 1 <= pico.parts.display.brightness <= 7
    assert shown(pico) == expect("0")


def test_b3_b4_a_card_and_a_receive_on_the_leds(pico):
    insert(pico, "L", 6)
    wait_shown(pico, "6", timeout_ms=400)
    wait_shown(pico, "15", "M", timeout_ms=1500)
    type_keys(pico, "1 2 . 5")
    press(pico, "K")
    assert shown(pico) == expect("12.5", "k")
    type_keys(pico, "C 2 . 5 M +")
    assert shown(pico) == expect("17.5", "M")


def test_the_led_display_wakes_the_same_way(pico):
    remove(pico, "L")
    assert shown(pico) == expect("0")
    wake_shows_only_the_new_picture(pico)
