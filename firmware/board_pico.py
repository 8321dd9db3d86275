"""The Pico's body for the brain: builds every driver from the pin map in pins.py.

A board has what docs/design.md lists: `show(text, k, M)` and `blank()`, the keypad, the two
card slots, `tone(name, volume, now)`, `lights(red, green)`, plus the Pico's own power
management: `usb_powered()` and `sleep(ms)` (a timed lightsleep, see main.py).
"""

import machine
from machine import PWM, Pin

import segments
import tones
from drivers.beeper import Beeper
from drivers.keypad import Keypad
from drivers.leds import Leds
from drivers.slots import Slot


class Board:
    def __init__(self, display, keypad, slots, beeper, leds, latch=None, vbus=None):
        self.display = display
        self.keypad = keypad
        self.slots = slots  # {'L': Slot, 'R': Slot}
        self.beeper = beeper
        self.leds = leds
        self.latch = latch
        self.vbus = vbus

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

    def usb_powered(self):
        return True if self.vbus is None else bool(self.vbus.value())

    def sleep(self, ms):
        """A timed light sleep: the clocks stop, the RP2040 draws about a milliamp."""
        machine.lightsleep(ms)


def _out(n):
    return Pin(n, Pin.OUT, value=0)


def _in(n):
    return Pin(n, Pin.IN, Pin.PULL_UP)


def _display(pins):
    if pins.DISPLAY == "tm1637":
        from drivers.tm1637 import TM1637

        return TM1637(Pin(pins.TM1637_CLK, Pin.OUT, value=1),
                      Pin(pins.TM1637_DIO, Pin.OPEN_DRAIN, value=1))
    from drivers.ht1621 import HT1621

    return HT1621(Pin(pins.HT1621_CS, Pin.OUT, value=1),
                  Pin(pins.HT1621_WR, Pin.OUT, value=1),
                  Pin(pins.HT1621_DATA, Pin.OUT, value=1))


def build():
    import pins  # read here only: main.boot drops the pin map once the board is built

    display = _display(pins)
    keypad = Keypad([Pin(n, Pin.OPEN_DRAIN, value=1) for n in pins.KEY_ROWS],
                    [_in(n) for n in pins.KEY_COLS])
    slots = {
        "L": Slot([_in(n) for n in pins.SLOT_L], _in(pins.SLOT_L_SEATED)),
        "R": Slot([_in(n) for n in pins.SLOT_R], _in(pins.SLOT_R_SEATED)),
    }
    beeper = Beeper(PWM(Pin(pins.BEEPER), freq=2000, duty_u16=0))
    beeper.duty = tones.DUTY_U16
    leds = Leds(_out(pins.LED_RED), _out(pins.LED_GREEN))
    latch = None
    if pins.LATCH is not None:
        from drivers.latch import Latch

        latch = Latch(Pin(pins.LATCH, Pin.OUT, value=1))
    vbus = None if pins.VBUS_SENSE is None else Pin(pins.VBUS_SENSE, Pin.IN)
    return Board(display, keypad, slots, beeper, leds, latch, vbus)
