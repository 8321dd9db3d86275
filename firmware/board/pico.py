"""The Pico's body: board.Board with the drivers behind it (board/drivers/), the USB host's
port setup read from the USB controller, and the Pico's own power management (a timed
lightsleep, see app.py). board/build.py's build() makes one from the pin map in pins.py.
"""

import sys

import machine

try:
    from micropython import const
except ImportError:  # CPython (the tests' fake machine): const(x) is x
    const = int  # type: ignore[assignment]

from board import Board, segments
from brain import tones


# RP2040 datasheet 4.1.2.5: the USB host's last SETUP packet is the first 8 bytes of the USB
# DPRAM, there until the next one.
_SETUP = const(0x50100000)


class PicoBoard(Board):
    def __init__(self, display, keypad, slots, beeper, leds, latch=None, vbus=None):
        self.display = display
        self.keypad = keypad
        self.slots = slots  # {'L': Slot, 'R': Slot}
        self.beeper = beeper
        self.leds = leds
        self.latch = latch
        self.vbus = vbus
        self._rp2 = sys.platform == "rp2"
        # RFID slots (board/drivers/tags.py) rest while the unit is dark, and write cards.
        self._tags = [s for s in (slots or {}).values() if hasattr(s, "rest")]
        self.writes_cards = bool(self._tags)
        self._dark = False

    def show(self, text, k, M):
        if self._dark:
            self._dark = False
            for slot in self._tags:
                slot.wake()
        self.display.show_patterns(segments.cells(text), k, M)

    def blank(self):
        self.display.off()
        self.leds.off()
        self.beeper.stop()
        if self._tags:
            self._dark = True
            for slot in self._tags:
                slot.rest()

    def write_card(self, slot, number):
        write = getattr(self.slots[slot], "write", None)
        return "unsupported" if write is None else write(number)

    def tone(self, name, volume, now):
        notes = tones.TONES.get(name)
        if notes:
            self.beeper.play(notes, volume, now)

    def lights(self, red, green):
        self.leds.set(red, green)

    def host_session(self):
        """Changes whenever the USB host sends a control request: a terminal or a host tool
        opening the port (DTR raised, line coding set) or closing it (DTR dropped).
        MicroPython does not say whether a host has the port open; the last SETUP packet,
        which stays in the USB controller's DPRAM until the next, does. 0 off rp2."""
        if not self._rp2:
            return 0
        m = machine.mem16  # 16-bit reads folded into a small int: nothing is allocated
        return (m[_SETUP] ^ (m[_SETUP + 2] << 5) ^ (m[_SETUP + 4] << 10)
                ^ (m[_SETUP + 6] << 14))

    def usb_powered(self):
        return True if self.vbus is None else bool(self.vbus.value())

    def sleep(self, ms):
        """A timed light sleep: the clocks stop, the RP2040 draws about a milliamp."""
        machine.lightsleep(ms)
