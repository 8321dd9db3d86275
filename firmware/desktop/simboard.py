"""The simulator's body: board.Board with no pins behind it.

A front end (the window's clicks, the terminal's keys, the page's touches) puts key and card
events here, as the keypad and slot drivers produce them on the Pico, and app.App's next step
picks them up. What App draws is kept (`shown`, `leds.modes`, `beeper.playing`) as
the Pico's drivers would take it; the front ends draw what the unit says, as App does
(`unit.display()`, `unit.red()`, `unit.green()`), at their own moments. Runs under CPython and
the MicroPython unix port (the headless simulator runs there); never deployed.
"""

from board import Board


class Keys:
    """The keypad as App.read_keys reads it: the events a front end pressed, in order."""

    armed = True  # scanned only when woken: an idle simulator never scans
    held = 0  # no contact bouncing after a wake: its events are all in the first scan

    def __init__(self):
        self.events = []

    @property
    def woke(self):
        return bool(self.events)

    def push(self, kind, key):
        self.events.append((kind, key))

    def scan(self, now):
        events = self.events
        self.events = []
        return events

    def idle(self, now):
        return True  # no contact bounces here: nothing to scan again soon

    def watch(self):
        pass  # every press is kept in events already


class Slot:
    """A card slot as App.read_cards reads it: the cards a front end moved, one per poll."""

    def __init__(self):
        self.events = []

    @property
    def woke(self):
        return bool(self.events)

    def push(self, kind, card=None):
        self.events.append((kind, card))

    def due(self, now=0):
        return bool(self.events)

    def deadline(self):
        return None  # a front end's card comes with woke

    def poll(self, now):
        return self.events.pop(0) if self.events else None


class Leds:
    def __init__(self):
        self.modes = ["off", "off"]

    def set(self, red, green):
        self.modes[0] = red
        self.modes[1] = green

    def update(self, now):
        pass  # a front end draws lights.lit(mode, now) itself, when it draws

    def off(self):
        self.set("off", "off")


class Beeper:
    """Tones are heard through the front end's own sound (simulator/frontend.py)."""

    def __init__(self):
        self.playing = None  # the last tone App started, and its volume

    def play(self, name, volume, now):
        self.playing = (name, volume)

    def update(self, now):
        pass

    def deadline(self):
        return None

    def stop(self):
        self.playing = None


class SimBoard(Board):
    latch = None  # no power latch: switched off, the simulator stays up

    def __init__(self):
        self.keypad = Keys()
        self.slots = {"L": Slot(), "R": Slot()}
        self.beeper = Beeper()
        self.leds = Leds()
        self.shown = ("", False, False)  # the display as App last drew it

    # -- what app.App drives ----------------------------------------------------------------

    def show(self, text, k, M):
        self.shown = (text, k, M)

    def blank(self):
        self.shown = ("", False, False)
        self.leds.off()
        self.beeper.stop()

    def tone(self, name, volume, now):
        self.beeper.play(name, volume, now)

    def lights(self, red, green):
        self.leds.set(red, green)

    def host_session(self):
        return 0  # no USB port: desktop/ports.py sees each client come and go

    def usb_sending(self):
        return False  # no USB port: desktop/ports.py sends to each client

    def hold_irqs(self):
        return 0  # no interrupts: the simulator's loop is all there is

    def free_irqs(self, held):
        pass

    def usb_powered(self):
        return True  # a desktop's ports stay up when the unit is off

    def sleep(self, ms):
        pass  # never called: usb_powered()

    def write_card(self, slot, number):
        return "unsupported"  # the simulator's cards are numbered: nothing to write on
