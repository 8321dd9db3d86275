"""Card slot on switch contacts: four code contacts and a seated one, closed reads 0.

The codes read a card the wrong way round as none (docs/hardware.md, "Card slots and cards").
A reading counts once seated and the same for `stable_ms`.
"""

from brain.clock import ticks_diff

# bit i: contact i (from the left) closed
CODES = {0b0001: 1, 0b0010: 2, 0b0011: 3, 0b0101: 4, 0b0111: 5, 0b1011: 6}


class Slot:
    stable_ms = 50

    def __init__(self, contacts, seated):
        self.contacts = contacts
        self.seated = seated
        self.card = None  # the accepted card
        self._reading = None  # the card the contacts show now
        self._since = 0  # ticks the reading became what it is
        self._fresh = True  # no reading taken yet
        self.listening = False
        self.woke = False  # a contact changed since the last poll (with listen())

    def listen(self, trigger):
        """Poll only once a contact moved: trigger is both edges' IRQ flags."""
        for pin in self.contacts + [self.seated]:
            pin.irq(handler=self._edge, trigger=trigger, hard=True)
        self.listening = True

    def _edge(self, pin):
        self.woke = True  # hard IRQ: a store, nothing allocated

    def due(self, now=0):
        """Not listening, a contact moved, or a reading settling."""
        return (self.woke or not self.listening or self._fresh
                or self._reading != self.card)

    def deadline(self):
        return None  # a contact's edge says when: woke

    def read(self):
        """The card the contacts show now, not debounced: 1-6 or None."""
        if self.seated.value():
            return None  # not fully in (open reads 1)
        pattern = 0
        for i, pin in enumerate(self.contacts):
            if not pin.value():
                pattern |= 1 << i
        return CODES.get(pattern)

    def poll(self, now):
        """None, or the change accepted: ('in', card) or ('out', None)."""
        self.woke = False  # before the read: an edge during it polls again
        reading = self.read()
        if self._fresh or reading != self._reading:
            self._reading = reading
            self._since = now
            self._fresh = False
            return None
        if reading == self.card or ticks_diff(now, self._since) < self.stable_ms:
            return None
        old = self.card
        self.card = reading
        if old is not None and reading is not None:
            # another card with no empty slot between, impossible by hand: both said
            self.card = None
            self._since = now  # the new card is accepted on the next stable poll
            return ("out", None)
        if reading is None:
            return ("out", None)
        return ("in", reading)
