"""The RFID build's readers, emulated: NXP MFRC522s (RC522 modules) on the SPI bus of the
emulated RP2040, as the datasheet (NXP MFRC522, Rev. 3.9) describes the chip.

- SPIBus: the RP2040's SPI block (rp2040py's) with each chip's NSS on a GPIO. A byte reaches
  the chip whose NSS is low, and only when the block drives the pins the pin map names (their
  function is SPI), in the chip's format (8.1.2: Motorola frames, 8 bits, CPOL 0 and CPHA 0);
  else the chip sees nothing and MISO reads 0.
- MFRC522: 8.1.2.3's byte order (an address byte, register << 1 with bit 7 set to read; a read
  returns the previous address's value as the next address goes out); the registers of 9.2
  the driver uses, with their reset values and ComIrqReg/DivIrqReg's Set1/Set2 bits; the
  64-byte FIFO (FIFOLevelReg, FlushBuffer); the commands of 10.3: Idle, CalcCRC (CRC_A with
  ModeReg's preset), Transmit, Transceive (sent at BitFramingReg's StartSend with TxLastBits,
  the answer's RxLastBits in ControlReg), MFAuthent (the key and UID from the FIFO;
  MFCrypto1On in Status2Reg), SoftReset, and CommandReg's PowerDown; the timer (8.5: TAuto
  starts it as a frame ends, TimerIRq after (2 TPrescaler + 1)(TReload + 1) / 13.56 MHz unless
  an answer came); the field on TX1 and TX2 (TxControlReg), which a card understands only with
  100 % ASK (TxASKReg's Force100ASK). Errors: two cards answering (CollErr), a FIFO overflow
  (BufferOvfl).
- Time is the caller's clock (`now_us()`): an answer is in the FIFO once its air time has
  passed (106 kbit/s: 9.44 us a bit with its parity, and the frame delay time between), read
  lazily when the firmware reads a register.
"""

from simulator.pico.cards import crc_a

BIT_US = 128 / 13.56  # one bit at 106 kbit/s
FDT_US = 86.0  # the frame delay time, a frame's end to the answer's start
AUTH_US = 1500.0  # MFAuthent's three passes
WAKE_US = 100.0  # out of soft power-down: the oscillator starts
START_US = 1000.0  # out of hard power-down: the crystal starts (8.8.2)
PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)  # ModeReg CRCPreset

RESET = {0x01: 0x20, 0x02: 0x80, 0x0E: 0x80, 0x11: 0x3F, 0x14: 0x80, 0x21: 0xFF,
         0x22: 0xFF, 0x37: 0x92}


