"""The Pico's body for the brain: board/pico.py's PicoBoard with every driver built from the
pin map in pins.py. Boot-only code: app.boot drops this module and the pin map once the board
is built.
"""


from machine import PWM, Pin

from board.pico import PicoBoard
from board.drivers.beeper import Beeper
from board.drivers.keypad import LAYOUT, Keypad
from board.drivers.leds import Leds
from board.drivers.slots import Slot


def _out(n):
    return Pin(n, Pin.OUT, value=0)


def _in(n):
    return Pin(n, Pin.IN, Pin.PULL_UP)


def _display(pins):
    if pins.DISPLAY == "tm1637":
        from board.drivers.tm1637 import TM1637

        return TM1637(Pin(pins.TM1637_CLK, Pin.OUT, value=1),
                      Pin(pins.TM1637_DIO, Pin.OPEN_DRAIN, value=1))
    from board.drivers.ht1621 import HT1621

    return HT1621(Pin(pins.HT1621_CS, Pin.OUT, value=1), Pin(pins.HT1621_WR, Pin.OUT, value=1),
                  Pin(pins.HT1621_DATA, Pin.OUT, value=1))


def build():
    import pins

    display = _display(pins)
    keypad = Keypad([Pin(n, Pin.OPEN_DRAIN, value=1) for n in pins.KEY_ROWS],
                    [_in(n) for n in pins.KEY_COLS], LAYOUT)
    keypad.listen(Pin.IRQ_FALLING)  # the loop sleeps until a key (app.py, Waker)
    slots = {
        "L": Slot([_in(n) for n in pins.SLOT_L], _in(pins.SLOT_L_SEATED)),
        "R": Slot([_in(n) for n in pins.SLOT_R], _in(pins.SLOT_R_SEATED)),
    }
    for slot in slots.values():
        slot.listen(Pin.IRQ_FALLING | Pin.IRQ_RISING)
    beeper = Beeper(PWM(Pin(pins.BEEPER), freq=2000, duty_u16=0))
    leds = Leds(_out(pins.LED_RED), _out(pins.LED_GREEN))
    latch = None
    if pins.LATCH is not None:
        from board.drivers.latch import Latch

        latch = Latch(Pin(pins.LATCH, Pin.OUT, value=1))
    vbus = None if pins.VBUS_SENSE is None else Pin(pins.VBUS_SENSE, Pin.IN)
    return PicoBoard(display, keypad, slots, beeper, leds, latch, vbus)
