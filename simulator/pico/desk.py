"""The firmware's RFID driver on the desktop: board/drivers/mfrc522.py and tags.py wired straight
to an emulated MFRC522 (rfid.py), with a clock of their own. What the driver's tests run on,
and how a box of tags is numbered as the unit numbers them.
"""

from simulator.pico.cards import tag_box
from simulator.pico.rfid import MFRC522


class Desk:
    """The firmware's driver and slot on one emulated chip: a machine.SPI and a chip-select pin
    for the driver, each SPI byte 2 us (4 Mbit/s, and the call around it). Desks made with
    another's `beside` share its time: two readers on one table."""

    def __init__(self, beside=None):
        from board.drivers.mfrc522 import MFRC522 as Driver
        from board.drivers.tags import TagSlot

        self.time = beside.time if beside is not None else [0.0]  # us, shared
        self.chip = MFRC522(self.now_us)
        self.driver = Driver(self, _Select(self.chip))
        self.slot = TagSlot(self.driver, self.pause)

    def now_us(self):
        return self.time[0]

    def pause(self, ms):
        self.time[0] += ms * 1000.0

    def write(self, buf):
        for b in buf:
            self.time[0] += 2.0
            self.chip.byte(b)

    def write_readinto(self, buf, into):
        for i, b in enumerate(buf):
            self.time[0] += 2.0
            into[i] = self.chip.byte(b)


class _Select:
    def __init__(self, chip):
        self.chip = chip

    def value(self, v):
        self.chip.select(not v)


def numbered_box():
    """tag_box(), each tag numbered with its card by the firmware's own writer."""
    box = tag_box()
    desk = Desk()
    desk.slot.start()
    for n, tag in box.items():
        desk.chip.place(tag)
        desk.pause(5)  # the tag powers up in the field
        err = desk.slot.write(n)
        desk.chip.take(tag)
        if err:
            raise RuntimeError("card %d: %s" % (n, err))
    return box
