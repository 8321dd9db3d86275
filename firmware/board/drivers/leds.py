"""Red and green indicator LEDs, blinking in the patterns of lights.py.

Each LED on a GPIO through a series resistor (docs/hardware.md). `set(red, green)` takes the
unit's modes ('off', 'on', 'slow', 'fast'); `update(now)` sets each pin from
`lights.lit(mode, now)`, writing a pin only when its level changes. Nothing runs from a timer.
Pins are duck-typed: only `.value()` is used; `active_high = False` for LEDs wired to 3V3.
"""

from board import lights


class Leds:
    active_high = True

    def __init__(self, red, green):
        self.pins = (red, green)
        self.modes = ["off", "off"]
        self._levels = [-1, -1]
        self.update(0)

    def set(self, red, green):
        self.modes[0] = red
        self.modes[1] = green

    def update(self, now):
        for i in range(2):
            level = 1 if lights.lit(self.modes[i], now) else 0
            if not self.active_high:
                level ^= 1
            if level != self._levels[i]:
                self.pins[i].value(level)
                self._levels[i] = level

    def off(self):
        self.set("off", "off")
        self.update(0)
