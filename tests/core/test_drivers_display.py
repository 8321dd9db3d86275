"""The display drivers against the bus frames their datasheets define, on the fake machine.

Each test decodes the pin levels the driver wrote (machine.trace) back into the frames a chip
would see, and checks those frames: the unit shows 14.995 with M lit (B1).
"""

import machine
from board import segments
from board.drivers.ht1621 import HT1621
from board.drivers.tm1637 import TM1637

# -- HT1621 ---------------------------------------------------------------------------------


def ht1621_frames(trace, cs="CS", wr="WR", data="DATA"):
    """The bit strings the chip clocks in: one list per CS-low frame.

    HT1621 datasheet, "Timing Diagrams": a frame is CS low; DATA is latched on each rising
    edge of WR while CS is low; CS high ends it.
    """
    level = {cs: 1, wr: 1, data: 1}
    frames = []
    bits = None
    for pin, v in trace:
        if pin not in level:
            continue
        old = level[pin]
        level[pin] = v
        if pin == cs and old == 1 and v == 0:
            bits = []
        elif pin == cs and old == 0 and v == 1:
            frames.append(bits)
            bits = None
        elif pin == wr and old == 0 and v == 1 and bits is not None:
            bits.append(level[data])
    return frames


def msb(bits):
    n = 0
    for b in bits:
        n = (n << 1) | b
    return n


