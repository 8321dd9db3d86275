"""The RFID build's card slots: the firmware's MFRC522 driver and tag slot
(board/drivers/mfrc522.py, tags.py) on an MFRC522 emulated from its datasheet
(simulator/pico/rfid.py), with the tags a player holds (simulator/pico/cards.py): MIFARE
Classic cards and fobs as RC522 modules ship with, and NTAG213 stickers (B3's card in and out,
read from a tag numbered in maintenance)."""

import pytest

from simulator.pico.cards import ClassicTag, NtagTag, crc_a, tag_box
from simulator.pico.desk import Desk

T = 0  # the ticks a test gives the slot


@pytest.fixture
def desk():
    d = Desk()
    assert d.slot.start() == 0x92  # VersionReg: an MFRC522 answers
    return d


def look(desk, ms=100):
    """The slot's next look, ms after the last (the tag lies there in the meantime)."""
    global T
    T += ms
    desk.pause(ms)
    return desk.slot.poll(T)


def test_crc_a_is_the_standards():
    # ISO/IEC 14443-3 Annex B: HLTA is sent 50 00 57 CD; 00 00 gives A0 1E
    assert crc_a(b"\x50\x00") == b"\x57\xcd"
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"


@pytest.mark.parametrize("kind", ["classic", "ntag"])
def test_a_new_tag_reads_as_an_unknown_card_once_then_its_number_once_written(desk, kind):
    tag = tag_box()[1 if kind == "classic" else 5]
    desk.chip.place(tag)
    assert look(desk) == ("unknown", None)  # said once ...
    assert look(desk) is None and look(desk) is None  # ... while it stays
    assert desk.slot.card is None
    assert desk.slot.write(4) is None
    assert look(desk) == ("in", 4)  # B3: the card it now is
    assert look(desk) is None and desk.slot.card == 4
    desk.chip.take(tag)
    assert look(desk) is None  # one look without it: a card at the edge of the field
    assert look(desk) == ("out", None)


def test_what_is_written_is_the_number_and_its_complement_behind_a_magic(desk):
    box = tag_box()
    desk.chip.place(box[2])
    look(desk)
    assert desk.slot.write(6) is None
    assert bytes(box[2].blocks[4][:6]) == b"BANK\x06\xf9"
    desk.chip.take(box[2])
    desk.chip.place(box[6])
    look(desk)
    assert desk.slot.write(6) is None
    assert bytes(box[6].memory[16:24]) == b"BANK\x06\xf9\x00\x00"


def test_a_tag_whose_number_is_damaged_is_no_card(desk):
    tag = tag_box()[3]
    desk.chip.place(tag)
    look(desk)
    desk.slot.write(3)
    tag.blocks[4][5] ^= 0x01  # the complement no longer matches
    desk.chip.take(tag)
    look(desk)
    look(desk)
    desk.chip.place(tag)
    assert look(desk) == ("unknown", None)


def test_a_card_renumbered_on_the_reader_goes_out_then_comes_in_as_its_new_number(desk):
    tag = tag_box()[1]
    desk.chip.place(tag)
    look(desk)
    desk.slot.write(2)
    assert look(desk) == ("in", 2)
    assert desk.slot.write(5) is None
    assert look(desk) == ("out", None)  # never two cards at once (B3)
    assert look(desk) == ("in", 5)


def test_writing_with_no_tag_or_on_a_tag_of_other_keys_is_refused_and_changes_nothing(desk):
    assert desk.slot.write(3) == "no-tag"
    locked = ClassicTag(b"\x01\x02\x03\x04", key=b"\x12\x34\x56\x78\x9a\xbc")
    desk.chip.place(locked)
    assert look(desk) == ("unknown", None)
    assert desk.slot.write(3) == "not-writable"
    assert bytes(locked.blocks[4]) == bytes(16)
    assert desk.slot.write(7) == "bad-argument"


def test_two_tags_on_one_reader_read_as_none(desk):
    box = tag_box()
    for n in (1, 2):
        desk.chip.place(box[n])
        look(desk)
        desk.slot.write(n)
        look(desk)
        desk.chip.take(box[n])
        look(desk)
        look(desk)
    desk.chip.place(box[1])
    desk.chip.place(box[2])
    assert look(desk) is None and look(desk) is None and desk.slot.card is None
    desk.chip.take(box[2])
    assert look(desk) == ("in", 1)


def two_readers():
    """Two readers, one desk each, sharing one time (a tag may lie in both fields)."""
    left = Desk()
    right = Desk(beside=left)
    for d in (left, right):
        d.slot.start()
    left.slot.rival, right.slot.rival = right.slot, left.slot
    return left, right


def both_look(left, right, ticks):
    """Each reader's look at each of ticks, 50 ms apart: [(slot name, poll's), ...]."""
    got = []
    for t in ticks:
        left.pause(50)
        got.append(("L", left.slot.poll(t)))
        left.pause(50)
        got.append(("R", right.slot.poll(t)))
    return got