class MFRC522:
    version = 0x92  # VersionReg: MFRC522 version 2.0

    def __init__(self, now_us):
        self.now_us = now_us
        self.tags = []  # the tags in this reader's field
        self.fifo = bytearray()
        self.regs = bytearray(64)
        self.frames = []  # (us, bytes, bits) every frame sent: what the field carried
        self._addr = None
        self._read = False
        self.nrstpd = True  # out of hard power-down (SPIBus follows the RST pin)
        self._start_us = 0.0  # the SPI interface is up from then
        self.soft_reset()

    def soft_reset(self):
        self.regs[:] = bytes(64)
        for reg, value in RESET.items():
            self.regs[reg] = value
        self.regs[0x37] = self.version
        self.fifo = bytearray()
        self._pending = None  # (us, fn): what the running command does when its time comes
        self._awake_us = 0.0
        self._field()

    # -- the field ---------------------------------------------------------------------------

    def field_on(self):
        return self.nrstpd and bool(self.regs[0x14] & 0x03) and not self.regs[0x01] & 0x10

    def hard_power(self, up):
        """NRSTPD (the module's RST): low is hard power-down, its rising edge a reset."""
        if up and not self.nrstpd:
            self.nrstpd = True
            self.soft_reset()
            self._start_us = self.now_us() + START_US
        elif not up:
            self.nrstpd = False
            self._field()

    def _field(self):
        now = self.now_us()
        for tag in self.tags:
            tag.power(any(r.field_on() for r in tag.readers), now)

    def place(self, tag):
        """A tag comes into this reader's field."""
        if tag not in self.tags:
            self.tags.append(tag)
            tag.readers.add(self)
            tag.power(any(r.field_on() for r in tag.readers), self.now_us())

    def take(self, tag):
        if tag in self.tags:
            self.tags.remove(tag)
            tag.readers.discard(self)
            tag.power(any(r.field_on() for r in tag.readers), self.now_us())

    # -- SPI ---------------------------------------------------------------------------------

    def select(self, low):
        """NSS: low starts a transaction, high ends it."""
        self._addr = None

    def byte(self, mosi):
        """One byte on MOSI; the byte the chip puts on MISO meanwhile."""
        if not self.nrstpd or self.now_us() < self._start_us:
            return 0  # in hard power-down, or its crystal starting: no SPI interface yet
        if self._addr is None:
            self._read = bool(mosi & 0x80)
            self._addr = (mosi >> 1) & 0x3F
            return 0
        if self._read:
            out = self.get(self._addr)
            self._addr = (mosi >> 1) & 0x3F
            return out
        self.set(self._addr, mosi)
        return 0

    # -- registers ---------------------------------------------------------------------------

    def _due(self):
        pending = self._pending
        if pending is not None and self.now_us() >= pending[0]:
            self._pending = None
            pending[1]()

    def get(self, reg):
        self._due()
        r = self.regs
        if reg == 0x01 and r[0x01] & 0x10 == 0 and self.now_us() < self._awake_us:
            return r[0x01] | 0x10  # waking: PowerDown reads 1 until the chip is ready
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        if reg in (0x04, 0x05):
            return r[reg] & 0x7F
        return r[reg]

    def set(self, reg, value):
        self._due()
        r = self.regs
        if reg == 0x01:
            was_down = r[0x01] & 0x10
            r[0x01] = value & 0x3F
            if was_down and not value & 0x10:
                self._awake_us = self.now_us() + WAKE_US
            self._field()
            self._command(value & 0x0F)
        elif reg in (0x04, 0x05):
            marked = value & 0x7F
            r[reg] = r[reg] | marked if value & 0x80 else r[reg] & ~marked
        elif reg == 0x09:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                r[0x06] |= 0x10  # BufferOvfl
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo = bytearray()
                r[0x06] &= ~0x10
        elif reg == 0x0D:
            r[0x0D] = value & 0x7F
            if value & 0x80 and r[0x01] & 0x0F == 0x0C:
                self._send(expect=True)
        elif reg == 0x14:
            r[0x14] = value
            self._field()
        elif reg == 0x08:
            r[0x08] = value & 0xC8 & (r[0x08] | 0xC0)  # MFCrypto1On: cleared, never set
        elif reg not in (0x06, 0x07, 0x37):  # read-only: ErrorReg, Status1Reg, VersionReg
            r[reg] = value

    # -- commands ----------------------------------------------------------------------------

    def _irq(self, bits):
        self.regs[0x04] |= bits

    def _command(self, cmd):
        r = self.regs
        self._pending = None
        if r[0x01] & 0x10 and cmd != 0x0F:
            return  # powered down: no command runs
        if cmd == 0x00:
            return
        if cmd == 0x03:  # CalcCRC: the FIFO through the coprocessor
            crc = crc_a(self.fifo, PRESETS[r[0x11] & 0x03])
            self.fifo = bytearray()
            r[0x22], r[0x21] = crc[0], crc[1]
            r[0x05] |= 0x04  # CRCIRq
        elif cmd == 0x04:  # Transmit
            self._send(expect=False)
        elif cmd == 0x0E:  # MFAuthent
            self._authenticate()
        elif cmd == 0x0F:  # SoftReset
            self.soft_reset()
            self._awake_us = self.now_us() + WAKE_US

    def _timer_us(self):
        r = self.regs
        prescaler = (r[0x2A] & 0x0F) << 8 | r[0x2B]
        reload = r[0x2C] << 8 | r[0x2D]
        return (2 * prescaler + 1) * (reload + 1) / 13.56

    def _timeout(self, start_us):
        """TAuto: the timer, started as a frame ended, runs out with nothing received."""
        if self.regs[0x2A] & 0x80:
            self._pending = (start_us + self._timer_us(), lambda: self._irq(0x01))

    def _send(self, expect):
        r = self.regs
        r[0x06] = 0  # ErrorReg: cleared as a command starts its frame
        frame = bytes(self.fifo)
        self.fifo = bytearray()
        bits = r[0x0D] & 0x07 or 8
        now = self.now_us()
        self.frames.append((now, frame, bits))
        end = now + BIT_US * (9 * (len(frame) - 1) + bits + 1)
        answers = []
        if self.field_on() and r[0x15] & 0x40:
            for tag in self.tags:
                if tag.ready(now):
                    got = tag.answer(frame, bits)
                    if got is not None:
                        answers.append((tag, got))
        if not expect:  # Transmit: the frame goes out, the receiver does not listen
            self._pending = (end, lambda: (self._irq(0x40 | 0x10), self._idle()))
            return
        if not answers:
            self._timeout(end)
            return
        if len(answers) > 1:
            self._pending = (end + FDT_US, lambda: self._error(0x08))  # CollErr
            return
        tag, (data, last) = answers[0]
        at = end + FDT_US + tag.after_us + BIT_US * 9 * len(data)
        self._pending = (at, lambda: self._received(data, last))

    def _idle(self):
        self.regs[0x01] &= 0xF0

    def _received(self, data, last):
        self.fifo = bytearray(data)
        self.regs[0x0C] = (self.regs[0x0C] & 0xF8) | (last & 0x07 if last != 8 else 0)
        self._irq(0x40 | 0x20)  # TxIRq, RxIRq

    def _error(self, bits):
        self.regs[0x06] |= bits
        self._irq(0x40 | 0x20 | 0x02)

    def _authenticate(self):
        data = bytes(self.fifo)
        self.fifo = bytearray()
        self.regs[0x06] = 0
        now = self.now_us()
        ok = False
        if self.field_on() and len(data) == 12 and data[0] == 0x60:
            for tag in self.tags:
                auth = getattr(tag, "auth", None)
                if tag.ready(now) and auth is not None and auth(data[1], data[2:8],
                                                                 data[8:12]):
                    ok = True
        if not ok:
            self._timeout(now + AUTH_US)
            return

        def done():
            self.regs[0x08] |= 0x08  # MFCrypto1On
            self._idle()
            self._irq(0x10)  # IdleIRq

        self._pending = (now + AUTH_US, done)


