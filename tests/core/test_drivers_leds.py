"""The red and green LEDs follow lights.lit; the power latch holds and lets go."""

import machine
from board.drivers.latch import Latch
from board.drivers.leds import Leds


def test_slow_and_fast_flash():
    red = machine.Pin("RED", machine.Pin.OUT)
    green = machine.Pin("GREEN", machine.Pin.OUT)
    leds = Leds(red, green)
    leds.set("slow", "on")
    leds.update(0)
    assert (red.level, green.level) == (1, 1)
    leds.update(499)
    assert red.level == 1
    leds.update(500)
    assert red.level == 0
    leds.set("fast", "off")
    leds.update(1000)
    assert (red.level, green.level) == (1, 0)
    leds.update(1125)
    assert red.level == 0
    machine.clear()
    leds.update(1130)
    assert machine.trace == []  # a pin is written only when its level changes
    leds.off()
    assert (red.level, green.level) == (0, 0)


def test_latch():
    pin = machine.Pin("HOLD", machine.Pin.OUT)
    latch = Latch(pin)
    assert pin.level == 1
    latch.release()
    assert pin.level == 0
