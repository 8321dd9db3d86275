"""Game night over the protocol (docs/protocol-extensions.md, "Game night"): STATE carries the
pot, the game clock and the count (B19, B20, B22); events carry every change of them, so the
stream alone rebuilds them; SET POT and SET BALANCE POT for host tools; a bankruptcy and the
pot's moves in LOG and BACKUP. In process, on both interpreters (tests/mprun.py)."""

import json

from harness import proto_rig

START = 15000000


def ok(lines):
    assert lines[-1].startswith("OK"), lines
    rest = lines[-1][3:]
    return json.loads(rest) if rest else None


def _events(lines, kind):
    head = "! %s " % kind
    return [json.loads(x[len(head):]) for x in lines if x.startswith(head)]


def _maint():
    r, p = proto_rig()
    r.unit.maintenance = True
    return r, p


def test_state_says_none_of_it_while_it_is_off():
    _, p = proto_rig()
    line = p.handle("STATE")[-1]
    assert line.endswith('"maintenance": false, "pot": null, "clock": null, "count": null}')


def test_set_pot_needs_maintenance_and_state_and_events_say_it_b22():
    r, p = proto_rig()
    assert p.handle("SET POT ON")[-1].startswith("ERR maintenance-required")
    assert not r.unit.ledger.pot_on
    r.unit.maintenance = True
    assert p.handle("SET POT MAYBE")[-1].startswith("ERR bad-argument")
    ok(p.handle("EVENTS ON"))
    out = p.handle("SET POT ON")
    assert _events(out, "pot") == [{"pot": 0}] and ok(out)["pot"] == 0
    ok(p.handle("INSERT R 2"))
    out = p.handle("KEY 1 M +")
    txn = _events(out, "txn")[0]
    assert (txn["kind"], txn["from"], txn["to"], txn["balances"]) == (
        "pot-in", 2, "pot", {"2": START - 1000000, "pot": 1000000})
    assert ok(out)["pot"] == 1000000
    assert p.handle("SET POT OFF")[-1].startswith("ERR pot-not-empty")
    ok(p.handle("REMOVE R"))
    ok(p.handle("INSERT L 4"))
    txn = _events(p.handle("KEY +"), "txn")[0]
    assert (txn["kind"], txn["from"], txn["to"], txn["amount"], txn["balances"]) == (
        "pot-out", "pot", 4, 1000000, {"pot": 0, "4": START + 1000000})
    out = p.handle("SET POT OFF")
    assert _events(out, "pot") == [{"pot": None}] and ok(out)["pot"] is None


def test_the_pot_turned_off_after_a_collection_closes_its_reversal_b10_b22():
    r, p = _maint()
    ok(p.handle("SET POT ON"))
    ok(p.handle("INSERT R 2"))
    ok(p.handle("KEY 1 M +"))
    ok(p.handle("REMOVE R"))
    ok(p.handle("INSERT L 4"))
    ok(p.handle("KEY +"))  # the pot collected: C would put it back
    ok(p.handle("SET POT OFF"))
    state = ok(p.handle("KEY C"))
    assert state["pot"] is None and not r.unit.ledger.pot_on  # no money in a pot that is off
    assert r.unit.ledger.bal[4] == START + 1000000 and r.unit.ledger.bal[7] == 0


def test_set_balance_pot_puts_a_backup_s_pot_back_and_the_pot_is_named_not_numbered_b22():
    r, p = _maint()
    ok(p.handle("SET POT ON"))
    ok(p.handle("EVENTS ON"))
    out = p.handle("SET BALANCE POT 2500000")
    txn = _events(out, "txn")[0]
    assert (txn["kind"], txn["to"], txn["balances"]) == ("set", "pot", {"pot": 2500000})
    assert ok(out)["pot"] == 2500000
    assert p.handle("SET BALANCE 7 0") == [  # world's amounts are 1,000s
        "ERR bad-argument SET BALANCE <1-6|pot> <amount 0-999999999000>"]
    assert r.unit.ledger.bal[7] == 2500000


