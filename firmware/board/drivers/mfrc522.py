"""NXP MFRC522 contactless reader IC (datasheet Rev. 3.9), on SPI mode 0: ISO/IEC 14443 A cards.

A frame to a card goes into the FIFO and out with Transceive; the answer comes back in the FIFO
or the chip's timer runs out (TModeReg's TAuto starts it as the frame ends), so no wait reads
the Pico's clock. Cards: ISO/IEC 14443-3 WUPA, anticollision, SELECT and HLTA; MIFARE Classic
authentication, READ and WRITE of a block; NTAG and Ultralight READ and WRITE of a page.
Buffers are made once: a look at a card allocates only the bytes it returns.
"""

try:
    from micropython import const
except ImportError:  # CPython
    const = int  # type: ignore[assignment]

# Registers (datasheet 9.2)
_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_DivIrqReg = const(0x05)
_ErrorReg = const(0x06)
_Status2Reg = const(0x08)
_FIFODataReg = const(0x09)
_FIFOLevelReg = const(0x0A)
_ControlReg = const(0x0C)
_BitFramingReg = const(0x0D)
_ModeReg = const(0x11)
_TxControlReg = const(0x14)
_TxASKReg = const(0x15)
_CRCResultRegH = const(0x21)
_CRCResultRegL = const(0x22)
_TModeReg = const(0x2A)
_TPrescalerReg = const(0x2B)
_TReloadRegH = const(0x2C)
_TReloadRegL = const(0x2D)
_VersionReg = const(0x37)

# Commands (datasheet 10.3)
_Idle = const(0x00)
_CalcCRC = const(0x03)
_Transmit = const(0x04)
_Transceive = const(0x0C)
_MFAuthent = const(0x0E)
_SoftReset = const(0x0F)
_PowerDown = const(0x10)  # CommandReg: soft power-down; reads 1 until the chip is awake

_TxIRq = const(0x40)
_RxIRq = const(0x20)
_IdleIRq = const(0x10)
_ErrIRq = const(0x02)
_TimerIRq = const(0x01)
_CRCIRq = const(0x04)
_MFCrypto1On = const(0x08)
_ERRORS = const(0x1B)  # ErrorReg: BufferOvfl, CollErr, ParityErr, ProtocolErr

# The cards' commands (ISO/IEC 14443-3; MIFARE Classic; NTAG21x)
_WUPA = const(0x52)
_HLTA = const(0x50)
_READ = const(0x30)
_WRITE_BLOCK = const(0xA0)  # MIFARE Classic: 16 bytes, in two frames
_WRITE_PAGE = const(0xA2)  # NTAG, Ultralight: 4 bytes
_AUTH_KEY_A = const(0x60)
_ACK = const(0x0A)

# The chip's timer at 40 kHz (13.56 MHz / (2 * 169 + 1)): one tick is 25 us.
_PRESCALER = const(169)
SHORT = 40  # ticks: 1 ms, far longer than a card's answer to a frame (under 0.1 ms)
LONG = 400  # 10 ms: a card's write to its memory, or an authentication


def first_part(uid):
    """What anticollision answers at the first cascade level for uid: its 4 bytes, or the
    cascade tag 88h and its first 3, then the BCC (their XOR)."""
    part = bytearray(uid if len(uid) == 4 else b"\x88" + uid[:3])
    return bytes(part) + bytes((part[0] ^ part[1] ^ part[2] ^ part[3],))


