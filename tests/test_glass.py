"""The display glass as a player sees it (B1, B8, B12, B17), from the chips' datasheets and the
display modules' wiring as public evidence shows it (docs/hardware.md, "The glass map:
evidence").

Two halves:
- the glass model (simulator/pico/glass.py) reads what the public drivers of the same modules send
  as what those drivers' authors photographed or documented: the model is tied to the evidence;
- the firmware's own drivers, driven through recording pins, decoded as the datasheets say, read
  through the same glass: a wrong map in firmware/ fails here.
"""

from board import pico as board
from brain import money
from brain import profiles
import pytest
from board import segments
from brain import unit
from board.drivers.ht1621 import HT1621
from board.drivers.tm1637 import TM1637

from simulator.pico.glass import HT1621Glass, TM1637Glass, looks, read

WORLD = profiles.PROFILES["world"]
FRANCS = profiles.PROFILES["francs"]


# -- the buses, decoded as the datasheets define them ----------------------------------------


class Wire:
    """Recording pins: every level written, in order, as (name, level)."""

    def __init__(self):
        self.events = []

    def pin(self, name):
        wire = self

        class Pin:
            def value(self, v=None):
                if v is None:
                    return 0  # read back: a TM1637 pulling DIO low for its ACK
                wire.events.append((name, 1 if v else 0))

        return Pin()


def ht1621_frames(events):
    """The bits clocked in during each CS-low frame: DATA as it is on each rising edge of WR
    (HT1621 datasheet, "Timing Diagrams", WRITE mode)."""
    level = {"CS": 1, "WR": 1, "DATA": 1}
    frames, bits = [], None
    for pin, v in events:
        old, level[pin] = level[pin], v
        if pin == "CS" and old and not v:
            bits = []
        elif pin == "CS" and not old and v:
            frames.append(bits)
            bits = None
        elif pin == "WR" and not old and v and bits is not None:
            bits.append(level["DATA"])
    return frames


