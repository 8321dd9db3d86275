"""NXP MFRC522 contactless reader IC (datasheet Rev. 3.9), on SPI mode 0: ISO/IEC 14443 A cards.

Every wait ends on the chip's timer (TModeReg's TAuto starts it as a frame ends), never the
Pico's clock. Buffers are made once: a look at a card allocates only the bytes it returns.
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
    p = bytes(uid if len(uid) == 4 else b"\x88" + uid[:3])
    return p + bytes((p[0] ^ p[1] ^ p[2] ^ p[3],))


class MFRC522:
    KEY = b"\xff\xff\xff\xff\xff\xff"  # MIFARE Classic key A as cards ship (transport key)

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self._pair = bytearray(2)
        self._frame = bytearray(18)  # the largest out: a block's 16 bytes and CRC_A
        # FIFO bursts, an SPI transaction each: the address byte, then up to 18 data bytes
        self._burst = bytearray(19)  # out, and back in
        self._reads = bytearray((0x80 | _FIFODataReg << 1,) * 19)  # _drain's 0 ends each read
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
        self.spi.write_readinto(pair, pair)  # machine.SPI: the buffers may be the same
        self.cs.value(1)
        return pair[1]

    def _fill(self, data, n):
        """The FIFO emptied, then n bytes of data in it."""
        self._set(_FIFOLevelReg, 0x80)  # FlushBuffer
        out = self._burst
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
        self.spi.write_readinto(memoryview(reads)[:n + 1], memoryview(self._burst)[:n + 1])
        self.cs.value(1)
        reads[n] = 0x80 | _FIFODataReg << 1
        return bytes(self._burst[1:n + 1])

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
        """The field off and soft power-down, or awake again (every register kept), field on."""
        if asleep:
            self.antenna(False)
            self._set(_CommandReg, _PowerDown)
        else:
            self._set(_CommandReg, _Idle)
            self._wait_awake()
            self.antenna(True)

    def _start(self, command, irq_reg, irq, data, n):
        """command on data[:n] in the FIFO, irq's request bits cleared first (bit 7, Set, 0)."""
        self._set(_CommandReg, _Idle)
        self._set(irq_reg, irq)
        self._fill(data, n)
        self._set(_CommandReg, command)

    def _crc(self, data, n):
        """CRC_A of data[:n] by the chip: (low byte, high byte), as sent."""
        self._start(_CalcCRC, _DivIrqReg, _CRCIRq, data, n)
        self._wait(_DivIrqReg, _CRCIRq)
        self._set(_CommandReg, _Idle)
        return self._get(_CRCResultRegL), self._get(_CRCResultRegH)

    def _exchange(self, n, bits=0, ticks=SHORT, command=_Transceive, done=_RxIRq):
        """self._frame[:n] (bits: of its last byte, 0 for 8) to the card until done; its answer
        (b"" but for Transceive), or None: late, or a collision, parity or protocol error."""
        self._ticks(ticks)
        self._start(command, _ComIrqReg, 0x7F, self._frame, n)
        self._set(_BitFramingReg, 0x80 | bits)  # StartSend
        irq = self._wait(_ComIrqReg, done | _TimerIRq | _ErrIRq)
        self._set(_BitFramingReg, 0)
        if not irq & done or self._get(_ErrorReg) & _ERRORS:
            self._set(_CommandReg, _Idle)
            return None
        if command != _Transceive:
            return b""
        self._last_bits = self._get(_ControlReg) & 0x07
        return self._drain()

    def _put(self, a, b, data=b"", n=0, crc=False):
        """self._frame: a, b, then data[:n], and its CRC_A if crc; the frame's length."""
        f = self._frame
        f[0] = a
        f[1] = b
        for i in range(n):
            f[2 + i] = data[i]
        return self._with_crc(n + 2) if crc else n + 2

    def _with_crc(self, n):
        f = self._frame
        f[n], f[n + 1] = self._crc(f, n)
        return n + 2

    def _checked(self, got, n):
        """got without its CRC_A, if it is n bytes and a good CRC_A; else None."""
        if got is None or len(got) != n + 2 or self._crc(got, n) != (got[n], got[n + 1]):
            return None
        return got[:n]

    def wake(self):
        """WUPA (idle and halted cards answer), then anticollision: the first cascade level's
        UID part and BCC, or None: no card, or two at once."""
        self._frame[0] = _WUPA
        return None if self._exchange(1, 7) is None else self._level(0x93)

    def _level(self, level):
        got = self._exchange(self._put(level, 0x20))  # anticollision: no UID bits known yet
        ok = got is not None and len(got) == 5 and not got[0] ^ got[1] ^ got[2] ^ got[3] ^ got[4]
        return got if ok else None

    def select(self, part):
        """The card woken, part wake()'s, selected through every cascade level: (UID, SAK), or
        None."""
        uid = b""
        for level in (0x93, 0x95, 0x97):  # cascade levels 1 to 3
            part = part if level == 0x93 else self._level(level)  # at level 1: wake()'s
            if part is None:
                return None
            sak = self._checked(self._exchange(self._put(level, 0x70, part, 5, True)), 1)  # SELECT
            if sak is None:
                return None
            if not sak[0] & 0x04:  # the UID is complete
                return uid + bytes(part[:4]), sak[0]
            uid += bytes(part[1:4])  # a cascade tag (0x88), then three bytes of the UID
        return None

    def halt(self):
        """HLTA: quiet until the next WUPA (a card woken, not selected, takes it for a frame it
        did not expect: back to idle or halt). Not answered. Its CRC_A is always 57h CDh
        (ISO/IEC 14443-3, Annex B)."""
        self._exchange(self._put(_HLTA, 0, b"\x57\xcd", 2), command=_Transmit, done=_TxIRq)
        self._set(_CommandReg, _Idle)
        self._set(_Status2Reg, 0)  # MFCrypto1On off: the next card is not this one's

    def authenticate(self, block, uid):
        """MIFARE Classic: key A for block's sector; True once the chip's crypto is on."""
        self._put(_AUTH_KEY_A, block, self.KEY, 6)
        for i in range(4):
            self._frame[8 + i] = uid[len(uid) - 4 + i]  # the last four bytes of the UID
        return self._exchange(12, ticks=LONG, command=_MFAuthent, done=_IdleIRq) is not None \
            and self._get(_Status2Reg) & _MFCrypto1On != 0

    def read(self, address):
        """16 bytes of a MIFARE Classic block or of four NTAG pages, or None."""
        return self._checked(self._exchange(self._put(_READ, address, crc=True)), 16)

    def _acked(self, n):
        got = self._exchange(n, ticks=LONG)
        return got is not None and len(got) == 1 and self._last_bits == 4 and got[0] == _ACK

    def write(self, address, data, classic):
        """16 bytes to a MIFARE Classic block, or 4 to an NTAG page; True once acknowledged."""
        if not classic:
            return self._acked(self._put(_WRITE_PAGE, address, data, 4, True))
        if not self._acked(self._put(_WRITE_BLOCK, address, crc=True)):
            return False
        self._frame[:16] = data
        return self._acked(self._with_crc(16))