class MFRC522:
    KEY = b"\xff\xff\xff\xff\xff\xff"  # MIFARE Classic key A as cards ship (transport key)

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self._pair = bytearray(2)
        self._back = bytearray(2)
        self._frame = bytearray(18)  # the largest out: a block's 16 bytes and CRC_A
        # FIFO bursts, an SPI transaction each: the address byte, then up to 18 data bytes
        self._out = bytearray(19)
        self._in = bytearray(19)
        self._reads = bytearray(19)
        for i in range(18):
            self._reads[i] = 0x80 | _FIFODataReg << 1
        self._timeout = 0  # TReloadReg as last set
        self._last_bits = 0  # ControlReg's RxLastBits of the last answer (0: whole bytes)
        cs.value(1)

    def _set(self, reg, value):
        pair = self._pair
        pair[0] = reg << 1
        pair[1] = value
        self.cs.value(0)
        self.spi.write(pair)
        self.cs.value(1)

    def _get(self, reg):
        pair = self._pair
        pair[0] = 0x80 | reg << 1
        pair[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(pair, self._back)
        self.cs.value(1)
        return self._back[1]

    def _fill(self, data, n):
        """The FIFO emptied, then n bytes of data in it."""
        self._set(_FIFOLevelReg, 0x80)  # FlushBuffer
        out = self._out
        out[0] = _FIFODataReg << 1  # a write: every byte after the address goes to the FIFO
        for i in range(n):
            out[1 + i] = data[i]
        self.cs.value(0)
        self.spi.write(memoryview(out)[:n + 1])
        self.cs.value(1)

    def _drain(self):
        """What the FIFO holds, 18 bytes at most: a card's longest answer here."""
        n = self._get(_FIFOLevelReg) & 0x7F
        if n > 18:
            return None
        reads = self._reads
        reads[n] = 0  # the byte that ends the read
        self.cs.value(0)
        self.spi.write_readinto(memoryview(reads)[:n + 1], memoryview(self._in)[:n + 1])
        self.cs.value(1)
        reads[n] = 0x80 | _FIFODataReg << 1
        return bytes(self._in[1:n + 1])

    def _wait(self, reg, bits):
        """reg once one of bits is set; the chip's timer ends every wait."""
        for _ in range(2000):
            got = self._get(reg)
            if got & bits:
                return got
        return 0

    def reset(self):
        """SoftReset, then the settings every exchange relies on; VersionReg (0x91, 0x92; 0x00 or
        0xFF: no chip)."""
        self._set(_CommandReg, _SoftReset)
        self._wait_awake()
        self._timeout = 0  # the reset cleared TReloadReg
        self._set(_TModeReg, 0x80 | _PRESCALER >> 8)  # TAuto: the timer starts as a frame ends
        self._set(_TPrescalerReg, _PRESCALER & 0xFF)
        self._ticks(SHORT)
        self._set(_TxASKReg, 0x40)  # Force100ASK: ISO/IEC 14443 A's modulation
        self._set(_ModeReg, 0x3D)  # CRC preset 6363h (CRC_A)
        return self._get(_VersionReg)

    def _wait_awake(self):
        for _ in range(1000):
            if not self._get(_CommandReg) & _PowerDown:
                return

    def _ticks(self, n):
        if n != self._timeout:
            self._timeout = n
            self._set(_TReloadRegH, n >> 8)
            self._set(_TReloadRegL, n & 0xFF)

    def antenna(self, on):
        """The field on TX1 and TX2, on or off."""
        got = self._get(_TxControlReg)
        self._set(_TxControlReg, got | 0x03 if on else got & ~0x03)

    def sleep(self, asleep):
        """Soft power-down, or awake again with every register kept."""
        if asleep:
            self._set(_CommandReg, _PowerDown)
        else:
            self._set(_CommandReg, _Idle)
            self._wait_awake()

    def _crc(self, data, n):
        """CRC_A of data[:n] by the chip: (low byte, high byte), as sent."""
        self._set(_CommandReg, _Idle)
        self._set(_DivIrqReg, _CRCIRq)  # Set2 = 0: CRCIRq cleared
        self._fill(data, n)
        self._set(_CommandReg, _CalcCRC)
        self._wait(_DivIrqReg, _CRCIRq)
        self._set(_CommandReg, _Idle)
        return self._get(_CRCResultRegL), self._get(_CRCResultRegH)

    def _exchange(self, n, bits=0, ticks=SHORT, command=_Transceive):
        """self._frame[:n] to the card (bits: of its last byte, 0 for 8); the answer (b"" for
        Transmit and MFAuthent), or None: none in time, or a collision, parity or protocol
        error."""
        self._ticks(ticks)
        self._set(_CommandReg, _Idle)
        self._set(_ComIrqReg, 0x7F)  # Set1 = 0: every request bit cleared
        self._fill(self._frame, n)
        self._set(_CommandReg, command)
        self._set(_BitFramingReg, 0x80 | bits)  # StartSend
        # What ends the command: the answer; the authentication done; the frame sent.
        done = _RxIRq if command == _Transceive else _IdleIRq if command == _MFAuthent \
            else _TxIRq
        irq = self._wait(_ComIrqReg, done | _TimerIRq | _ErrIRq)
        self._set(_BitFramingReg, 0)
        if not irq & done or self._get(_ErrorReg) & _ERRORS:
            self._set(_CommandReg, _Idle)
            return None
        if command == _Transmit:
            return b""
        if command == _MFAuthent:
            return b"" if self._get(_Status2Reg) & _MFCrypto1On else None
        self._last_bits = self._get(_ControlReg) & 0x07
        return self._drain()

    def _with_crc(self, n):
        lo, hi = self._crc(self._frame, n)
        self._frame[n] = lo
        self._frame[n + 1] = hi
        return n + 2

    def _checked(self, got, n):
        """got without its CRC_A, if it is n bytes and a good CRC_A; else None."""
        if got is None or len(got) != n + 2:
            return None
        if self._crc(got, n) != (got[n], got[n + 1]):
            return None
        return got[:n]

    def wake(self):
        """WUPA (idle and halted cards answer), then anticollision: the first cascade level's
        UID part and BCC, or None: no card, or two at once."""
        f = self._frame
        f[0] = _WUPA
        if self._exchange(1, 7) is None:
            return None
        return self._level(0x93)

    def _level(self, level):
        f = self._frame
        f[0] = level
        f[1] = 0x20  # anticollision: no UID bits known yet
        got = self._exchange(2)
        if got is None or len(got) != 5 or got[0] ^ got[1] ^ got[2] ^ got[3] ^ got[4]:
            return None
        return got

    def select(self, part):
        """The card woken, part wake()'s, selected through every cascade level: (UID, SAK), or
        None."""
        f = self._frame
        uid = b""
        for level in (0x93, 0x95, 0x97):  # cascade levels 1 to 3
            if level != 0x93:
                part = self._level(level)
                if part is None:
                    return None
            f[0] = level
            f[1] = 0x70  # SELECT: the whole UID part and its BCC
            for i in range(5):
                f[2 + i] = part[i]
            sak = self._checked(self._exchange(self._with_crc(7)), 1)
            if sak is None:
                return None
            if not sak[0] & 0x04:  # the UID is complete
                return uid + bytes(part[:4]), sak[0]
            uid += bytes(part[1:4])  # a cascade tag (0x88), then three bytes of the UID
        return None

    def halt(self):
        """HLTA: quiet until the next WUPA (a card woken, not selected, takes it for a frame it
        did not expect: back to idle or halt). Not answered."""
        f = self._frame
        f[0] = _HLTA
        f[1] = 0
        f[2] = 0x57  # its CRC_A, always the same (ISO/IEC 14443-3, Annex B)
        f[3] = 0xCD
        self._exchange(4, command=_Transmit)
        self._set(_CommandReg, _Idle)
        self._set(_Status2Reg, 0)  # MFCrypto1On off: the next card is not this one's

    def authenticate(self, block, uid):
        """MIFARE Classic: key A for block's sector; True once the chip's crypto is on."""
        f = self._frame
        f[0] = _AUTH_KEY_A
        f[1] = block
        key = self.KEY
        for i in range(6):
            f[2 + i] = key[i]
        for i in range(4):
            f[8 + i] = uid[len(uid) - 4 + i]  # the last four bytes of the UID
        return self._exchange(12, command=_MFAuthent, ticks=LONG) is not None

    def read(self, address):
        """16 bytes of a MIFARE Classic block or of four NTAG pages, or None."""
        f = self._frame
        f[0] = _READ
        f[1] = address
        return self._checked(self._exchange(self._with_crc(2)), 16)

    def _acked(self, n):
        got = self._exchange(self._with_crc(n), ticks=LONG)
        return got is not None and len(got) == 1 and self._last_bits == 4 and got[0] == _ACK

    def write(self, address, data, classic):
        """16 bytes to a MIFARE Classic block, or 4 to an NTAG page; True once acknowledged."""
        f = self._frame
        if not classic:
            f[0] = _WRITE_PAGE
            f[1] = address
            for i in range(4):
                f[2 + i] = data[i]
            return self._acked(6)
        f[0] = _WRITE_BLOCK
        f[1] = address
        if not self._acked(2):
            return False
        for i in range(16):
            f[i] = data[i]
        return self._acked(16)
