"""Soft power latch (docs/hardware.md, "Power latch"): high holds the power on, low cuts it."""


class Latch:
    def __init__(self, pin):
        self.pin = pin
        pin.value(1)

    def release(self):
        self.pin.value(0)
