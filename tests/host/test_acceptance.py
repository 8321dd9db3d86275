"""The protocol, as host tools see it, on every target (conftest: in-process, pty, TCP and a
real unit with --port). Each test starts from a new game (conftest.reset). Rule ids:
docs/rules.md."""

import json

import pytest

from host_tools import CommandError

START = 15000000
ALL_START = {c: START for c in range(1, 7)}
STATE_KEYS = ["power", "display", "red", "green", "slots", "entry", "deal", "sound", "error"]


def raw_json(reply_line):
    """The JSON of an `OK <json>` line, keeping the key order as sent."""
    assert reply_line.startswith("OK "), reply_line
    return json.loads(reply_line[3:], object_pairs_hook=lambda pairs: pairs)


def test_hello_names_a_bank_unit_speaking_protocol_1(bank):
    reply = bank.exchange("HELLO")
    keys = [k for k, _ in raw_json(reply.line)]
    assert keys[:5] == ["device", "firmware", "protocol", "profile", "store"]
    info = reply.payload
    assert info["device"] == "bank-unit" and info["protocol"] == 1
    assert info["profile"] == "world"
    assert info["store"] in ("ok", "new")


def test_state_has_the_keys_in_the_spec_order_and_separators(bank):
    reply = bank.exchange("STATE")
    keys = [k for k, _ in raw_json(reply.line)]
    assert keys[: len(STATE_KEYS)] == STATE_KEYS
    assert '"power": "on", "display": {"text": ' in reply.line  # ", " and ": " separators
    state = reply.payload
    assert state["slots"] == {"L": None, "R": None}
    assert state["entry"] == "" and state["deal"] == "idle" and state["error"] is None


def test_receive_raises_the_balance_and_logs_it(bank):  # B4, B1, B2
    bank.insert("L", 1)
    state = bank.press("1 5 0 K")
    assert state["entry"] == "150K"
    state = bank.press("+")
    assert state["display"] == {"text": "15.15", "k": False, "M": True}
    assert bank.balances() == {**ALL_START, 1: START + 150000}
    (txn,) = bank.log()
    assert (txn["kind"], txn["from"], txn["to"], txn["amount"]) == ("receive", "bank", 1, 150000)


def test_pay_the_bank(bank):  # B5
    bank.insert("R", 2)
    bank.press("2.5M", "-")
    assert bank.balances()[2] == START - 2500000
    assert bank.log()[-1]["kind"] == "pay"


def test_transfer_moves_money_between_two_cards(virtual):  # B6
    bank = virtual
    bank.insert("R", 3)
    bank.insert("L", 4)
    state = bank.press("1M-")
    assert state["display"]["text"] == "14"  # the payer's new balance first
    state = bank.advance(1000)
    assert state["display"]["text"] == "16"  # then the payee's
    assert bank.balances() == {**ALL_START, 3: START - 1000000, 4: START + 1000000}
    txn = bank.log()[-1]
    assert (txn["kind"], txn["from"], txn["to"], txn["amount"]) == ("transfer", 3, 4, 1000000)


def test_card_movements_refused_over_the_protocol_change_nothing(bank):  # B3
    bank.insert("L", 1)
    before = bank.state()
    for command, code in (("INSERT L 2", "slot-occupied"), ("INSERT R 1", "card-in-use"),
                          ("REMOVE R", "slot-empty"), ("INSERT L 7", "bad-argument")):
        reply = bank.exchange(command)
        assert (reply.ok, reply.code) == (False, code), command
    assert bank.state()["slots"] == before["slots"]


def test_plus_with_a_payer_card_is_refused(bank):  # B7
    bank.insert("R", 5)
    state = bank.press("10K+")
    assert state["error"] == "wrong-slot"
    assert bank.balances() == ALL_START
    assert bank.log() == []


def test_no_overdraft(bank):  # B8
    bank.insert("R", 6)
    bank.press("16M")
    state = bank.press("-")
    assert state["error"] == "insufficient-funds"
    assert bank.balances()[6] == START


def test_go_once_per_insertion(bank):  # B9
    bank.insert("L", 2)
    bank.press("M")
    assert bank.balances()[2] == START + 2000000
    state = bank.press("M")
    assert state["error"] == "go-taken"
    assert bank.balances()[2] == START + 2000000
    bank.remove("L")
    bank.insert("L", 2)
    bank.press("M")
    assert bank.balances()[2] == START + 4000000


def test_c_reverses_the_last_transaction(bank):  # B10
    bank.insert("L", 1)
    bank.press("50K+")
    bank.press("C")
    assert bank.balances() == ALL_START
    undo = bank.log()[-1]
    assert undo["kind"] == "undo" and undo["undoes"] == bank.log()[0]["seq"]


def test_new_game_by_holding_c(bank):  # B11
    bank.insert("L", 1)
    bank.press("50K+")
    seq = bank.log()[-1]["seq"]
    bank.remove("L")
    bank.new_game()
    assert bank.balances() == ALL_START
    assert bank.log() == []
    bank.insert("L", 1)
    bank.press("M")
    assert bank.log()[-1]["seq"] > seq  # seq numbers continue


def test_entry_refuses_a_sixth_digit(bank):  # B2
    bank.insert("L", 1)
    state = bank.press("123456")
    assert state["entry"] == "12345"
    assert state["error"] == "bad-entry"


