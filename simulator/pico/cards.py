"""The RFID build's cards, emulated: ISO/IEC 14443 A tags as a reader's field meets them.

- Every tag: ISO/IEC 14443-3's state machine (IDLE, READY, ACTIVE, HALT): REQA (26h, 7 bits)
  in IDLE, WUPA (52h) in IDLE or HALT, answered with ATQA; anticollision (NVB 20h) and SELECT
  (NVB 70h) at each cascade level (93h, 95h), a 4-byte UID in one level, a 7-byte UID in two
  behind the cascade tag 88h; SAK 04h while the UID goes on; HLTA (50h 00h) to HALT. A frame
  it does not expect sends it back to IDLE (or HALT, had a WUPA woken it there). Frames of
  whole bytes carry CRC_A, and one with a wrong CRC is not answered.
- ClassicTag: a MIFARE Classic 1K card or fob (NXP MF1S50: ATQA 0004h, SAK 08h; 16 sectors
  of 4 blocks, each sector's last its trailer, key A FFFFFFFFFFFFh as cards ship). READ (30h)
  and WRITE (A0h, the block in a second frame) answer only in a sector the reader
  authenticated (the reader's MFAuthent: the crypto is the reader's, modelled by `auth`);
  ACK is the 4-bit Ah, NAK 0h..5h. Block 0, the maker's, is read-only.
- NtagTag: an NTAG213 sticker (NXP NTAG213/215/216: ATQA 0044h, SAK 00h, a 7-byte UID, 45
  pages of 4 bytes, user memory pages 4-39): READ (30h) of four pages, WRITE (A2h) of one.
- A tag answers only with power: in the field of a reader for `power_up_us` (a card answers
  within 5 ms, ISO/IEC 14443-3; these in 2), and forgets its state when the field goes.
  `answer(frame, bits)` is the tag's reply to a frame, ((bytes, valid bits of the last), or
  None), `after_us` how long it takes to answer beyond the frame times.
- ReaderSlot: a slot of the RFID build as a player meets it (the reader under it, the tags
  laid on it); tag_box(): the unit's six cards as tags.
"""

POWER_UP_US = 2000
ACK, NAK = 0x0A, 0x00


def crc_a(data, preset=0x6363):
    """ISO/IEC 14443-3 Annex B: CRC_A of data, as the two bytes sent (low first)."""
    crc = preset
    for b in data:
        b = (b ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes((crc & 0xFF, crc >> 8))


def _crc_ok(frame):
    return len(frame) >= 3 and crc_a(frame[:-2]) == bytes(frame[-2:])


def _with_crc(data):
    data = bytes(data)
    return data + crc_a(data)


class Tag:
    atqa = b"\x04\x00"
    sak = 0x08
    after_us = 0  # beyond the frame delay time: a write's programming time (set per answer)

    def __init__(self, uid):
        self.uid = bytes(uid)
        self.state = "off"
        self.powered_us = None  # when the field reached it (None: no field)
        self._level = 0  # cascade level selected so far
        self._halted = False  # woken from HALT: an unexpected frame sends it back there
        self.readers = set()  # the readers whose field it is in

    # -- power -------------------------------------------------------------------------------

    def power(self, on, now_us):
        if on and self.powered_us is None:
            self.powered_us = now_us
            self.state = "idle"
            self._level = 0
            self._halted = False
            self.forget()
        elif not on:
            self.powered_us = None
            self.state = "off"

    def ready(self, now_us):
        return self.powered_us is not None and now_us - self.powered_us >= POWER_UP_US

    def forget(self):
        """What a power cut or a new selection loses (authentication, a write half done)."""

    # -- ISO/IEC 14443-3 ---------------------------------------------------------------------

    def _levels(self):
        """The UID part and BCC of each cascade level."""
        if len(self.uid) == 4:
            parts = [self.uid]
        else:
            parts = [b"\x88" + self.uid[:3], self.uid[3:7]]
        return [p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],)) for p in parts]

    def _fall(self):
        self.state = "halt" if self._halted else "idle"
        self._level = 0
        self.forget()
        return None

    def answer(self, frame, bits):
        """The reply to frame (bits: valid bits of its last byte, 8 for all): (bytes, valid bits
        of the last byte) or None."""
        self.after_us = 0
        frame = bytes(frame)
        if bits == 7 and len(frame) == 1:
            if frame[0] == 0x26 and self.state == "idle" or frame[0] == 0x52 and \
                    self.state in ("idle", "halt"):
                self._halted = self.state == "halt"
                self.state = "ready"
                self._level = 0
                self.forget()
                return self.atqa, 8
            return self._fall() if self.state in ("ready", "active") else None
        if self.state == "ready":
            return self._select(frame)
        if self.state == "active":
            if not _crc_ok(frame):
                return self._fall()
            if frame[:2] == b"\x50\x00":
                self.state = "halt"
                self.forget()
                return None
            return self.command(frame[:-2])
        return None

    def _select(self, frame):
        levels = self._levels()
        level = (0x93, 0x95, 0x97).index(frame[0]) if frame[:1] in (b"\x93", b"\x95",
                                                                     b"\x97") else -1
        if level != self._level or level >= len(levels):
            return self._fall()
        part = levels[level]
        if frame[1:2] == b"\x20" and len(frame) == 2:
            return part, 8
        if frame[1:2] == b"\x70" and len(frame) == 9 and _crc_ok(frame) and frame[2:7] == part:
            if level + 1 < len(levels):
                self._level = level + 1
                return _with_crc(b"\x04"), 8
            self.state = "active"
            return _with_crc(bytes((self.sak,))), 8
        return self._fall()

    def command(self, cmd):
        """A command of the tag's own (READ, WRITE) to the selected tag, its CRC checked and
        taken off."""
        return self._fall()


