"""Asleep and awake, at the pins of an emulated Pico running the genuine rp2 port.

- Between presses the keypad is not scanned: its rows are held low and a column's edge wakes
  the loop (idle CPU), the glass on all the while.
- On wake the new picture is written before the glass is switched on: the balance from before
  the switch-off never shows (B16), on the LCD and on the LED option alike.

A key's time to the glass is `make bench`'s (docs/performance.md); a line end before any other
byte is tests/pico/test_pins_serial.py's. Times are Pico time (rig.py).
"""

import os

import pytest

from tests.pico import rig
from tests.pico.play import expect, press, shown, type_keys, wait_shown


def _rows_changes(pico):
    """A list that grows by one at every level change of a keypad row pin."""
    changes = []
    for n in pico.parts.pins["KEY_ROWS"]:
        pico.mcu.gpio[n].add_listener(lambda new, old: changes.append(pico.now_ms()))
    return changes


@pytest.fixture(scope="module")
def pico(image):
    p = rig.Pico(image, usb=False, vbus=False)
    p.boot()
    return p


# -- asleep between presses -------------------------------------------------------------------

def test_idle_the_keypad_is_not_scanned_and_its_rows_are_held_low(pico):
    changes = _rows_changes(pico)
    pico.run(100)
    del changes[:]
    pico.run(500)
    assert changes == []
    rows = [pico.mcu.gpio[n] for n in pico.parts.pins["KEY_ROWS"]]
    assert all(not r.value for r in rows)  # every row low: a closing switch pulls its column
    assert shown(pico) == expect("0")  # the display on all the while


# -- the picture before the glass lights ------------------------------------------------------

def _watch_lit(pico):
    """[(lit, what the glass shows)] after every frame the display chip takes."""
    disp = pico.parts.display
    seen = []
    inner = disp._frame

    def frame(*args):
        inner(*args)
        seen.append((disp.lit(), shown(pico)))

    disp._frame = frame
    return seen


def _wake_shows_only_the_new_picture(pico):
    type_keys(pico, "1 5 0")
    assert shown(pico) == expect("150")
    pico.idle(61000)  # B16: a minute without input switches it off
    assert shown(pico) == ("", "")
    seen = _watch_lit(pico)
    press(pico, "7")  # wakes it; the waking key is no input (B16)
    wait_shown(pico, "0", timeout_ms=200)
    lit = [s for on, s in seen if on]
    assert lit and all(s == expect("0") for s in lit), seen  # never the 150 of before


def test_waking_writes_the_picture_before_the_lcd_is_switched_on(pico):
    _wake_shows_only_the_new_picture(pico)


def test_the_led_display_wakes_the_same_way(image):
    # The LED option: the pin map says so (pins.py beside the deployed pins.mpy: MicroPython
    # imports a module's .py before its .mpy).
    with open(os.path.join(rig.REPO, "firmware", "pins.py")) as f:
        source = f.read()
    assert 'DISPLAY = "ht1621"' in source
    pins = source.replace('DISPLAY = "ht1621"', 'DISPLAY = "tm1637"').encode()
    p = rig.Pico(image, usb=False, vbus=False, display="tm1637", fs_extra=[("pins.py", pins)])
    p.boot()
    _wake_shows_only_the_new_picture(p)
