"""Optional soft power latch: the Pico holds its own power on, and lets go to switch off.

A P-channel MOSFET high-side switch between the battery and VSYS, gated on by either the
latch-hold GPIO (through an NPN/N-MOSFET pulling the P-FET gate low) or, through diodes, by
any key of the armed keypad row or a card's seated contact (docs/hardware.md, "Power latch").
`hold()` at boot keeps the power on; `release()` drops it: the whole unit then draws only the
MOSFETs' leakage, and the next key or card powers it up again from a cold boot (B16: "the unit
boots on"). Pins are duck-typed: only `.value()` is used.
"""


class Latch:
    def __init__(self, pin):
        self.pin = pin
        self.hold()

    def hold(self):
        self.pin.value(1)

    def release(self):
        self.pin.value(0)