def test_a_bankruptcy_in_the_log_and_its_event_b21():
    _, p = proto_rig()
    ok(p.handle("INSERT R 3"))
    ok(p.handle("INSERT L 1"))
    ok(p.handle("EVENTS ON"))
    out = p.handle("HOLD - 3000")
    txn = _events(out, "txn")[0]
    assert (txn["kind"], txn["from"], txn["to"], txn["amount"], txn["balances"]) == (
        "bankrupt", 3, 1, START, {"3": 0, "1": 2 * START})
    assert ok(out)["error"] is None
    assert ok(p.handle("HOLD - 3000"))["error"] == "no-balance"  # nothing left to hand over
    log = ok(p.handle("LOG"))
    assert [t["kind"] for t in log] == ["bankrupt"]
    ok(p.handle("REMOVE L"))
    ok(p.handle("REMOVE R"))
    ok(p.handle("INSERT R 1"))
    st = ok(p.handle("HOLD - 2999"))
    assert st["error"] == "no-amount" and ok(p.handle("BALANCES"))["1"] == 2 * START


def test_the_clock_in_state_and_its_events_b20():
    r, p = proto_rig()
    ok(p.handle("EVENTS ON"))
    assert ok(p.handle("KEY K"))["error"] == "bad-entry"  # no clock: a tap opens no view
    ok(p.handle("HOLD K 3000"))  # held 3 s: the view that sets one
    out = p.handle("KEY 9 0 +")
    assert _events(out, "clock") == [
        {"clock": {"minutes": 90, "left": 5400000, "running": True, "over": False}}]
    st = ok(out)
    assert st["display"]["text"] == "90.00" and st["clock"]["running"]
    out = p.handle("ADVANCE 61000")
    assert _events(out, "clock") == [
        {"clock": {"minutes": 90, "left": 5340000, "running": True, "over": False}}]
    assert ok(out)["clock"]["left"] == 5339000
    out = p.handle("KEY 1 K -")  # the first key wakes the unit; K its view; - stops it
    assert _events(out, "clock")[-1]["clock"]["running"] is False
    assert ok(p.handle("ADVANCE 5000"))["clock"]["left"] == 5339000


def test_the_count_in_state_and_its_events_name_the_ranking_b19():
    r, p = proto_rig()
    ok(p.handle("EVENTS ON"))
    out = p.handle("KEY +")
    assert _events(out, "count") == [] and ok(out)["error"] == "no-amount"  # a tap: B2's
    out = p.handle("HOLD + 3000")
    assert _events(out, "count") == [{"count": {"on": True, "cards": {}, "ranking": []}}]
    ok(p.handle("INSERT L 5"))
    out = p.handle("KEY 3 M +")
    assert _events(out, "count")[-1] == {"count": {"on": True, "cards": {"5": START + 3000000},
                                                   "ranking": [5]}}
    ok(p.handle("REMOVE L"))
    ok(p.handle("INSERT R 2"))
    ok(p.handle("KEY 9 M +"))
    ok(p.handle("REMOVE R"))
    st = ok(p.handle("KEY +"))
    assert st["display"]["text"] == "1-2"
    assert st["count"] == {"on": True, "cards": {"2": START + 9000000, "5": START + 3000000},
                           "ranking": [2, 5]}
    out = p.handle("KEY C")
    assert _events(out, "count")[-1]["count"]["on"] is False
    assert ok(p.handle("BALANCES")) == dict((str(c), START) for c in range(1, 7))


def test_a_counted_cards_count_follows_its_balance_in_the_events_too_b19():
    r, p = _maint()
    ok(p.handle("EVENTS ON"))
    ok(p.handle("HOLD + 3000"))
    ok(p.handle("INSERT L 3"))
    ok(p.handle("KEY 5 M +"))  # counted: balance + 5 M
    ok(p.handle("REMOVE L"))
    out = p.handle("SET BALANCE 3 20000000")
    assert _events(out, "txn") and _events(out, "count") == [
        {"count": {"on": True, "cards": {"3": 25000000}, "ranking": [3]}}]
    out = p.handle("SET BALANCE 4 20000000")  # no part in the count: no count event
    assert _events(out, "txn") and _events(out, "count") == []
    ok(p.handle("KEY C"))  # the count off; what was counted stays, and follows still
    out = p.handle("SET BALANCE 3 1000000")
    assert _events(out, "count") == [
        {"count": {"on": False, "cards": {"3": 6000000}, "ranking": [3]}}]


