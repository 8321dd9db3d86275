"""The firmware's RFID driver on the desktop: board/drivers/mfrc522.py and tags.py wired straight
to an emulated MFRC522 (rfid.py), with a clock of their own. What the driver's tests run on,
how a box of tags is numbered as the unit numbers them, and the RFID build's pins.py laid on
the emulated Pico's flash (session.py's start).
"""

import os

from simulator.pico.cards import tag_box
from simulator.pico.rfid import MFRC522

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


def rfid_pins():
    """firmware/pins.py as a maker edits it for the RFID build: (its text, the map as a dict)."""
    with open(os.path.join(REPO, "firmware", "pins.py")) as f:
        src = f.read()
    src = src.replace('SLOTS = "contacts"', 'SLOTS = "rfid"')
    ns = {}
    exec(compile(src, "pins.py", "exec"), ns)
    return src, ns


def with_file(flash, layout, path, data):
    """The file system image flash (bytes) with path's contents set to data, as `mpremote cp`
    leaves it."""
    from littlefs import LittleFS, UserContext

    ctx = UserContext(buffer=bytearray(flash))
    fs = LittleFS(context=ctx, block_size=layout.fs_blocksize, block_count=layout.fs_blockcount,
                  prog_size=256, disk_version=0x00020000)
    with fs.open(path, "wb") as f:
        f.write(data)
    fs.unmount()
    return bytes(ctx.buffer)
