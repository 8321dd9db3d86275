"""The Pico's body: board.Board on the drivers board/build.py makes from pins.py."""

import sys

import machine

try:
    from micropython import const
except ImportError:  # CPython, on the tests' fake machine
    const = int  # type: ignore[assignment]

from board import Board, segments
from brain import tones

# RP2040 datasheet 4.1.2.5: the host's last SETUP packet, the first 8 bytes of the USB DPRAM
_SETUP = const(0x50100000)
_IN_BUF = const(0x50100090)  # the USB serial port's IN endpoint's (EP2) buffer control
# EP15 OUT's endpoint control: no endpoint uses it, and the USB driver zeroes every endpoint's
# at a bus reset, so a mark set there and gone says the port was enumerated again.
_MARK = const(0x5010007C)


class PicoBoard(Board):
    def __init__(self, display, keypad, slots, beeper, leds, latch=None, vbus=None):
        self.display = display
        self.keypad = keypad
        self.slots = slots
        self.beeper = beeper
        self.leds = leds
        self.latch = latch
        self.vbus = vbus
        self._rp2 = sys.platform == "rp2"
        # RFID slots rest while the unit is dark, and write cards.
        self._tags = [s for s in (slots or {}).values() if hasattr(s, "rest")]
        self.writes_cards = bool(self._tags)
        self._dark = False
        self._setup = self._session = 0

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
        """MicroPython does not say whether a host has the port open; the DPRAM does: the last
        control request (DTR raised or dropped, line coding set), and the mark a bus reset
        clears (a re-plug, whose last request may be the old session's last). 0 off rp2."""
        if not self._rp2:
            return 0
        m = machine.mem16  # folded into a small int: nothing allocated
        setup = (m[_SETUP] ^ (m[_SETUP + 2] << 5) ^ (m[_SETUP + 4] << 10)
                 ^ (m[_SETUP + 6] << 14))
        if setup != self._setup or not m[_MARK]:
            self.replug = not m[_MARK]
            m[_MARK] = 1
            self._setup = setup
            self._session += 1
        return self._session

    def usb_sending(self):
        """Whether a packet waits for the host on the serial port (AVAILABLE, either buffer)."""
        m = machine.mem16
        return self._rp2 and bool((m[_IN_BUF] | m[_IN_BUF + 2]) & 0x400)

    def hold_irqs(self):
        return machine.disable_irq() if self._rp2 else 0

    def free_irqs(self, held):
        if self._rp2:
            machine.enable_irq(held)

    def usb_powered(self):
        return True if self.vbus is None else bool(self.vbus.value())

    def sleep(self, ms):
        machine.lightsleep(ms)