class ClassicTag(Tag):
    """A MIFARE Classic 1K card or fob."""

    atqa = b"\x04\x00"
    sak = 0x08
    write_us = 2500

    def __init__(self, uid, key=b"\xff" * 6):
        super().__init__(uid)
        self.blocks = [bytearray(16) for _ in range(64)]
        bcc = self.uid[0] ^ self.uid[1] ^ self.uid[2] ^ self.uid[3]
        self.blocks[0][:8] = self.uid + bytes((bcc, self.sak)) + self.atqa[::-1]
        for trailer in range(3, 64, 4):
            self.blocks[trailer][:] = bytes(key) + b"\xff\x07\x80\x69" + b"\xff" * 6
        self.sector = None  # the sector the reader authenticated
        self._writing = None  # the block a WRITE's first frame named

    def forget(self):
        self.sector = None
        self._writing = None

    def auth(self, block, key, uid4):
        """The reader's MFAuthent with key A: True when the key is this sector's."""
        if self.state != "active" or uid4 != self.uid[-4:] or not 0 <= block < 64:
            return False
        trailer = self.blocks[block | 3]
        if bytes(key) != bytes(trailer[:6]):
            self.state = "idle"  # a failed authentication: the card drops out
            return False
        self.sector = block >> 2
        return True

    def command(self, cmd):
        if self._writing is not None:
            block, self._writing = self._writing, None
            if len(cmd) != 16:
                return bytes((NAK,)), 4
            self.blocks[block][:] = cmd
            self.after_us = self.write_us
            return bytes((ACK,)), 4
        if len(cmd) != 2 or cmd[0] not in (0x30, 0xA0) or cmd[1] >> 2 != self.sector:
            return bytes((NAK | 0x04,)), 4  # not authenticated for that block
        block = cmd[1]
        if cmd[0] == 0x30:
            data = bytes(self.blocks[block])
            if block & 3 == 3:
                data = b"\x00" * 6 + data[6:]  # key A never reads back
            return _with_crc(data), 8
        if block == 0:
            return bytes((NAK,)), 4
        self._writing = block
        return bytes((ACK,)), 4


class NtagTag(Tag):
    """An NTAG213 sticker."""

    atqa = b"\x44\x00"
    sak = 0x00
    pages = 45
    write_us = 4100

    def __init__(self, uid):
        super().__init__(uid)
        self.memory = bytearray(4 * self.pages)
        u = self.uid
        self.memory[0:4] = bytes((u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]))
        self.memory[4:8] = u[3:7]
        self.memory[8] = u[3] ^ u[4] ^ u[5] ^ u[6]
        self.memory[12:16] = b"\xe1\x10\x12\x00"  # the capability container: NDEF, 144 bytes
        self.memory[16:20] = b"\x03\x00\xfe\x00"  # an empty NDEF message, as stickers ship

    def command(self, cmd):
        if len(cmd) == 2 and cmd[0] == 0x30 and cmd[1] < self.pages:
            out = bytearray()
            for p in range(cmd[1], cmd[1] + 4):
                q = p % self.pages
                out += self.memory[4 * q:4 * q + 4]
            return _with_crc(out), 8
        if len(cmd) == 6 and cmd[0] == 0xA2 and 4 <= cmd[1] <= 39:
            self.memory[4 * cmd[1]:4 * cmd[1] + 4] = cmd[2:6]
            self.after_us = self.write_us
            return bytes((ACK,)), 4
        return bytes((NAK,)), 4

class ReaderSlot:
    """A card slot of the RFID build as a player meets it: the reader under it, and the tags
    laid on it. `insert(card)` lays the box's tag for that card on it (`box`: {card: tag}, as
    the unit's own cards were numbered), `place(tag)` any tag; `card` is the box's number of
    the tag on it, as its owner reads the card's print."""

    def __init__(self, chip, box):
        self.chip = chip
        self.box = box
        self.card = None
        self.tags = []

    def insert(self, card, **kw):
        self.place(self.box[card])
        self.card = card

    def place(self, tag):
        self.chip.place(tag)
        self.tags.append(tag)

    def remove(self):
        for tag in self.tags:
            self.chip.take(tag)
        self.tags = []
        self.card = None


def tag_box():
    """The unit's six cards as RFID tags, blank as they come: cards 1-4 MIFARE Classic (the
    card and fob an RC522 module ships with, and two more), 5 and 6 NTAG213 stickers."""
    box = {n: ClassicTag(bytes((0x10 * n, 0x5A, 0xC3, 0x0E + n))) for n in range(1, 5)}
    for n in (5, 6):
        box[n] = NtagTag(bytes((0x04, 0x10 * n, 0x22, 0x33, 0x44, 0x55, n)))
    return box