def test_dot_cycles_the_volume(bank):  # B12
    assert [bank.press(".")["sound"] for _ in range(3)] == [1, 0, 2]


def test_events_come_before_the_reply(bank):  # protocol: EVENTS ON
    bank.events_on()
    bank.insert("L", 1)
    reply = bank.exchange("KEY 1 0 K +")
    assert reply.ok
    assert ("tone", {"name": "money-in"}) in [(e.type, e.data) for e in reply.events]
    bank.events_off()
    reply = bank.exchange("KEY 1 0 K +")
    assert reply.ok and reply.events == []


def test_refused_commands_change_nothing(bank):
    bank.insert("L", 1)
    before = bank.state()
    for command, code in (("KEY 1 X", "bad-key"), ("FROB", "unknown-command"),
                          ("HOLD C", "bad-argument"), ("LOG x", "bad-argument")):
        reply = bank.exchange(command)
        assert (reply.ok, reply.code) == (False, code), command
    assert bank.state() == before  # KEY 1 X pressed no 1


def test_commands_are_case_insensitive_and_cr_is_ignored(bank):
    bank.insert("l", 1)
    reply = bank.exchange("key 5 0 k\r")
    assert reply.ok and reply.payload["entry"] == "50K"


def test_blank_lines_get_no_reply(bank):
    bank.send_raw(b"\n   \n\r\n")
    assert bank.exchange("HELLO").payload["device"] == "bank-unit"
    assert bank.read_line(0.05) is None  # nothing was left over


def test_overlong_line_is_refused_and_skipped(bank):
    reply = bank.exchange("KEY " + "1 " * 150)  # 304 characters
    assert (reply.ok, reply.code) == (False, "line-too-long")
    assert bank.state()["entry"] == ""
    assert bank.exchange("HELLO" + " " * 195).code != "line-too-long"  # 200 is allowed


def test_advance_moves_a_virtual_clock_only(bank):
    reply = bank.exchange("ADVANCE 10")
    if bank.virtual:
        assert reply.ok
    else:
        assert reply.code == "unsupported"


def test_deal_timer_runs_and_ends(virtual):  # B13
    bank = virtual
    bank.events_on()
    state = bank.press("DEAL")
    assert state["deal"] == "running" and state["red"] == "slow"
    seen, tones = [], []
    for second in range(1, 57):
        reply = bank.exchange("ADVANCE 1000")
        tones += [e.data["name"] for e in reply.events if e.type == "tone"]
        deal = reply.payload["deal"]
        if not seen or seen[-1][0] != deal:
            seen.append((deal, second, reply.payload["red"], reply.payload["green"]))
    phases = [s[0] for s in seen]
    assert phases == ["running", "ending", "done", "idle"]
    ends = seen[2][1]  # the first whole second at which it was over
    assert 13 <= ends <= 50
    assert ends - seen[1][1] == 5  # the last 5 seconds are `ending`
    assert seen[1][2] == "fast" and seen[2][2:] == ("off", "slow")
    assert seen[3][1] - ends == 5  # green for 5 seconds, then idle
    assert tones == ["deal-warning", "deal-end"]


def test_every_change_over_serial_is_marked_in_the_log(bank):
    bank.insert("L", 1)
    bank.press("M")
    assert bank.log()[-1]["via"] == "serial"


# -- maintenance (docs/protocol-extensions.md) ---------------------------------------------------
def test_money_changes_outside_the_keypad_need_maintenance(bank):
    assert bank.maintenance() is False
    for command in ("SET BALANCE 1 1000000", "SET PROFILE classic", "RESTORE PREVIOUS"):
        with pytest.raises(CommandError) as err:
            bank.request(command)
        assert err.value.code == "maintenance-required", command
    assert bank.balances() == ALL_START
    assert bank.hello()["profile"] == "world"


def test_maintenance_cannot_be_entered_over_serial(bank):
    """Physical presence: holding DEAL over the protocol must not unlock maintenance."""
    bank.hold("DEAL", 3000)
    try:
        assert bank.maintenance() is False
        with pytest.raises(CommandError):
            bank.set_balance(1, 1000)
        assert bank.balances() == ALL_START
    finally:
        if bank.maintenance():  # leave the shared simulator as it was
            bank.hold("DEAL", 3000)


def test_set_balance_in_maintenance_is_logged_as_serial(maint_bank):
    bank = maint_bank
    assert bank.maintenance() is True
    bank.set_balance(3, 12345000)
    assert bank.balances() == {**ALL_START, 3: 12345000}
    txn = bank.log()[-1]
    assert txn["kind"] == "set" and txn["via"] == "serial"


def test_set_profile_starts_a_new_game_and_restore_previous_undoes_it(maint_bank):
    bank = maint_bank
    bank.insert("L", 1)
    bank.press("M")
    bank.remove("L")
    bank.set_profile("classic")
    assert bank.hello()["profile"] == "classic"
    assert bank.balances() == {c: 1500 for c in range(1, 7)}  # B15
    bank.restore_previous()
    assert bank.hello()["profile"] == "world"
    assert bank.balances()[1] == START + 2000000


def test_backup_has_the_whole_state(maint_bank):
    bank = maint_bank
    bank.insert("L", 2)
    bank.press("M")
    snap = bank.backup()
    assert snap["profile"] == "world" and snap["volume"] == 2
    assert snap["seq"] == bank.log()[-1]["seq"]
