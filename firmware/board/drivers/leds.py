"""The red and green LEDs, each from a GPIO through its resistor, blinking as board/lights.py."""

from board import lights


class Leds:
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
            if level != self._levels[i]:  # a pin written only when its level changes
                self.pins[i].value(level)
                self._levels[i] = level

    def off(self):
        self.set("off", "off")
        self.update(0)