class SPIBus:
    """The RP2040's SPI block `index` at the pins sck/mosi/miso, and MFRC522s on it, each with
    its NSS on a GPIO (`attach`)."""

    def __init__(self, pico, index, sck, mosi, miso):
        from rp2040py.gpio_pin import GPIOPinState

        self.pico = pico
        self.mcu = pico.mcu
        self.spi = self.mcu.spi[index]
        self.pins = (sck, mosi, miso)
        self.chips = []  # (chip, nss pin)
        self._LOW, self._HIGH = GPIOPinState.LOW, GPIOPinState.HIGH
        self.spi.on_transmit = self._byte

    def attach(self, chip, nss, rst=None):
        """chip's NSS on GPIO nss, its RST (NRSTPD) on rst (None: tied high)."""
        self.chips.append((chip, nss))
        gpio = self.mcu.gpio
        gpio[nss].add_listener(lambda new, old: chip.select(new == self._LOW))
        if rst is not None:
            chip.hard_power(gpio[rst].value == self._HIGH)
            gpio[rst].add_listener(lambda new, old: chip.hard_power(new == self._HIGH))

    def routed(self):
        """The block drives the pins, as the chip reads them (8.1.2): SSPCR0 Motorola frames
        (FRF 0) of 8 bits, SPO and SPH 0; SSPCR1 enabled (SSE), master (MS 0). The bit rate is
        not checked: rp2040py takes clk_peri as 125 MHz where the rp2 port runs it at 48."""
        spi = self.spi
        cr0, cr1 = spi._control0, spi._control1
        if any(self.mcu.gpio[p].function_select != 1 for p in self.pins):
            return False  # GPIO function 1: SPI
        return (bool(cr1 & 0x02) and not cr1 & 0x04 and spi.data_bits == 8
                and not cr0 & 0xC0 and not (cr0 >> 4) & 3)

    def _byte(self, value):
        chosen = [c for c, nss in self.chips if self.mcu.gpio[nss].value == self._LOW]
        miso = 0
        if len(chosen) == 1 and self.routed():
            miso = chosen[0].byte(value)
        self.spi.complete_transmit(miso)

