"""The Pico's body: board.Board with the drivers behind it (board/drivers/), the USB host's
port setup read from the USB controller, and the Pico's own power management (a timed
lightsleep, see app.py). board/build.py's build() makes one from the pin map in pins.py.
"""

import sys

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
        self._rp2 = sys.platform == "rp2"
        self._quiet = False  # quiet() holds the USB and pin interrupts off
        self._masked = 0  # those of them that were enabled (NVIC bits)
        # RFID slots (board/drivers/tags.py) rest while the unit is dark, and write cards.
        self._tags = [s for s in (slots or {}).values() if hasattr(s, "rest")]
        self.writes_cards = bool(self._tags)
        self._dark = False
        # The HT1621's quick way from a text to the glass (the LED option has none)
        self._quick = getattr(display, "show_text", None)
        self._codes = segments.ascii_codes() if self._quick is not None else None

    def show(self, text, k, M):
        if self._dark:
            self._dark = False
            for slot in self._tags:
                slot.wake()
        quick = self._quick
        if quick is None or not quick(text, k, M, self._codes):
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
        read = self._usb_setup
        return 0 if read is None else read()

    def quiet(self):
        """Hold the USB controller's and the pins' interrupts off until loud(): a key's contact
        to its picture on the glass without the USB stack's work, or a bouncing contact's
        edges, in between. Only those two, masked in the NVIC (ARMv6-M: ICER/ISER at
        0xE000E180/0xE000E100; RP2040 datasheet 2.3.2: USBCTRL_IRQ 5, IO_IRQ_BANK0 13): the
        timer's goes on, so a sleep in the key's work (os.urandom samples the ring oscillator
        in sleep_until) still ends. One that comes meanwhile is taken at loud(); the USB
        controller NAKs the host until then, losing nothing. rp2 only; again while quiet:
        nothing."""
        if self._rp2 and not self._quiet:
            m = machine.mem32
            self._quiet = True
            self._masked = m[0xE000E100] & 0x2020  # those of the two enabled (both, in use)
            m[0xE000E180] = 0x2020

    def loud(self):
        if self._quiet:
            self._quiet = False
            machine.mem32[0xE000E100] = self._masked

    def usb_powered(self):
        return True if self.vbus is None else bool(self.vbus.value())

    def sleep(self, ms):
        """A timed light sleep: the clocks stop, the RP2040 draws about a milliamp."""
        machine.lightsleep(ms)
