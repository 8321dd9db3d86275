"""The body the brain is given: one interface, two bodies.

app.App runs the loop on whichever board it is given and drives only what `Board` below has.
The Pico's body is board/pico.py (`PicoBoard`, built from pins.py by board/build.py, drivers in
board/drivers/); the simulator's is desktop/simboard.py (`SimBoard`, never deployed), driven by
the window, the terminal, the headless server and the page through desktop/simapp.py. Every
event takes the loop's `now` (brain/clock.py's ticks); the loop's clock and its serial ports
are app.App's (the Pico: its one USB port) or desktop/simapp.py's (any number), not the board's.
"""


class Board:
    """What app.App drives and reads. Both bodies subclass it and define every method, so a
    call costs no more than on a class of its own.

    The parts, set by each body's constructor:
    keypad    `scan(now)` -> [("down" | "up", key), ...], debounced; `idle(now)`: no key down
              and no debounce running; `armed`: every row waits for a column's edge, and the
              loop scans only once `woke` (an edge since the last scan) is set
    slots     {"L": slot, "R": slot}: `poll(now)` -> None, ("in", card), ("out", None) or
              ("unknown", None) (an RFID tag with no number); `due(now)`: poll now (a reading
              settling, an RFID reader's look); `deadline()`: the next look, or None (a pin
              tells); `woke`: a contact moved
    beeper    `update(now)` plays the next note, `deadline()` is when (None: silent)
    leds      `modes`: [red, green] as lights() set them; `update(now)` blinks them
              (board/lights.py)
    latch     None, or `release()` cuts the power when the unit switches off (B16)
    """

    latch = None
    writes_cards = False  # the slots are RFID readers: write_card() numbers a tag

    def write_card(self, slot, number):
        # type: (str, int) -> str | None
        """Maintenance: number (1-6) written on the tag on slot's reader; None or the error
        ("unsupported" where the slots read contacts)."""
        raise NotImplementedError

    def show(self, text, k, M):
        # type: (str, bool, bool) -> None
        """The unit's display() drawn: five cells of text and the K and M annunciators."""
        raise NotImplementedError

    def blank(self):
        # type: () -> None
        """Display, lights and beeper off: switched off (B16)."""
        raise NotImplementedError

    def tone(self, name, volume, now):
        # type: (str, int, int) -> None
        """Start the tone `name` (brain/tones.py) at volume (B18), never blocking."""
        raise NotImplementedError

    def lights(self, red, green):
        # type: (str, str) -> None
        """The lights' modes: 'off', 'on', 'slow' or 'fast' (B13)."""
        raise NotImplementedError

    def host_session(self):
        # type: () -> int
        """A number that changes whenever a USB host opens, closes or sets up the serial port:
        a half line it left is then no command (app.App.serial)."""
        raise NotImplementedError

    def usb_powered(self):
        # type: () -> bool
        """A host may be listening: switched off, the loop waits in poll, not in sleep()."""
        raise NotImplementedError

    def sleep(self, ms):
        # type: (int) -> None
        """The low-power wait of a unit switched off on battery."""
        raise NotImplementedError
