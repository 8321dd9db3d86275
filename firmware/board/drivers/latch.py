"""Optional soft power latch: the Pico holds its own power on, and lets go to switch off.

A P-channel MOSFET high-side switch between the battery and VSYS, gated on either by the
latch-hold GPIO (through an NPN pulling the P-FET gate low) or by a momentary ON button
(docs/hardware.md, "Power latch"). `hold()` at boot keeps the power on; `release()` drops it:
the unit then draws only the MOSFETs' leakage, and the ON button powers it up again from a cold
boot (B16: "the unit boots on"). Pins are duck-typed: only `.value()` is used.
"""


class Latch:
    def __init__(self, pin):
        self.pin = pin
        self.hold()

    def hold(self):
        self.pin.value(1)

    def release(self):
        self.pin.value(0)