def parse_ht1621(frames):
    """HT1621 "Command Format": ID 100 + 8 command bits + 1 don't-care bit; ID 101 + 6-bit
    address (A5 first) + 4-bit data nibbles, D0 first, to successive addresses."""
    commands = []
    ram = {}
    for bits in frames:
        mode = msb(bits[:3])
        if mode == 0b100:
            assert len(bits) == 12, "a command frame is 3 + 9 bits"
            commands.append(msb(bits[3:11]))
        elif mode == 0b101:
            address = msb(bits[3:9])
            body = bits[9:]
            assert len(body) % 4 == 0, "data comes in whole nibbles"
            for i in range(0, len(body), 4):
                nibble = body[i] | body[i + 1] << 1 | body[i + 2] << 2 | body[i + 3] << 3
                ram[address + i // 4] = nibble
        else:
            raise AssertionError("unknown mode ID %s" % bits[:3])
    return commands, ram


def sent_bytes(ram, addresses=(10, 8, 6, 4, 2, 0)):
    """The RAM as the bytes a driver sending each byte most significant bit first put there:
    bits 7..4 in D0..D3 of an even address, bits 3..0 in D0..D3 of the next. That is how the
    public drivers of the 6-digit module (5N44P/ht1621-7-seg, hedgehogV/HT1621-lcd,
    luma.lcd) send it; their digits sit at 10 (leftmost) .. 0 (docs/hardware.md)."""
    out = []
    for a in addresses:
        byte = 0
        for nibble in (ram.get(a, 0), ram.get(a + 1, 0)):
            for d in range(4):
                byte = (byte << 1) | ((nibble >> d) & 1)
        out.append(byte)
    return out


def make_ht1621():
    machine.clear()
    lcd = HT1621(machine.Pin("CS", machine.Pin.OUT), machine.Pin("WR", machine.Pin.OUT),
                 machine.Pin("DATA", machine.Pin.OUT))
    return lcd


def test_ht1621_starts_the_controller_with_the_datasheet_commands():
    make_ht1621()
    commands, ram = parse_ht1621(ht1621_frames(machine.trace))
    # "Command Summary": BIAS 1/3 4 COM, RC 256K, TIMER DIS, WDT DIS, TONE OFF, SYS EN; no
    # LCD ON yet: the RAM holds whatever it powered up with (B1: the first picture is "0")
    assert commands == [0x29, 0x18, 0x04, 0x05, 0x08, 0x01]
    assert ram == {}


def test_ht1621_lights_the_glass_only_after_the_first_picture():
    # The glass shows nothing before the unit's first picture is in the RAM.
    lcd = make_ht1621()
    lcd.show_patterns([0, 0, 0, 0, 0x3F], False, False)
    seq = ht1621_sequence(machine.trace)
    lit = [i for i, f in enumerate(seq) if f == ("cmd", 0x03)]
    writes = [i for i, f in enumerate(seq) if f[0] == "write"]
    assert writes and lit and lit[0] > writes[0], seq


def test_ht1621_shows_14_995_with_M():
    lcd = make_ht1621()
    machine.clear()
    lcd.show_patterns(segments.cells("14.995"), False, True)
    commands, ram = parse_ht1621(ht1621_frames(machine.trace))
    assert commands == [0x03]  # the first picture, then the glass lit
    # The module's digit byte, as 5N44P's print() table has it: mark c b a d e g f (bit 7 ..
    # bit 0). Left to right: the annunciator's M (a b c e f), then 1, 4, 9, 9, 5; the point
    # after the 4 is the mark of the digit after it (the glass's points sit before digits 3-5).
    assert sorted(ram) == list(range(12))
    assert sent_bytes(ram) == [0x75, 0x60, 0x63, 0x7B | 0x80, 0x7B, 0x5B]


def test_ht1621_k_annunciator_and_blank_cells():
    lcd = make_ht1621()
    machine.clear()
    lcd.show_patterns(segments.cells("100"), True, False)
    _, ram = parse_ht1621(ht1621_frames(machine.trace))
    # k (a c e f g) on the leftmost digit, two blank cells, then 1 0 0
    assert sent_bytes(ram) == [0x57, 0, 0, 0x60, 0x7D, 0x7D]


def test_ht1621_writes_only_changes_and_powers_down():
    lcd = make_ht1621()
    lcd.show_patterns(segments.cells("15"), False, True)
    machine.clear()
    lcd.show_patterns(segments.cells("15"), False, True)
    assert ht1621_frames(machine.trace) == []
    lcd.off()
    commands, _ = parse_ht1621(ht1621_frames(machine.trace))
    assert commands == [0x02, 0x00]  # LCD OFF, SYS DIS: the sub-microamp power-down
    machine.clear()
    lcd.show_patterns(segments.cells("15"), False, True)
    commands, ram = parse_ht1621(ht1621_frames(machine.trace))
    assert commands[-2:] == [0x01, 0x03] and len(ram) == 12  # back on, redrawn in full


# -- TM1637 ---------------------------------------------------------------------------------


def tm1637_frames(trace, clk="CLK", dio="DIO"):
    """Decode start .. stop frames into bytes (TM1637 datasheet, "Interface interpretation").

    Start: DIO falls while CLK is high; stop: DIO rises while CLK is high. A bit is read on
    each CLK rising edge, LSB first; every ninth clock is the ACK slot. Returns
    [(bytes, acked-flags)], the stop condition's own clock edge dropped.
    """
    level = {clk: 1, dio: 1}
    frames = []
    bits = None
    for pin, v in trace:
        if pin not in level:
            continue
        old = level[pin]
        level[pin] = v
        if pin == dio and level[clk] == 1 and old == 1 and v == 0:
            bits = []
        elif pin == dio and level[clk] == 1 and old == 0 and v == 1 and bits is not None:
            assert len(bits) % 9 == 1, "a frame is whole bytes, then the stop clock"
            out = []
            for i in range(0, len(bits) - 1, 9):
                byte = 0
                for j in range(8):
                    byte |= bits[i + j] << j
                out.append(byte)
            frames.append(out)
            bits = None
        elif pin == clk and old == 0 and v == 1 and bits is not None:
            bits.append(level[dio])
    return frames


def make_tm1637():
    machine.clear()
    clk = machine.Pin("CLK", machine.Pin.OUT)
    dio = machine.Pin("DIO", machine.Pin.OPEN_DRAIN)
    state = {"clocks": 0}

    def chip_pulls_ack():
        # The chip drives DIO low during the ninth clock of each byte: count CLK rising edges
        # since the last start condition in the trace.
        count = 0
        c = d = 1
        for pin, v in machine.trace:
            if pin == "CLK":
                if c == 0 and v == 1:
                    count += 1
                c = v
            elif pin == "DIO":
                if c == 1 and d == 1 and v == 0:
                    count = 0
                d = v
        state["clocks"] = count
        return 0 if count and count % 9 == 0 and c == 1 else d

    dio.reader = chip_pulls_ack
    return TM1637(clk, dio)


def test_tm1637_shows_14_995_with_M():
    led = make_tm1637()
    machine.clear()
    led.show_patterns(segments.cells("14.995"), False, True)
    frames = tm1637_frames(machine.trace)
    # "Data command setting" 0x40 (write, auto-increment); "Address command setting" 0xC0 and
    # six grid bytes (SEG1..SEG8 = bit 0..7 = a..g, dp); "Display control" 0x88 | brightness.
    # Grids run 2 1 0 5 4 3 from the left on the 6-digit module: 1, 4., 9, 9, 5, M.
    assert frames == [
        [0x40],
        [0xC0, 0x6F, 0xE6, 0x06, 0x37, 0x6D, 0x6F],
        [0x88 | 2],
    ]


def test_tm1637_off_and_no_rewrite():
    led = make_tm1637()
    led.show_patterns(segments.cells("0"), False, False)
    machine.clear()
    led.show_patterns(segments.cells("0"), False, False)
    assert tm1637_frames(machine.trace) == []
    led.off()
    assert tm1637_frames(machine.trace) == [[0x80]]


# -- waking ---------------------------------------------------------------


def ht1621_sequence(trace):
    """Each frame in order: ('cmd', code) or ('write', {address: nibble})."""
    out = []
    for bits in ht1621_frames(trace):
        commands, ram = parse_ht1621([bits])
        out.append(("cmd", commands[0]) if commands else ("write", ram))
    return out


def test_ht1621_wakes_with_the_new_picture_before_lcd_on():
    # B16: switched off at one balance, woken at another. SYS DIS keeps the RAM, so an LCD ON
    # before the write would show the old balance until the new picture is in.
    lcd = make_ht1621()
    lcd.show_patterns(segments.cells("1500"), False, True)
    lcd.off()
    machine.clear()
    lcd.show_patterns(segments.cells("200"), True, False)
    seq = ht1621_sequence(machine.trace)
    writes = [i for i, f in enumerate(seq) if f[0] == "write"]
    lit = [i for i, f in enumerate(seq) if f == ("cmd", 0x03)]
    assert writes and lit == [len(seq) - 1], seq  # LCD ON once, last
    assert writes[-1] < lit[0]
    fresh = make_ht1621()
    machine.clear()
    fresh.show_patterns(segments.cells("200"), True, False)
    _, want = parse_ht1621(ht1621_frames(machine.trace))
    ram = {}
    for i in writes:
        ram.update(seq[i][1])
    assert ram == want  # what is lit is the new picture, every cell of it


def test_ht1621_switches_off_dark_before_powering_down():
    lcd = make_ht1621()
    lcd.show_patterns(segments.cells("1500"), False, True)
    machine.clear()
    lcd.off()
    assert ht1621_sequence(machine.trace) == [("cmd", 0x02), ("cmd", 0x00)]  # LCD OFF, SYS DIS
    machine.clear()
    lcd.off()  # twice (a blank while dark): still dark, nothing lit
    assert ("cmd", 0x03) not in ht1621_sequence(machine.trace)


def test_tm1637_wakes_with_the_new_picture_before_display_on():
    led = make_tm1637()
    led.show_patterns(segments.cells("1500"), False, True)
    led.off()
    machine.clear()
    led.show_patterns(segments.cells("200"), True, False)
    frames = tm1637_frames(machine.trace)
    on = [i for i, f in enumerate(frames) if f[0] & 0xF8 == 0x88]
    grids = [i for i, f in enumerate(frames) if f[0] & 0xF0 == 0xC0]
    assert on == [len(frames) - 1] and grids and grids[-1] < on[0], frames
    fresh = make_tm1637()
    machine.clear()
    fresh.show_patterns(segments.cells("200"), True, False)
    assert frames == tm1637_frames(machine.trace)  # the whole new picture, then on


# -- only what changed ------------------------------------------------


def test_ht1621_sends_only_the_cells_that_changed():
    # 1500 -> 1750: two cells in the middle change. One successive-address write carries them,
    # and the chip's RAM then holds exactly the picture a full write of 1750 gives.
    lcd = make_ht1621()
    lcd.show_patterns(segments.cells("1500"), True, False)
    _, before = parse_ht1621(ht1621_frames(machine.trace))
    machine.clear()
    lcd.show_patterns(segments.cells("1750"), True, False)
    frames = ht1621_frames(machine.trace)
    _, changed = parse_ht1621(frames)
    fresh = make_ht1621()
    machine.clear()
    fresh.show_patterns(segments.cells("1750"), True, False)
    _, want = parse_ht1621(ht1621_frames(machine.trace))
    differ = [a for a in want if want[a] != before[a]]
    assert len(frames) == 1 and differ
    # from the byte (two addresses) of the first difference to that of the last, no further
    assert sorted(changed) == list(range(min(differ) // 2 * 2, max(differ) // 2 * 2 + 2))
    assert len(changed) < len(want)
    before.update(changed)
    assert before == want


def test_ht1621_data_line_moves_only_when_the_bit_does():
    # DATA is written only where the bit changes (the chip reads it at WR's rising edge):
    # fewer calls per bit, which is most of the time from a key to its digit.
    lcd = make_ht1621()
    lcd.show_patterns(segments.cells("1500"), True, False)
    machine.clear()
    lcd.show_patterns(segments.cells("1750"), True, False)
    bits = ht1621_frames(machine.trace)[0]
    flips = len([i for i in range(1, len(bits)) if bits[i] != bits[i - 1]])
    data_writes = len([1 for pin, _ in machine.trace if pin == "DATA"])
    assert data_writes <= flips + 1, (data_writes, flips)


def test_tm1637_sends_only_the_grids_that_changed():
    led = make_tm1637()
    led.show_patterns(segments.cells("1500"), True, False)
    machine.clear()
    led.show_patterns(segments.cells("1501"), True, False)  # the rightmost cell: grid 3
    frames = tm1637_frames(machine.trace)
    grid = led.grid_order[4]
    assert len(frames) == 2 and frames[0] == [0x40], frames  # no display-on again: it is on
    assert frames[1][0] == 0xC0 | grid and len(frames[1]) == 2, frames  # that grid alone
    fresh = make_tm1637()
    machine.clear()
    fresh.show_patterns(segments.cells("1501"), True, False)
    full = tm1637_frames(machine.trace)[1]
    assert frames[1][1] == full[1 + grid]  # the byte a full write puts there
