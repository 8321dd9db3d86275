"""The PicoBoard, its drivers made from pins.py: boot-only, dropped once it is built."""

import os
import sys
import time

from machine import PWM, Pin, Timer

from board.pico import PicoBoard
from board.drivers.beeper import Beeper
from board.drivers.keypad import Keypad
from board.drivers.leds import Leds


def _out(n):
    return Pin(n, Pin.OUT, value=0)


def _in(n):
    return Pin(n, Pin.IN, Pin.PULL_UP)


def _display(pins):
    if pins.DISPLAY.lower() == "tm1637":
        from board.drivers.tm1637 import TM1637

        return TM1637(Pin(pins.TM1637_CLK, Pin.OUT, value=1),
                      Pin(pins.TM1637_DIO, Pin.OPEN_DRAIN, value=1))
    from board.drivers.ht1621 import HT1621

    return HT1621(Pin(pins.HT1621_CS, Pin.OUT, value=1), Pin(pins.HT1621_WR, Pin.OUT, value=1),
                  Pin(pins.HT1621_DATA, Pin.OUT, value=1))


def _slots(pins):
    if getattr(pins, "SLOTS", "contacts") != "rfid":
        from board.drivers.slots import Slot

        slots = {
            "L": Slot([_in(n) for n in pins.SLOT_L], _in(pins.SLOT_L_SEATED)),
            "R": Slot([_in(n) for n in pins.SLOT_R], _in(pins.SLOT_R_SEATED)),
        }
        for slot in slots.values():
            slot.listen(Pin.IRQ_FALLING | Pin.IRQ_RISING)
        return slots
    from machine import SPI

    from board.drivers.mfrc522 import MFRC522
    from board.drivers.tags import TagSlot

    # Both chip selects high before the bus carries a byte; both chips out of reset.
    cs = [Pin(n, Pin.OUT, value=1) for n in (pins.RFID_CS_L, pins.RFID_CS_R)]
    Pin(pins.RFID_RST, Pin.OUT, value=1)
    time.sleep_ms(5)  # the crystals start (MFRC522 datasheet 8.8.2)
    spi = SPI(pins.RFID_SPI, baudrate=4000000, polarity=0, phase=0, sck=Pin(pins.RFID_SCK),
              mosi=Pin(pins.RFID_MOSI), miso=Pin(pins.RFID_MISO))
    left, right = (TagSlot(MFRC522(spi, pin), time.sleep_ms) for pin in cs)
    left.rival, right.rival = right, left
    left.start()
    right.start()
    return {"L": left, "R": right}


def pin_map():
    """pins.py, and what a maker's file set over it (None: nothing). On the unit's own image
    that is the reference, frozen in, with what a maker's pins.py on the flash sets over it:
    one from an older checkout still names every pin, and one that does not run, sets a pin of
    another kind than the reference's or names one the board does not build with (build, below),
    leaves the unit on the reference, said in crash.txt, not dark."""
    import pins
    from version import VERSION

    if not VERSION.endswith("+frozen"):
        return pins, None  # deployed files: pins.py is the firmware's own file
    try:
        with open("pins.py") as f:
            src = f.read()
    except OSError:
        return pins, None
    # The maker's file runs among the reference's names: `KEYPAD = KEYPAD_MEMBRANE_4X4`, as
    # docs/hardware.md has it, is one line.
    mine = dict(pins.__dict__)  # type: dict
    try:
        exec(src, mine)
        # A name the drivers do not know, or a pin of another kind than the reference's (a
        # number for the keypad's map), would build the wrong parts, and the unit stay dark.
        if str(mine["DISPLAY"]).lower() not in ("ht1621", "tm1637") or mine["SLOTS"] not in (
                "contacts", "rfid"):
            raise ValueError("DISPLAY is ht1621 or tm1637, SLOTS contacts or rfid")
        for name, got in mine.items():
            ref = getattr(pins, name, got)  # a name of the maker's own is the maker's
            kinds = ((int, type(None)) if ref is None or type(ref) is int else
                     (tuple, list) if type(ref) is tuple else (type(ref),))
            if name[:1] != "_" and not isinstance(got, kinds):
                raise ValueError("%s = %r, where the reference pin map has %r" % (name, got, ref))
    except Exception as e:  # noqa: BLE001 - whatever the maker's file raises
        _refused(pins, e)
        return pins, None
    ref = dict(pins.__dict__)
    for name in mine:
        if name[:1] != "_":
            setattr(pins, name, mine[name])
    return pins, ref


def _refused(pins, e):
    try:
        try:
            os.mkdir(pins.STATE_DIR)  # a new unit's first boot
        except OSError:
            pass
        with open(pins.STATE_DIR + "/crash.txt", "w") as f:
            f.write("pins.py on the flash is no pin map this firmware reads; the reference "
                    "pin map is used\n")
            sys.print_exception(e, f)  # type: ignore[attr-defined]
    except OSError:
        pass


def build():
    pins, ref = pin_map()
    try:
        return _build(pins)
    except Exception as e:  # noqa: BLE001 - a pin no RP2040 has, rows the map has not, ...
        if ref is None:
            raise  # the reference's own: a firmware bug, not a maker's file
        _refused(pins, e)
        for name in ref:
            if name[:1] != "_":
                setattr(pins, name, ref[name])
        return _build(pins)


def _build(pins):
    display = _display(pins)
    keypad = Keypad([Pin(n, Pin.OPEN_DRAIN, value=1) for n in pins.KEY_ROWS],
                    [_in(n) for n in pins.KEY_COLS], pins.KEYPAD)
    keypad.listen(Pin.IRQ_FALLING, time.ticks_ms, Timer(-1))  # the loop sleeps until a key
    slots = _slots(pins)
    beeper = Beeper(PWM(Pin(pins.BEEPER), freq=2000, duty_u16=0))
    leds = Leds(_out(pins.LED_RED), _out(pins.LED_GREEN))
    latch = None
    if pins.LATCH is not None:
        from board.drivers.latch import Latch

        latch = Latch(Pin(pins.LATCH, Pin.OUT, value=1))
    vbus = None if pins.VBUS_SENSE is None else Pin(pins.VBUS_SENSE, Pin.IN)
    return PicoBoard(display, keypad, slots, beeper, leds, latch, vbus)
