"""Card slot reader: which bank card (1-6) sits in a slot, read through switch contacts.

The slot (docs/hardware.md, "Card slots") has four code contacts across its back wall and a
`seated` contact behind them (None for a slot without one). A card's leading edge has tabs and
notches at the four code positions: a tab closes its contact, a notch leaves it open. The
seated contact closes only when the card is fully in. Each contact is a switch to ground read
on an input with a pull-up, so closed reads 0.

The six codes are chosen so that a card inserted the wrong way round reads as none:
- face down (mirrored), its pattern is the mirror image of its code, and no code's mirror image
  is a code (each code is one of a mirror pair, and no palindromes are used);
- back end first, the blank trailing edge closes all four contacts (0b1111), not a code.
The all-open pattern (0b0000) is not a code either.

As a card slides in its contacts close one by one, and they bounce. A reading is accepted only
after it has been the same for `stable_ms`, and only while the seated contact is closed; then
one event is given: ('in', card) or ('out', None). Time is given (`poll(now)`), never read.
Pins are duck-typed: only `.value()` is used.
"""

from brain.clock import ticks_diff

# code pattern (bit i = contact i closed, contacts numbered left to right) -> card number
CODES = {0b0001: 1, 0b0010: 2, 0b0011: 3, 0b0101: 4, 0b0111: 5, 0b1011: 6}


class Slot:
    stable_ms = 50
    codes = CODES

    def __init__(self, contacts, seated):
        self.contacts = contacts
        self.seated = seated
        self.card = None  # the accepted card, or None
        self._reading = None  # the card the contacts show now
        self._since = 0  # ticks the reading became what it is
        self._fresh = True  # no reading taken yet
        self.listening = False
        self.woke = False  # a contact changed since the last poll (with listen())

    def listen(self, trigger):
        """Poll only after a contact moved: `trigger` is both edges' IRQ flags."""
        for pin in self.contacts:
            pin.irq(handler=self._edge, trigger=trigger, hard=True)
        if self.seated is not None:
            self.seated.irq(handler=self._edge, trigger=trigger, hard=True)
        self.listening = True

    def _edge(self, pin):
        self.woke = True  # hard IRQ: a store, nothing allocated

    def due(self, now=0):
        """Whether to poll now: not listening, a contact moved, or a reading still settling."""
        return (self.woke or not self.listening or self._fresh
                or self._reading != self.card)

    def deadline(self):
        return None  # a contact's edge says when: woke

    def read(self):
        """The card the contacts show right now (no debouncing): 1-6 or None."""
        if self.seated is not None and self.seated.value():
            return None  # not fully in (open reads 1)
        pattern = 0
        for i, pin in enumerate(self.contacts):
            if not pin.value():
                pattern |= 1 << i
        return self.codes.get(pattern)

    def poll(self, now):
        """Sample the contacts; return None, or the accepted change ('in', card)/('out', None)."""
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
            # a different card without an empty slot between: impossible by hand, but say both
            self.card = None
            self._since = now  # the new card is accepted on the next stable poll
            return ("out", None)
        if reading is None:
            return ("out", None)
        return ("in", reading)