def test_a_card_near_both_readers_is_read_by_one_only():
    # The first to read it keeps it.
    left, right = two_readers()
    tag = NtagTag(b"\x04\x11\x22\x33\x44\x55\x66")
    left.chip.place(tag)
    left.pause(5)
    left.slot.poll(0)
    assert left.slot.write(3) is None
    right.chip.place(tag)  # now near both
    got = both_look(left, right, range(100, 1000, 100))
    assert ("L", ("in", 3)) in got
    assert [g for g in got if g[0] == "R" and g[1] is not None] == []
    assert right.slot.card is None and left.slot.card == 3


def test_resting_the_field_is_off_and_a_look_still_finds_a_card(desk):
    tag = tag_box()[4]
    desk.chip.place(tag)
    look(desk)
    desk.slot.write(4)
    assert look(desk) == ("in", 4)
    desk.slot.rest()
    assert not desk.chip.field_on()
    desk.chip.take(tag)
    assert look(desk, 1000) is None  # switched off, a look a second
    assert look(desk, 1000) == ("out", None)
    desk.chip.place(tag)
    assert look(desk, 1000) == ("in", 4)  # the field on for a look: the card powers up
    assert not desk.chip.field_on()
    desk.slot.wake()
    assert desk.chip.field_on()


def test_no_chip_answering_gives_no_slot():
    d = Desk()
    d.chip.nrstpd = False  # RST low, or the module not wired: nothing answers on MISO
    assert d.slot.start() == 0
    assert not d.slot.due(0) and d.slot.deadline() is None and d.slot.poll(0) is None


@pytest.mark.parametrize("card, sent", [
    (1, [b"\x52", b"\x93\x20", b"\x50\x00\x57\xcd"]),  # a 4-byte UID: found again whole
    (6, [b"\x52", b"\x93\x20", b"\x93\x70", b"\x95\x20", b"\x95\x70",
         b"\x50\x00\x57\xcd"])])  # a 7-byte one: selected, for all of it
def test_a_look_at_the_card_already_read_reads_no_block_again(desk, card, sent):
    # WUPA, anticollision (and SELECT where the first part is not the whole UID) and HLTA: no
    # read, so a key pressed meanwhile waits less
    tag = tag_box()[card]
    desk.chip.place(tag)
    look(desk)
    desk.slot.write(card)
    assert look(desk) == ("in", card)
    before = len(desk.chip.frames)
    t0 = desk.now_us()
    assert look(desk, 0) is None and desk.slot.card == card
    got = [bytes(f)[:2] if bytes(f)[1:2] == b"\x70" else bytes(f)
           for _, f, _ in desk.chip.frames[before:]]
    assert got == sent
    assert desk.now_us() - t0 < (1500 if len(sent) == 3 else 6000)  # us of the desk's SPI time


def test_two_stickers_alike_in_their_first_three_uid_bytes_are_told_apart(desk):
    # B3: one roll of NTAG stickers shares the bytes a 7-byte UID's first cascade level gives.
    five = NtagTag(b"\x04\x50\x22\x11\x12\x13\x14")
    six = NtagTag(b"\x04\x50\x22\x99\x88\x77\x01")
    for tag, n in ((five, 5), (six, 6)):
        desk.chip.place(tag)
        look(desk)
        assert desk.slot.write(n) is None
        look(desk)
        desk.chip.take(tag)
        look(desk)
        look(desk)
    desk.chip.place(five)
    assert look(desk) == ("in", 5)
    desk.chip.take(five)
    look(desk, 50)  # one look without a tag: not yet out
    desk.chip.place(six)  # swapped in its place
    assert look(desk) == ("out", None)
    assert look(desk) == ("in", 6)


def test_a_tag_numbered_as_the_card_on_the_other_reader_is_refused_then_taken_once_it_goes():
    # Two tags numbered 3 (B3: a card already in the other slot is card-in-use): the second
    # is said once, and comes in once the first is out, as a card moved across would.
    left, right = two_readers()
    box = tag_box()
    one, two = box[1], box[2]
    for tag in (one, two):
        left.chip.place(tag)
        left.pause(5)
        left.slot.poll(0)
        assert left.slot.write(3) is None
        left.chip.take(tag)
        for t in (100, 200, 300):
            left.pause(100)
            left.slot.poll(t)
    left.chip.place(one)
    right.chip.place(two)
    got = both_look(left, right, range(400, 1000, 100))
    assert [g for g in got if g[1] is not None] == [("L", ("in", 3)), ("R", ("unknown", 3))]
    assert right.slot.card is None
    left.chip.take(one)
    got = both_look(left, right, range(1000, 1500, 100))
    assert [g for g in got if g[1] is not None] == [("L", ("out", None)), ("R", ("in", 3))]
