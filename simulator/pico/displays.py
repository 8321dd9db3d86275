"""The unit's display chips, emulated at their pins as their datasheets say (parts.py puts them
on the Pico): each only sees pin levels and only drives pins, like the real one.

- HT1621: decodes CS/WR/DATA frames into its 32 x 4-bit display RAM as the datasheet says
  (Holtek HT1621, "Command Format", "Timing Diagrams"): a frame starts with CS low; DATA is
  latched on WR's rising edge; mode ID 100 = COMMAND (9-bit commands, C8 first, then a
  don't-care bit, as many as follow), 101 = WRITE (6-bit address A5 first, then 4-bit nibbles,
  D0 first, to successive addresses); CS high ends it. What the glass shows is glass.py's.
- TM1637: decodes CLK/DIO (start: DIO falls while CLK high; stop: DIO rises while CLK high;
  bytes LSB first read on CLK's rising edge; the chip pulls DIO low on the ninth clock (ACK));
  0x40/0x44 data commands, 0xC0|address, 0x80|0x08|brightness display control.
"""


def _state():
    from rp2040py.gpio_pin import GPIOPinState

    return GPIOPinState


class HT1621:
    def __init__(self, pico, cs, wr, data):
        self.pico = pico
        self.gpio = pico.mcu.gpio
        self.cs, self.wr, self.data = cs, wr, data
        self.ram = [0] * 32
        self.lcd_on = False
        self.sys_en = False
        self.writes = 0  # WRITE frames received
        self.frames = []  # (ms, "write"|"command", detail) in the order they ended
        self.last_write_ms = None
        # The CS rising edge of the last frame after which the glass differs from before it
        # (its RAM, or lit/dark): where a pin-level check of a key's latency ends.
        self.changed_ms = None
        self._before = None  # (RAM, lit) as the frame being clocked in found them
        self._bits = None
        S = _state()
        self._HIGH = S.HIGH
        self._LOW = S.LOW
        self.gpio[cs].add_listener(self._on_cs)
        self.gpio[wr].add_listener(self._on_wr)

    def _on_cs(self, new, old):
        if new == self._LOW:
            self._bits = []
            self._before = (list(self.ram), self.lit())
        elif new == self._HIGH and self._bits is not None:
            self._frame(self._bits)
            self._bits = None
            if self._before != (self.ram, self.lit()):
                self.changed_ms = self.pico.now_ms()

    def _on_wr(self, new, old):
        if new == self._HIGH and old == self._LOW and self._bits is not None:
            self._bits.append(1 if self.gpio[self.data].value == self._HIGH else 0)
            # A WRITE takes effect nibble by nibble, as the chip's RAM does.
            bits = self._bits
            if len(bits) >= 13 and bits[:3] == [1, 0, 1] and (len(bits) - 9) % 4 == 0:
                self._nibble(bits)

    def _nibble(self, bits):
        addr = 0
        for b in bits[3:9]:
            addr = addr << 1 | b
        n = (len(bits) - 9) // 4 - 1
        d = bits[9 + 4 * n:13 + 4 * n]
        self.ram[(addr + n) % 32] = d[0] | d[1] << 1 | d[2] << 2 | d[3] << 3
        self.last_write_ms = self.pico.now_ms()

    def _frame(self, bits):
        now = self.pico.now_ms()
        mode = bits[:3]
        if mode == [1, 0, 1] and len(bits) >= 13:
            self.writes += 1
            self.frames.append((now, "write", (len(bits) - 9) // 4))
        elif mode == [1, 0, 0]:
            rest = bits[3:]
            while len(rest) >= 9:
                code = 0
                for b in rest[:8]:
                    code = code << 1 | b
                rest = rest[9:]
                self._command(code)
                self.frames.append((now, "command", code))

    def _command(self, code):
        if code == 0x00:  # SYS DIS: oscillator off, the glass blank
            self.sys_en = False
            self.lcd_on = False
        elif code == 0x01:
            self.sys_en = True
        elif code == 0x02:
            self.lcd_on = False
        elif code == 0x03:
            self.lcd_on = True

    def mid_frame(self):
        """A frame is being clocked in (CS low): the RAM holds half of the new picture."""
        return self._bits is not None

    def lit(self):
        """Whether the glass shows anything at all (bias on and the oscillator running)."""
        return self.lcd_on and self.sys_en

    def glass(self):
        from simulator.pico.glass import HT1621Glass

        return HT1621Glass(self.ram)

    def shown(self):
        """(text, annunciator) as a player reads the glass: ('', '') when dark."""
        if not self.lit():
            return "", ""
        g = self.glass()
        return g.text(), g.annunciator()


class TM1637:
    def __init__(self, pico, clk, dio):
        self.pico = pico
        self.gpio = pico.mcu.gpio
        self.clk, self.dio = clk, dio
        self.grids = [0] * 6
        self.on = False
        self.brightness = 0
        self.writes = 0
        self.frames = []
        self.last_write_ms = None
        self._bytes = None
        self._cur = 0
        self._nbits = 0
        self._ack = False
        S = _state()
        self._HIGH, self._LOW = S.HIGH, S.LOW
        self.gpio[clk].add_listener(self._on_clk)
        self.gpio[dio].add_listener(self._on_dio)
        self._release()

    def _line(self, pin):
        """The bus line: low when anyone drives it low, else the module's pull-up."""
        return 0 if self.gpio[pin].value == self._LOW else 1

    def _release(self):
        self.gpio[self.dio].set_input_value(True)  # the module's pull-up

    def _on_dio(self, new, old):
        if self._line(self.clk) != 1 or self._ack:
            return
        if new == self._LOW:  # start
            self._bytes, self._cur, self._nbits = [], 0, 0
        elif old == self._LOW and self._bytes is not None:  # stop
            self._frame(self._bytes)
            self._bytes = None

    def _on_clk(self, new, old):
        if self._bytes is None:
            return
        if new == self._HIGH and old != self._HIGH:
            if self._nbits < 8:
                self._cur |= self._line(self.dio) << self._nbits
                self._nbits += 1
        elif new == self._LOW and old == self._HIGH:
            if self._nbits == 8 and not self._ack:
                self._bytes.append(self._cur)
                self._ack = True  # the ninth clock: pull DIO low
                self.gpio[self.dio].set_input_value(False)
            elif self._ack:
                self._ack = False
                self._release()
                self._cur, self._nbits = 0, 0

    def _frame(self, data):
        if not data:
            return
        now = self.pico.now_ms()
        cmd = data[0]
        if cmd & 0xC0 == 0xC0:
            addr = cmd & 0x07
            for b in data[1:]:
                if addr < 6:
                    self.grids[addr] = b
                addr += 1
            self.writes += 1
            self.last_write_ms = now
            self.frames.append((now, "write", len(data) - 1))
        elif cmd & 0xF0 == 0x80:
            self.on = bool(cmd & 0x08)
            self.brightness = cmd & 7
            self.frames.append((now, "command", cmd))
        else:
            self.frames.append((now, "command", cmd))

    def mid_frame(self):
        return self._bytes is not None

    def lit(self):
        return self.on

    def shown(self):
        if not self.on:
            return "", ""
        from simulator.pico.glass import TM1637Glass

        g = TM1637Glass(self.grids)
        return g.text(), g.annunciator()
