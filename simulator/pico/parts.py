"""The unit's parts, emulated at the GPIO pins of firmware/pins.py, as the chips and switches
behave: each part only sees pin levels and only drives pins, like the real one.

- HT1621 or TM1637: the display chip (displays.py), its bus decoded into its own memory.
- KeyMatrix: a held key joins its row to its column, so a column reads low only while the
  firmware drives that key's row low (and the column's pull-up is all else there is). Presses
  bounce: the contact chatters for a few ms on closing and on opening.
- Slot: four code contacts and a seated contact to ground. A card closes the code contacts of
  its tabs one by one as it slides in (bouncing), then the seated contact; pulled half out, the
  seated contact opens first. Inserted the wrong way round it closes the mirrored pattern.
  The RFID build's slots instead (SLOTS = "rfid"): an MFRC522 each on the SPI pins, and the
  tags laid on it (rfid.py, cards.py).
- Piezo: the PWM slice of the beeper pin as the firmware programs it (frequency, duty, enable),
  read back into (frequency in Hz, duty 0..1) whenever it changes.
- Led: an LED on its pin: every change with its time.
- VBUS sense: GP24 high while USB powers the board.
"""

import os

from simulator.pico.displays import HT1621, TM1637

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")


def pin_map():
    """firmware/pins.py as a module of its own (the pin map the firmware reads), not imported
    into the firmware's namespace."""
    ns = {}
    with open(os.path.join(FIRMWARE, "pins.py")) as f:
        exec(compile(f.read(), "pins.py", "exec"), ns)
    return ns


def _state():
    from rp2040py.gpio_pin import GPIOPinState

    return GPIOPinState


class KeyMatrix:
    layout = (
        ("7", "8", "9", "C", "DEAL"),
        ("4", "5", "6", "K", "-"),
        ("1", "2", "3", "M", "+"),
        ("0", ".", None, None, None),
    )  # docs/hardware.md, "Keypad": how the switches are wired, row by row
    bounce_ms = (0.4, 0.3, 0.8, 0.5, 1.2)  # contact chatter on each change: closed/open spells

    def __init__(self, pico, rows, cols):
        self.pico = pico
        self.gpio = pico.mcu.gpio
        self.rows, self.cols = rows, cols
        self.closed = set()  # (row, col) of contacts closed now
        self.first_closed = {}  # key -> ms its contact first closed (for latency)
        S = _state()
        self._LOW = S.LOW
        for r in rows:
            self.gpio[r].add_listener(lambda new, old: self._settle())
        self._settle()

    def where(self, key):
        for r, row in enumerate(self.layout):
            for c, k in enumerate(row):
                if k == key:
                    return r, c
        raise KeyError(key)

    def _settle(self):
        """Each column: low while a closed contact joins it to a row the firmware drives low."""
        driven = [self.gpio[p].value == self._LOW for p in self.rows]
        for c, pin in enumerate(self.cols):
            low = any(driven[r] for (r, cc) in self.closed if cc == c)
            if low:
                self.gpio[pin].set_input_value(False)
            else:
                self.gpio[pin].release_input()

    def _set(self, rc, closed):
        if closed:
            self.closed.add(rc)
        else:
            self.closed.discard(rc)
        self._settle()

    def press(self, key, bounce=True):
        """The contact closes now (chattering for a few ms), and stays closed."""
        rc = self.where(key)
        self.first_closed[key] = self.pico.now_ms()
        self._set(rc, True)
        if bounce:
            t = 0.0
            state = True
            for spell in self.bounce_ms:
                t += spell
                state = not state
                self.pico.at(t, lambda s=state: self._set(rc, s))
            if not state:
                self.pico.at(t + 0.2, lambda: self._set(rc, True))

    def release(self, key, bounce=True):
        rc = self.where(key)
        self._set(rc, False)
        if bounce:
            t = 0.0
            state = False
            for spell in self.bounce_ms[:3]:
                t += spell
                state = not state
                self.pico.at(t, lambda s=state: self._set(rc, s))
            if state:
                self.pico.at(t + 0.2, lambda: self._set(rc, False))


# card -> code contacts closed (bit i = contact i from the left): docs/hardware.md's table
CARD_CODES = {1: 0b0001, 2: 0b0010, 3: 0b0011, 4: 0b0101, 5: 0b0111, 6: 0b1011}


def mirrored(code):
    return sum(1 << (3 - i) for i in range(4) if code >> i & 1)


class Slot:
    def __init__(self, pico, contacts, seated):
        self.pico = pico
        self.gpio = pico.mcu.gpio
        self.contacts, self.seated = contacts, seated
        self.card = None
        self.seated_ms = None
        for p in list(contacts) + [seated]:
            self.gpio[p].release_input()

    def _close(self, pin, closed):
        if closed:
            self.gpio[pin].set_input_value(False)
        else:
            self.gpio[pin].release_input()

    def _pattern(self, code, step_ms):
        t = 0.0
        for i, pin in enumerate(self.contacts):
            if code >> i & 1:
                t += step_ms
                self.pico.at(t, lambda p=pin: self._close(p, True))
                self.pico.at(t + 0.3, lambda p=pin: self._close(p, False))  # a bounce
                self.pico.at(t + 0.6, lambda p=pin: self._close(p, True))
        return t + step_ms

    def insert(self, card, wrong_way=False, step_ms=4.0):
        """Slide a card in: its tabs close their contacts one by one, then it seats."""
        code = CARD_CODES[card]
        if wrong_way:
            code = mirrored(code)
        self.card = card
        t = self._pattern(code, step_ms)
        self.pico.at(t, self._seat)

    def _seat(self):
        self.seated_ms = self.pico.now_ms()
        self._close(self.seated, True)

    def half_out(self):
        """Pulled back a little: the seated contact opens, the code contacts still touch."""
        self._close(self.seated, False)

    def push_back(self):
        self._seat()

    def remove(self):
        self._close(self.seated, False)
        for i, pin in enumerate(self.contacts):
            self.pico.at(2.0 * (i + 1), lambda p=pin: self._close(p, False))
        self.card = None