def ht1621_ram(frames, ram=None):
    """The HT1621's 32 x 4 RAM after these frames (datasheet, "Command Summary" and "WRITE
    Mode (Successive Address Writing)"): ID 101, address A5..A0, then D0 D1 D2 D3 for that
    address and each next one. A command frame (ID 100) leaves the RAM alone; a trailing part
    of a nibble writes nothing."""
    ram = [0] * 32 if ram is None else ram
    for bits in frames:
        mode = bits[0] << 2 | bits[1] << 1 | bits[2]
        if mode == 0b100:
            continue
        assert mode == 0b101, "only WRITE and COMMAND frames are expected, got %s" % bits[:3]
        address = 0
        for b in bits[3:9]:
            address = address << 1 | b
        data = bits[9:]
        for i in range(len(data) // 4):
            d0, d1, d2, d3 = data[4 * i: 4 * i + 4]
            ram[(address + i) % 32] = d0 | d1 << 1 | d2 << 2 | d3 << 3
    return ram


def tm1637_grids(events, grids=None):
    """The TM1637's six display registers after these frames (TM1637 datasheet, "Interface
    interpretation": start = DIO falls while CLK is high, stop = DIO rises while CLK is high,
    bits LSB first on CLK rising edges, a ninth ACK clock per byte; "Data command setting"
    0x40 then "Address command setting" 0xC0 | address and data, auto-increment)."""
    grids = [0] * 6 if grids is None else grids
    level = {"CLK": 1, "DIO": 1}
    frames, bits = [], None
    for pin, v in events:
        old, level[pin] = level[pin], v
        if pin == "DIO" and level["CLK"] and old and not v:
            bits = []
        elif pin == "DIO" and level["CLK"] and not old and v and bits is not None:
            frames.append([sum(bits[i + j] << j for j in range(8))
                           for i in range(0, len(bits) - 8, 9)])
            bits = None
        elif pin == "CLK" and not old and v and bits is not None:
            bits.append(level["DIO"])
    auto_increment = False
    for frame in frames:
        if frame[0] & 0xC0 == 0x40:
            auto_increment = frame[0] == 0x40
        elif frame[0] & 0xC0 == 0xC0:
            assert auto_increment, "grid data without the 0x40 data command"
            for i, byte in enumerate(frame[1:]):
                grids[(frame[0] & 0x0F) + i] = byte
    return grids


# -- what the public drivers send, bit by bit, and what their authors saw ---------------------


def msb_first(value, count):
    return [value >> (count - 1 - i) & 1 for i in range(count)]


# 5N44P/ht1621-7-seg src/HT1621.cpp print(): the module's byte of each digit (lines 220-251),
# the same in anxzhu/segment-lcd-with-ht1621 and chicory-ru/PDC-6X1_HT1621's `abc`.
DRIVER_DIGITS = {" ": 0x00, "0": 0x7D, "1": 0x60, "2": 0x3E, "3": 0x7A, "4": 0x63, "5": 0x5B,
                 "6": 0x5F, "7": 0x70, "8": 0x7F, "9": 0x7B, "-": 0x02}


def anxzhu_update(buffer):
    """anxzhu's and 5N44P's update(): wrone(0, _buffer[5]) .. wrone(10, _buffer[0]), where
    wrone(addr, sdata) is CS low, wrDATA(0xa0, 3), wrDATA(addr << 2, 6), wrDATA(sdata, 8), CS
    high, and wrDATA sends the top `cnt` bits of its byte, most significant first (5N44P
    src/HT1621.cpp lines 72-117, 182-191)."""
    return [[1, 0, 1] + msb_first(address, 6) + msb_first(buffer[5 - address // 2], 8)
            for address in (0, 2, 4, 6, 8, 10)]


def anxzhu_print(text, decimals=0, battery=0):
    """5N44P's print(long) of a 6-character field, then setdecimalseparator(decimals)
    (`_buffer[6 - decimals] |= 0x80`) and setBatteryLevel(battery) (`_buffer[0..2]`)."""
    buffer = [DRIVER_DIGITS[ch] for ch in text]
    if 1 <= decimals <= 3:
        buffer[6 - decimals] |= 0x80
    for i in range(battery):
        buffer[2 - i] |= 0x80
    return anxzhu_update(buffer)


def test_anxzhu_s_123456_reads_123456():
    glass = HT1621Glass(ht1621_ram(anxzhu_print("123456")))
    assert glass.reading() == "123456"
    assert glass.marks() == [] and glass.unused_lit() == []


def test_5n44p_s_photo_163_673_reads_with_its_point():
    # 5N44P extras/photo.jpg: print(163.673, 3) shows 163.673, the point between 3 and 6.
    glass = HT1621Glass(ht1621_ram(anxzhu_print("163673", decimals=3)))
    assert glass.reading() == "163.673"
    glass = HT1621Glass(ht1621_ram(anxzhu_print("-12345", decimals=1)))
    assert glass.reading() == "-1234.5"


def test_the_first_three_digits_marks_are_the_battery_bars():
    glass = HT1621Glass(ht1621_ram(anxzhu_print("      ", battery=3)))
    assert glass.marks() == ["battery top", "battery middle", "battery bottom"]
    assert glass.reading() == "      "
    glass = HT1621Glass(ht1621_ram(anxzhu_print("      ", battery=1)))
    assert glass.marks() == ["battery bottom"]  # level 1: the symbol and its lowest bar


def test_hedgehogv_s_photo_abcdef_reads_abcdef():
    # hedgehogV/HT1621-lcd extras/photo1.jpg shows "AbCdEF" for print("ABCDEF"): wrBuffer()
    # sends one frame, 101, address 0, then buffer[5] .. buffer[0] each most significant bit
    # first (its tDataSeq, byte-reversed), then 7 padding bits. ascii[] codes, line 81.
    codes = {"A": 0x77, "B": 0x4F, "C": 0x1D, "D": 0x6E, "E": 0x1F, "F": 0x17}
    buffer = [codes[ch] for ch in "ABCDEF"]
    bits = [1, 0, 1] + [0] * 6
    for byte in reversed(buffer):
        bits += msb_first(byte, 8)
    glass = HT1621Glass(ht1621_ram([bits + [0] * 7]))
    assert glass.reading() == "AbCdEF"


def test_luma_lcd_s_hello_reads_hello():
    # rm-hull/luma.lcd tests/test_ht1621.py test_display: sevensegment(...).text = "HELLO"
    # sends these six bytes from address 0 (ht1621.data(): 101, 000000, bytes MSB first).
    bits = [1, 0, 1] + [0] * 6
    for byte in (0, 125, 13, 13, 31, 103):
        bits += msb_first(byte, 8)
    assert HT1621Glass(ht1621_ram([bits])).reading() == looks("HELLO ") == "HELL0 "


def test_mcauser_s_six_digit_tm1637_example_reads_as_its_comments_say():
    # mcauser/micropython-tm1637 examples/robotdyn-6-digit-decimal/test.py: "0 1 2 3 4 5" into
    # grids 0..5 shows "210543"; reordered 2 1 0 5 4 3 it shows "012345".
    data = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D]
    assert TM1637Glass(data).reading() == "210543"
    swapped = [data[2], data[1], data[0], data[5], data[4], data[3]]
    assert TM1637Glass(swapped).reading() == "012345"


def test_tinydisplay6_s_first_dot_is_after_the_leftmost_digit():
    # jasonacox/TM1637TinyDisplay6.h: dots 0b10000000 shows "0.00000"; showDots() ORs 0x80
    # into the leftmost digit's byte, which goes to grid digitmap[0] = 2.
    grids = [0x3F] * 6
    grids[2] |= 0x80
    assert TM1637Glass(grids).reading() == "0.00000"


def test_a_pattern_no_one_reads_as_a_character_is_a_question_mark():
    assert read("abg") == "?" and read("") == " " and read("gfedcba") == "8"
    with pytest.raises(ValueError):
        HT1621Glass([0] * 31)


# -- the firmware's drivers through the glass ------------------------------------------------


def ht1621_sees(*shows):
    """The HT1621 glass after the firmware's board showed each (text, k, M) in turn."""
    wire = Wire()
    lcd = HT1621(wire.pin("CS"), wire.pin("WR"), wire.pin("DATA"))
    body = board.PicoBoard(lcd, None, None, None, None)
    for text, k, M in shows:
        body.show(text, k, M)
    return HT1621Glass(ht1621_ram(ht1621_frames(wire.events)))


def tm1637_sees(*shows):
    wire = Wire()
    led = TM1637(wire.pin("CLK"), wire.pin("DIO"))
    body = board.PicoBoard(led, None, None, None, None)
    for text, k, M in shows:
        body.show(text, k, M)
    return TM1637Glass(tm1637_grids(wire.events))


SEEN = [
    # (what the unit shows, the text and annunciator a player reads)
    (("0", False, False), "0", ""),  # boot, a zero balance (B1)
    (money.fmt(15000000, WORLD), "15", "M"),  # B1
    (money.fmt(14995000, WORLD), "14.995", "M"),
    (money.fmt(2500000, WORLD), "2.5", "M"),
    (money.fmt(123456000, WORLD), "123.45", "M"),
    (money.fmt(1995000, WORLD), "1.995", "M"),
    (money.fmt(100000, WORLD), "100", "k"),
    (money.fmt(10000, WORLD), "10", "k"),
    (money.fmt(99999, profiles.PROFILES["classic"]), "99999", ""),
    (money.fmt(1234567, profiles.PROFILES["classic"]), "1234.5", "k"),
    (money.OVERFLOW, "-----", "M"),
    (unit.SHOW_FUNDS, looks("Err1"), ""),  # B8
    (unit.SHOW_STORE, looks("Err5"), ""),  # B17
    (unit.SHOW_NO_GAME, looks("Err6"), ""),  # B17
    (("SErv", False, False), looks("SErv"), ""),  # B12/B17 maintenance
    (("PLAY", False, False), looks("PLAY"), ""),
    ((".5", False, True), ".5", "M"),  # an entry typed so far (B2)
    (("1.5", False, False), "1.5", ""),
]


@pytest.mark.parametrize("shown, text, annunciator", SEEN, ids=[s[0][0] for s in SEEN])
def test_ht1621_glass_shows_what_the_unit_says(shown, text, annunciator):
    glass = ht1621_sees(shown)
    assert (glass.text(), glass.annunciator()) == (text, annunciator)
    assert glass.marks() == [] and glass.unused_lit() == []


@pytest.mark.parametrize("shown, text, annunciator", SEEN, ids=[s[0][0] for s in SEEN])
def test_tm1637_glass_shows_what_the_unit_says(shown, text, annunciator):
    glass = tm1637_sees(shown)
    assert (glass.text(), glass.annunciator()) == (text, annunciator)


def test_ht1621_whole_glass_m_on_the_left_then_the_amount():
    # The annunciator is the leftmost digit: the glass's points are only before its 4th, 5th
    # and 6th digits, which are the points of cells 1, 2 and 3 there (docs/hardware.md).
    assert ht1621_sees(money.fmt(14995000, WORLD)).reading() == "M14.995"
    assert ht1621_sees(money.fmt(100000, WORLD)).reading() == "k  100"
    assert ht1621_sees(("0", False, False)).reading() == "     0"


def test_tm1637_whole_glass_amount_then_m_on_the_right():
    assert tm1637_sees(money.fmt(14995000, WORLD)).reading() == "14.995M"
    assert tm1637_sees(money.fmt(100000, WORLD)).reading() == "  100k"


def test_every_glyph_of_the_unit_reads_as_its_character_in_every_cell():
    for ch in segments.CHARS:
        for cell in range(5):
            text = ch + " " * (4 - cell)
            want = looks(ch) + " " * (4 - cell)
            for glass in (ht1621_sees((text, False, False)), tm1637_sees((text, False, False))):
                assert glass.reading(glass.CELLS) == " " * cell + want, (ch, cell)


def test_a_changed_display_is_redrawn_whole():
    assert ht1621_sees(("88888", False, True), ("1", True, False)).reading() == "k    1"
    assert tm1637_sees(("88888", False, True), ("1", True, False)).reading() == "    1k"


def test_a_point_the_lcd_lacks_moves_the_text_to_the_nearest_it_has_never_a_battery_bar():
    # The francs profile (resolution 100) can show 1,234,500 as 1.2345 M: a point after the
    # first cell, which this glass does not have (docs/hardware.md); the LED module has it.
    # Shown without it, 12345 M read as 12,345 M: the text moves right to the next point and
    # its last digit is cut off, as B1 cuts what does not fit. So does an entry (B2).
    shown = money.fmt(1234500, FRANCS)
    glass = ht1621_sees(shown)
    assert glass.marks() == [] and glass.reading() == "M 1.234"
    assert tm1637_sees(shown).text() == "1.2345"
    assert ht1621_sees(("1.2340", False, True)).reading() == "M 1.234"
    # Nor has it a point after the last cell, where an entry typed "2." puts it (B2): the
    # text moves left, a blank after it, while its first cell is blank; else it is left out.
    assert ht1621_sees(("2.", False, False)).reading() == "    2. "
    assert ht1621_sees((".", False, False)).reading() == "     . "
    assert ht1621_sees(("1234.", False, True)).reading() == "M1234. "
    glass = ht1621_sees(("12345.", False, False))
    assert glass.marks() == [] and glass.reading() == " 12345"
    assert tm1637_sees(("2.", False, False)).text() == "2."
