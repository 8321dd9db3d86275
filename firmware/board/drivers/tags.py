"""Card slot on an MFRC522 reader: the card number the tag on it carries, as slots.Slot reads.

docs/hardware.md, "RFID card slots", has the tags, their number, the looks and the rest.
"""

from board.drivers.mfrc522 import first_part
from brain.clock import ticks_add, ticks_diff
from brain.ledger import CARDS

MAGIC = b"BANK"  # then the number and its complement: no tag reads as a card by chance
BLOCK = 4  # MIFARE Classic: the first block of sector 1 (sector 0's first is the maker's)
PAGE = 4  # NTAG, Ultralight: the first user page


def number(data):
    """The card number a tag's 16 bytes carry, or 0: none."""
    n = data[4]
    return n if data[:4] == MAGIC and 1 <= n <= CARDS and data[5] == n ^ 0xFF else 0


class TagSlot:
    period_ms = 100  # between looks
    misses = 2  # looks in a row without the card before it is out: none flickers at the edge
    rest_ms = 1000  # between looks, switched off
    field_ms = 5  # a card answers within 5 ms of field (ISO/IEC 14443-3)
    woke = False  # no pin tells: the looks are timed

    def __init__(self, reader, pause):
        self.reader = reader
        self.pause = pause  # pause(ms), for the field
        self.rival = None  # the other slot's: a tag it holds is not this one's
        self.card = None  # the accepted card
        self.uid = None  # the UID of the tag on the reader
        self.present = False  # the chip answered at start()
        self.resting = False
        self._number = 0  # the tag's number (0: none)
        self._missed = 0
        self._next = None  # ticks of the next look; None: at once
        self._stale = False  # the tag was written: read its number again
        self._said = None  # the UID of the unknown tag reported
        self._known = None  # first_part() of the tag on the reader: found again, not selected

    def start(self):
        """The chip reset, its field on; its VersionReg."""
        version = self.reader.reset()
        self.present = version not in (0, 0xFF)
        if self.present:
            self.reader.antenna(True)
        return version

    def due(self, now=0):
        return self.present and (self._next is None or ticks_diff(now, self._next) >= 0)

    def deadline(self):
        return self._next if self.present else None

    def rest(self):
        if self.present and not self.resting:
            self.resting = True
            self.reader.sleep(True)

    def wake(self):
        if self.resting:
            self.resting = False
            self.reader.sleep(False)

    def poll(self, now):
        """None, or ('in', card), ('out', None), ('unknown', None | card): a tag with no
        number, or the number of the card the other slot holds, said once and taken once that
        one is out."""
        if not self.present or (self.resting and not self.due(now)):
            return None
        self._next = ticks_add(now, self.rest_ms if self.resting else self.period_ms)
        uid, n = self._look()
        if uid is None:
            if self.uid is None:
                return None
            self._missed += 1
            if self._missed < self.misses:
                return None
            self.uid = self._said = self._known = None
            return self._take(None)
        self._missed = 0
        self.uid = uid
        self._number = n
        # numbered as the other slot's card (two tags numbered alike): not taken while it is in
        twin = n and self.rival is not None and self.rival.card == n
        if (n and not twin) or self.card is not None:
            return self._take(None if twin else n or None)
        if self._said == uid:
            return None
        self._said = uid
        return ("unknown", n or None)

    def _take(self, card):
        if card == self.card:
            return None
        if self.card is not None:
            # another card with no empty reader between: out now, in at the next look
            self.card = None
            return ("out", None)
        self.card = card
        return ("in", card)

    def _look(self):
        """(UID, number) of the tag on the reader; (None, 0) when none is this one's."""
        r = self.reader
        if self.resting:
            r.sleep(False)
            self.pause(self.field_ms)
        try:
            part = r.wake()
            if part is None:
                return None, 0
            if part == self._known and not self._stale:
                return self.uid, self._number  # the card that was there: no more to read
            got = r.select(part)
            if got is None or self.rival is not None and self.rival.uid == got[0]:
                return None, 0  # none, or the other slot's
            uid, sak = got
            # Found again without a select only where the first part is the whole UID: a 7-byte
            # one's gives 3 bytes, and one roll of stickers shares them.
            self._known = first_part(uid) if len(uid) == 4 else None
            if uid == self.uid and not self._stale:
                return uid, self._number
            self._stale = False
            at = self._open(uid, sak)
            if at is None:
                return uid, 0
            data = r.read(at)
            return (None, 0) if data is None else (uid, number(data))
        finally:
            r.halt()
            if self.resting:
                r.sleep(True)

    def _open(self, uid, sak):
        """Where the selected tag keeps its number, authenticated; None: a tag of another use."""
        if sak & 0x08:  # MIFARE Classic (SAK 08, 18, 09); keys of its own: None
            return BLOCK if self.reader.authenticate(BLOCK, uid) else None
        return PAGE if sak == 0 else None  # NTAG, Ultralight; else ISO/IEC 14443-4: a bank card

    def write(self, card):
        """Maintenance: card written on the tag on this reader, then read back; None or the
        error."""
        if not 1 <= card <= CARDS:
            return "bad-argument"
        r = self.reader
        part = r.wake() if self.present else None
        got = r.select(part) if part is not None else None
        if got is None:
            r.halt()
            return "no-tag"
        uid, sak = got
        data = MAGIC + bytes((card, card ^ 0xFF)) + bytes(10)  # a block's 16 bytes
        try:
            at = self._open(uid, sak)
            if at is None:
                return "not-writable"
            # a page is 4 bytes: the number's 6 take two
            ok = r.write(at, data, True) if sak & 0x08 else r.write(at, data, False) \
                and r.write(at + 1, data[4:8], False)
            back = r.read(at) if ok else None
            if back is None or number(back) != card:
                return "write-failed"
            return None
        finally:
            r.halt()
            for slot in (self, self.rival):
                if slot is not None and slot.uid == uid:
                    slot._stale = True  # read anew at the next look
                    slot._said = None