def test_a_minus_in_the_count_that_changes_nothing_sends_no_count_event_b19():
    r, p = proto_rig()
    ok(p.handle("EVENTS ON"))
    ok(p.handle("HOLD + 3000"))
    ok(p.handle("INSERT L 3"))
    writes = r.store.writes
    out = p.handle("KEY 5 M -")  # nothing was added for card 3: its count stays its balance
    assert _events(out, "count") == [] and ok(out)["error"] is None
    assert r.store.writes == writes and ok(p.handle("STATE"))["display"]["text"] == "15"
    out = p.handle("KEY 2 M + 5 M -")  # 2 M added, 5 M taken off: down to its balance
    assert [e["count"]["cards"] for e in _events(out, "count")] == [
        {"3": START + 2000000}, {"3": START}]


def test_backup_carries_game_night_and_a_restore_brings_the_pot_back_b22():
    r, p = _maint()
    ok(p.handle("SET POT ON"))
    ok(p.handle("INSERT R 2"))
    ok(p.handle("KEY 2 M +"))
    ok(p.handle("REMOVE R"))
    snap = ok(p.handle("BACKUP"))
    assert snap["night"] == {"pot_on": True, "count": None, "clock": None, "pot": 0}
    assert [e[1:4] for e in snap["log"]] == [["pot-in", 2, 7]]
    ok(p.handle("NEWGAME"))
    assert ok(p.handle("STATE"))["pot"] == 0
    ok(p.handle("EVENTS ON"))
    txn = _events(p.handle("RESTORE PREVIOUS"), "txn")[0]
    assert txn["balances"]["pot"] == 2000000 and txn["balances"]["2"] == START - 2000000
    assert ok(p.handle("STATE"))["pot"] == 2000000


def test_a_clock_set_says_its_whole_length_at_once_b20():
    _, p = proto_rig()
    ok(p.handle("ADVANCE 20000"))
    ok(p.handle("HOLD K 3000"))
    st = ok(p.handle("KEY 7 +"))
    assert st["display"]["text"] == "7.00" and st["clock"]["left"] == 420000


def _brought_back_into_a_pot_turned_off():
    """A game with 2 M in its pot, kept by a new game, the pot turned off, then brought back
    (in maintenance)."""
    r, p = _maint()
    for line in ("SET POT ON", "INSERT R 2", "KEY 2 M +", "REMOVE R", "NEWGAME", "SET POT OFF",
                 "RESTORE PREVIOUS"):
        ok(p.handle(line))
    return r, p


def test_a_game_brought_back_with_money_in_its_pot_while_it_is_off_can_turn_it_on_b22():
    r, p = _brought_back_into_a_pot_turned_off()
    assert ok(p.handle("STATE"))["pot"] == 2000000 and not r.unit.ledger.pot_on
    assert ok(p.handle("SET POT ON"))["pot"] == 2000000  # the way to collect it
    assert p.handle("SET POT OFF")[-1].startswith("ERR pot-not-empty")
    ok(p.handle("SET POT ON"))
    r.unit.ledger.pot_on = False  # and on the keypad, in maintenance: M
    st = ok(p.handle("KEY M"))
    assert st["display"]["text"] == "Pot 1" and r.unit.ledger.pot_on


def test_money_brought_back_into_a_pot_turned_off_is_seen_and_collected_at_the_table_b22():
    # Nobody's money is stranded: with the setting off, the pot's money still shows on M and
    # goes to the card alone in L on +, with no banker in maintenance mode.
    r, p = _brought_back_into_a_pot_turned_off()
    r.unit.maintenance = False
    assert not r.unit.ledger.pot_on
    assert ok(p.handle("KEY M"))["display"]["text"] == "Pot"
    ok(p.handle("ADVANCE 1000"))
    ok(p.handle("INSERT L 5"))
    p.handle("EVENTS ON")
    out = p.handle("KEY +")
    st = ok(out)
    assert st["error"] is None and st["pot"] is None  # empty, and off: none to speak of
    assert '! pot {"pot": null}' in out  # so a host that follows the events knows it too
    assert ok(p.handle("BALANCES"))["5"] == START + 2000000
    ok(p.handle("REMOVE L"))
    assert ok(p.handle("KEY M"))["error"] == "bad-entry"  # empty and off: B1-B18's M again


def test_a_count_left_with_no_card_counted_is_no_count_in_state_b19():
    # "null while nothing was counted this game": a count started, then left with C before a
    # card took part, counted nothing.
    _, p = proto_rig()
    ok(p.handle("EVENTS ON"))
    assert ok(p.handle("HOLD + 3000"))["count"] == {"on": True, "cards": {}, "ranking": []}
    lines = p.handle("KEY C")
    assert ok(lines)["count"] is None and _events(lines, "count") == [{"count": None}]