class Piezo:
    """The beeper's PWM slice as a sound: (ms, freq_hz, duty) every time what it plays changes."""

    def __init__(self, pico, pin):
        self.pico = pico
        self.pin = pin
        self.slice = (pin >> 1) & 7
        self.channel_b = pin & 1
        self.history = []
        self._last = None
        pwm = pico.mcu.pwm
        write = pwm.write_uint32

        def written(offset, value):  # every register write the firmware makes to the PWM block
            write(offset, value)
            self.sample()

        pwm.write_uint32 = written

    def now(self):
        """(freq_hz, duty 0..1) sounding now, or None when silent."""
        from rp2040py.gpio_pin import FUNCTION_PWM

        mcu = self.pico.mcu
        ch = mcu.pwm.channels[self.slice]
        if mcu.gpio[self.pin].function_select != FUNCTION_PWM or not (ch.csr & 1):
            return None
        top = ch.top + 1
        level = (ch.cc >> 16) & 0xFFFF if self.channel_b else ch.cc & 0xFFFF
        if level == 0:
            return None
        div = (ch.div >> 4 & 0xFF) + (ch.div & 0xF) / 16.0
        if div == 0:
            div = 256.0
        phase = 2 if ch.csr & 2 else 1
        freq = 125e6 / div / top / phase
        return (round(freq), min(level / top, 1.0))

    def sample(self):
        s = self.now()
        if s != self._last:
            self._last = s
            self.history.append((self.pico.now_ms(), s))

    def tones_since(self, t_ms):
        return [(t, s) for t, s in self.history if t >= t_ms and s is not None]


class Led:
    def __init__(self, pico, pin):
        self.pico = pico
        self.gpio = pico.mcu.gpio
        self.pin = pin
        self.changes = []  # (ms, on)
        S = _state()
        self._HIGH = S.HIGH
        self.gpio[pin].add_listener(self._on)

    def _on(self, new, old):
        self.changes.append((self.pico.now_ms(), new == self._HIGH))

    def is_on(self):
        return self.gpio[self.pin].value == self._HIGH

    def pattern(self, t0, t1):
        """What a watcher sees from t0 to t1: 'off', 'on', 'slow' (a flash of about a second:
        0.8-1.2 s from one lighting to the next) or 'fast' (about a quarter second)."""
        during = [(t, on) for t, on in self.changes if t0 <= t < t1]
        ons = [t for t, on in during if on]
        if len(ons) >= 2:
            period = (ons[-1] - ons[0]) / (len(ons) - 1)
            if 800 <= period <= 1200:
                return "slow"
            if 200 <= period <= 300:
                return "fast"
            return "flash %d ms" % period
        if during:
            return "on" if during[-1][1] and len(during) == 1 else "changing"
        before = [on for t, on in self.changes if t < t0]
        return "on" if (before and before[-1]) else "off"


def reader_slots(pico, p, box):
    """The RFID build's slots (pins.py's SLOTS = "rfid"): an MFRC522 each on the SPI bus, its
    NSS on its chip select, both RSTs on RFID_RST; box: {card: tag} (rfid.py, cards.py)."""
    from simulator.pico.cards import ReaderSlot, tag_box
    from simulator.pico.rfid import MFRC522, SPIBus

    bus = SPIBus(pico, p["RFID_SPI"], p["RFID_SCK"], p["RFID_MOSI"], p["RFID_MISO"])
    box = tag_box() if box is None else box
    slots = {}
    for name in ("L", "R"):
        chip = MFRC522(pico.now_us)
        bus.attach(chip, p["RFID_CS_" + name], p["RFID_RST"])
        slots[name] = ReaderSlot(chip, box)
    return slots


class Unit:
    """All the unit's parts on one emulated Pico, at the pins of pins (pins.py's names, as a
    dict; None: firmware/pins.py's). box: the RFID build's tags (None: a new box, blank)."""

    def __init__(self, pico, display="ht1621", vbus=True, pins=None, box=None):
        p = self.pins = pin_map() if pins is None else pins
        if display == "ht1621":
            self.display = HT1621(pico, p["HT1621_CS"], p["HT1621_WR"], p["HT1621_DATA"])
        else:
            self.display = TM1637(pico, p["TM1637_CLK"], p["TM1637_DIO"])
        self.keys = KeyMatrix(pico, p["KEY_ROWS"], p["KEY_COLS"])
        if p.get("SLOTS") == "rfid":
            self.slots = reader_slots(pico, p, box)
        else:
            self.slots = {"L": Slot(pico, p["SLOT_L"], p["SLOT_L_SEATED"]),
                          "R": Slot(pico, p["SLOT_R"], p["SLOT_R_SEATED"])}
        self.piezo = Piezo(pico, p["BEEPER"])
        self.red = Led(pico, p["LED_RED"])
        self.green = Led(pico, p["LED_GREEN"])
        if p.get("VBUS_SENSE") is not None:
            pico.mcu.gpio[p["VBUS_SENSE"]].set_input_value(bool(vbus))
