"""The Pico's body: board.Board with the drivers behind it (board/drivers/), the USB host's
port setup read from the USB controller, and the Pico's own power management (a timed
lightsleep, see app.py). board/build.py's build() makes one from the pin map in pins.py.
"""

import machine

from board import Board, segments
from brain import tones


class PicoBoard(Board):
    def __init__(self, display, keypad, slots, beeper, leds, latch=None, vbus=None,
                 usb_setup=None):
        self.display = display
        self.keypad = keypad
        self.slots = slots  # {'L': Slot, 'R': Slot}
        self.beeper = beeper
        self.leds = leds
        self.latch = latch
        self.vbus = vbus
        # board/drivers/sio.py's usb_setup on rp2: native code, as the loop's poll asks at
        # every wake (Waker); None elsewhere.
        self._usb_setup = usb_setup

    def show(self, text, k, M):
        self.display.show_patterns(segments.cells(text), k, M)

    def blank(self):
        self.display.off()
        self.leds.off()
        self.beeper.stop()

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
        read = self._usb_setup
        return 0 if read is None else read()

    def usb_powered(self):
        return True if self.vbus is None else bool(self.vbus.value())

    def sleep(self, ms):
        """A timed light sleep: the clocks stop, the RP2040 draws about a milliamp."""
        machine.lightsleep(ms)
