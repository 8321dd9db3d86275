"""The RFID build's cards in the core: a tag with no number is an unknown card, refused (B3's
card in, B18's error tone), and in maintenance a card number typed then DEAL, or a host's
WRITECARD, numbers the tag on a reader (docs/hardware.md, "RFID card slots";
docs/protocol-extensions.md). The writer is what startup.py hands in from the board."""

from harness import Rig, proto_rig


class Writer:
    def __init__(self, err=None):
        self.err = err
        self.calls = []

    def __call__(self, slot, card):
        self.calls.append((slot, card))
        return self.err


def rfid_rig(err=None, maintenance=True):
    r = Rig()
    w = r.unit.card_writer = Writer(err)
    if maintenance:
        r.hold("DEAL", 3000)
        assert r.unit.maintenance
    r.take_tones()
    return r, w


def test_in_maintenance_a_number_then_deal_numbers_the_tag_on_the_left_reader():
    r, w = rfid_rig()
    r.press("3", "DEAL")
    assert w.calls == [("L", 3)]
    assert r.unit.entry == "" and r.unit.error is None
    assert r.unit.deal_phase() == "idle"  # no deal started
    assert r.take_tones() == ["click", "click"]


def test_a_failed_write_is_refused_and_the_number_stays_typed():
    r, w = rfid_rig("no-tag")
    r.press("5", "DEAL")
    assert w.calls == [("L", 5)]
    assert r.unit.error == "no-tag" and r.unit.entry == "5"
    assert r.take_tones() == ["click", "error"]


def test_a_number_that_is_no_card_writes_nothing():
    r, w = rfid_rig()
    r.press("7", "DEAL")
    r.press("C", "1", "2", "DEAL")
    assert w.calls == [] and r.unit.error == "bad-entry" and r.unit.entry == "12"


def test_b13_out_of_maintenance_deal_is_the_deal_timer_with_a_number_typed():
    r, w = rfid_rig(maintenance=False)
    r.insert("L", 1)
    r.advance(1000).press("3", "DEAL")
    assert w.calls == [] and r.unit.deal_phase() == "running" and r.unit.entry == "3"


def test_b13_a_unit_that_writes_no_cards_runs_the_deal_in_maintenance_as_before():
    r = Rig()
    r.hold("DEAL", 3000)
    r.press("3", "DEAL")
    assert r.unit.deal_phase() == "running" and r.unit.entry == "3"


def test_b3_an_unknown_tag_is_refused_and_the_slot_stays_empty():
    r = Rig()
    r.insert("R", 2)
    r.advance(1000).take_tones()
    assert r.unit.tag_refused("L", r.clock.now()) == "unknown-card"
    assert r.unit.slots == {"L": None, "R": 2}
    assert r.unit.error == "unknown-card" and r.take_tones() == ["error"]


def test_b3_a_tag_numbered_as_the_card_in_the_other_slot_is_refused_card_in_use():
    r = Rig()
    r.insert("R", 2)
    r.advance(1000).take_tones()
    assert r.unit.tag_refused("L", r.clock.now(), 2) == "card-in-use"
    assert r.unit.slots == {"L": None, "R": 2}
    assert r.unit.error == "card-in-use" and r.take_tones() == ["error"]


def test_b16_an_unknown_tag_wakes_a_unit_switched_off():
    r = Rig()
    r.advance(60000)
    assert not r.unit.power
    r.unit.tag_refused("L", r.clock.now())
    assert r.unit.power and r.unit.error == "unknown-card"


def test_writecard_needs_a_unit_that_writes_cards_then_maintenance():
    r, p = proto_rig()
    assert p.handle("WRITECARD L 3")[-1].startswith("ERR unsupported ")
    w = r.unit.card_writer = Writer()
    assert p.handle("WRITECARD L 3")[-1].startswith("ERR maintenance-required ")
    assert w.calls == []
    r.hold("DEAL", 3000)
    assert p.handle("WRITECARD r 4")[-1].startswith("OK {")
    assert w.calls == [("R", 4)]


def test_writecard_refusals_say_why_and_write_nothing():
    r, p = proto_rig()
    w = r.unit.card_writer = Writer("no-tag")
    r.hold("DEAL", 3000)
    for bad in ("WRITECARD", "WRITECARD L", "WRITECARD X 3", "WRITECARD L 0", "WRITECARD L 7",
                "WRITECARD L 3 4", "WRITECARD L three"):
        assert p.handle(bad)[-1] == "ERR bad-argument WRITECARD <L|R> <1-6>", bad
    assert w.calls == []
    assert p.handle("WRITECARD L 2")[-1] == (
        "ERR no-tag no tag answers on that reader: hold the card flat on it")
    assert '"error": "no-tag"' in p.handle("STATE")[-1]


def test_b3_a_tag_is_not_numbered_as_the_card_on_the_other_reader():
    r, p = proto_rig()
    w = r.unit.card_writer = Writer()
    r.hold("DEAL", 3000)
    r.insert("R", 3)
    r.advance(1000).take_tones()
    r.press("3", "DEAL")
    assert w.calls == [] and r.unit.error == "card-in-use" and r.unit.entry == "3"
    assert r.take_tones() == ["click", "error"]
    r.press("C", "4", "DEAL")
    assert w.calls == [("L", 4)] and r.unit.error is None
    assert p.handle("WRITECARD L 3")[-1] == ("ERR card-in-use that card is on the other reader:"
                                             " two tags of one number are one card")
    assert p.handle("WRITECARD R 3")[-1].startswith("OK {")  # the tag there is card 3 again
    assert w.calls == [("L", 4), ("R", 3)]


def test_b17_a_hosts_writecard_is_no_key_and_damage_stays_reported():
    r, p = proto_rig()
    w = r.unit.card_writer = Writer()
    r.hold("DEAL", 3000)  # maintenance, entered at the unit
    r.unit.store_damaged()  # found since: the banker has not seen it
    for err in (None, "no-tag"):
        w.err = err
        p.handle("WRITECARD L 3")
        assert '"error": "store-damaged"' in p.handle("STATE")[-1], err
    assert w.calls == [("L", 3), ("L", 3)]
