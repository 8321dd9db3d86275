"""The body the loop drives: board/pico.py's PicoBoard, or desktop/simboard.py's SimBoard."""


class Board:
    """What app.App drives and reads. Each body defines every method itself: on a Pico a call is
    then looked up no further than its own class.

    Its parts, duck-typed:
    keypad  scan(now) -> [("down" | "up", key), ...], debounced; idle(now): no key down and no
            debounce running; armed: every row waits for a column's edge; woke: one came;
            held: keys down; watch(): before work that may be long (a key's, a host's line),
            keys pressed meanwhile are kept
    slots   {"L": slot, "R": slot}: poll(now) -> None, ("in", card), ("out", None) or
            ("unknown", None | card): a tag not taken, with no number, or with the number of
            the card the other slot holds; due(now): poll now; deadline(): the next look, or
            None (a pin tells: woke)
    beeper  update(now) plays the next note, at deadline() (None: silent)
    leds    modes ([red, green]); update(now) blinks them
    latch   None, or release() cuts the power (B16)
    """

    latch = None
    writes_cards = False  # RFID slots: write_card() numbers a tag

    def write_card(self, slot, number):
        # type: (str, int) -> str | None
        """None or the error ("unsupported" where the slots read contacts)."""
        raise NotImplementedError

    def show(self, text, k, M):
        # type: (str, bool, bool) -> None
        raise NotImplementedError

    def blank(self):
        # type: () -> None
        """Display, lights and beeper off (B16)."""
        raise NotImplementedError

    def tone(self, name, volume, now):
        # type: (str, int, int) -> None
        """Starts the tone (brain/tones.py) at volume (B18), never blocking."""
        raise NotImplementedError

    def lights(self, red, green):
        # type: (str, str) -> None
        """'off', 'on', 'slow' or 'fast' (B13)."""
        raise NotImplementedError

    def host_session(self):
        # type: () -> int
        """Changes whenever a USB host opens, closes, sets up or re-plugs the port: a half line
        it left is then no command."""
        raise NotImplementedError

    # Whether a bus reset (a re-plug) began the session host_session() last changed to: what
    # waits to be read then is the old host's, the new one not yet enumerated to send.
    replug = False

    def usb_sending(self):
        # type: () -> bool
        """A packet waits for the host on the serial port: the host has not read it yet."""
        raise NotImplementedError

    def hold_irqs(self):
        # type: () -> int
        """Interrupts held off until free_irqs(what this returned): a look at the serial port
        and the write after it see one port."""
        raise NotImplementedError

    def free_irqs(self, held):
        # type: (int) -> None
        raise NotImplementedError

    def usb_powered(self):
        # type: () -> bool
        """A host may be listening: switched off, the loop waits in poll, not in sleep()."""
        raise NotImplementedError

    def sleep(self, ms):
        # type: (int) -> None
        """Switched off on battery: the low-power wait."""
        raise NotImplementedError
