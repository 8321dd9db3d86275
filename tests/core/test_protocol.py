"""The serial protocol's core (docs/protocol.md): replies, errors, events."""

import json

from harness import Rig, cut_lines, proto_rig


def ok(lines):
    assert len(lines) >= 1
    assert lines[-1].startswith("OK"), lines
    rest = lines[-1][3:]
    return json.loads(rest) if rest else None


def test_hello():
    _, p = proto_rig()
    out = p.handle(b"HELLO")
    assert out == ['OK {"device": "bank-unit", "firmware": "0.1.0", "protocol": 1, '
                   '"profile": "world", "store": "new"}']


def test_state_fields_in_order():
    _, p = proto_rig()
    line = p.handle("STATE")[0]
    assert line.startswith('OK {"power": "on", "display": {"text": "0", "k": false, '
                           '"M": false}, "red": "off", "green": "off", "slots": {"L": null, '
                           '"R": null}, "entry": "", "deal": "idle", "sound": 2, "error": null')


def test_commands_case_insensitive_and_keys():
    r, p = proto_rig()
    ok(p.handle("insert l 1"))
    st = ok(p.handle("key 1 5 0 k +"))
    assert st["display"] == {"text": "15.15", "k": False, "M": True}
    assert ok(p.handle("BALANCES"))["1"] == 15150000
    st = ok(p.handle("KEY 2 . 5 M"))
    assert st["entry"] == "2.5M"


def test_log_transactions():
    r, p = proto_rig()
    p.handle("INSERT R 2")
    p.handle("INSERT L 1")
    p.handle("KEY 500K -")
    p.handle("KEY C")
    log = ok(p.handle("LOG"))
    assert [t["kind"] for t in log] == ["transfer", "undo"]
    t = log[0]
    assert (t["seq"], t["from"], t["to"], t["amount"]) == (1, 2, 1, 500000)
    assert log[1]["undoes"] == 1 and log[1]["from"] == 1 and log[1]["to"] == 2
    assert len(ok(p.handle("LOG 1"))) == 1
    assert ok(p.handle("LOG 0")) == []
    p.handle("REMOVE L")
    p.handle("KEY 1M-")
    assert ok(p.handle("LOG 1"))[0]["to"] == "bank"
    assert len(ok(p.handle("LOG 999999999999"))) == 3  # as many as it keeps
    assert p.handle("LOG 9999999999999")[-1] == (
        "ERR bad-argument n is a whole number of at most 12 digits")  # says why, not "whole"


def test_errors_change_nothing():
    r, p = proto_rig()
    p.handle("INSERT L 1")
    before = p.handle("STATE")
    bal = p.handle("BALANCES")
    bad = [
        ("FROB", "ERR unknown-command"),
        ("KEY 1 X", "ERR bad-key"),
        ("KEY", "ERR bad-argument"),
        ("INSERT L 7", "ERR bad-argument"),
        ("INSERT Q 1", "ERR bad-argument"),
        ("INSERT L", "ERR bad-argument"),
        ("INSERT L 2", "ERR slot-occupied"),
        ("INSERT R 1", "ERR card-in-use"),
        ("REMOVE R", "ERR slot-empty"),
        ("REMOVE", "ERR bad-argument"),
        ("HOLD C", "ERR bad-argument"),
        ("HOLD Z 100", "ERR bad-key"),
        ("HOLD C -5", "ERR bad-argument"),
        ("LOG x", "ERR bad-argument"),
        ("LOG -1", "ERR bad-argument"),
        ("ADVANCE", "ERR bad-argument"),
        ("ADVANCE 1e3", "ERR bad-argument"),
        ("EVENTS MAYBE", "ERR bad-argument"),
        ("STATE now", "ERR bad-argument"),
        ("SET BALANCE 1 5", "ERR bad-argument"),
        ("SET BALANCE 1 5000", "ERR maintenance-required"),
        ("SET PROFILE monopoly", "ERR bad-argument"),
        ("RESTORE PREVIOUS", "ERR maintenance-required"),
    ]
    for line, code in bad:
        out = p.handle(line)
        assert len(out) == 1 and (out[0] == code or out[0].startswith(code + " ")), (line, out)
    assert p.handle("STATE") == before
    assert p.handle("BALANCES") == bal


def test_garbage_and_long_lines():
    from protocol import LineReader

    r, p = proto_rig()
    rd = LineReader()
    lines = cut_lines(rd, b"\x00\xff\x1b[2J\n" + b"K" * 201 + b"\n" + b"X" * 200
                      + b"\r\n\n  \nHELLO\n")
    out = []
    for ln in lines:
        out.extend(p.handle(ln))
    assert out[0].startswith("ERR bad-line")
    assert "\x1b" not in out[0] and "\xff" not in out[0]
    assert out[1].startswith("ERR line-too-long")
    assert out[2].startswith("ERR unknown-command")  # exactly 200 bytes is a line
    assert out[3].startswith('OK {"device": "bank-unit"')
    assert len(out) == 4
    assert r.unit.entry == ""


def test_the_units_own_lines_come_back_from_an_echoing_terminal_get_no_reply():
    # Linux opens a serial port with ECHO on: each reply answered would come back, for ever
    from protocol import LineReader

    r, p = proto_rig()
    p.handle("EVENTS ON")
    p.handle("INSERT L 1")
    echoed = p.handle("KEY 1 M -")  # an event and a state longer than a command may be
    assert echoed[0].startswith("! ") and len(echoed[-1]) > 200
    before = p.handle("STATE")
    rd = LineReader()
    lines = cut_lines(rd, "\r\n".join(echoed + ["OK", "ok", "ERR bad-key x", "!"]).encode()
                      + b"\r\nHELLO\r\n")
    out = []
    for ln in lines:
        out.extend(p.handle(ln))
    assert len(out) == 1 and out[0].startswith('OK {"device": "bank-unit"'), out
    assert p.handle("STATE") == before
    assert p.handle("OKAY") == ["ERR unknown-command OKAY"]  # a word of its own: no echo


def on_a_real_clock():
    """A protocol on a unit's clock (clock.RealClock) whose time is a counter its sleeps move,
    so no test sleeps for real; card 1 has paid 1 M to the bank. (protocol, time, sleeps)"""
    from brain.clock import RealClock
    from protocol import Protocol

    r, _ = proto_rig()
    t = [5000]
    slept = []

    def sleep_ms(ms):
        slept.append(ms)
        t[0] += ms

    p = Protocol(r.unit, RealClock(lambda: t[0], sleep_ms))
    p.handle("INSERT R 1")
    p.handle("KEY 1M-")
    p.handle("REMOVE R")
    return p, t, slept


def test_hold_on_a_real_clock_holds_the_key_for_its_time_b11():
    # A unit's clock (clock.RealClock): HOLD waits in sleep_ms, firing the unit's timers on the
    # way. Its time here is a counter the sleeps move, so no test sleeps for real.
    p, t, slept = on_a_real_clock()
    st = ok(p.handle("HOLD C 2999"))  # released before 3 s: a plain C, nothing reversed
    assert ok(p.handle("BALANCES"))["1"] == 14000000 and st["power"] == "on"
    assert sum(slept) == 2999 and max(slept) <= 20  # the key scanned as a unit scans it
    st = ok(p.handle("HOLD C 3000"))
    assert ok(p.handle("BALANCES"))["1"] == 15000000  # B11: a new game, every account back
    assert sum(slept) == 5999 and t[0] == 10999
    assert p.handle("ADVANCE 10")[0].startswith("ERR unsupported")  # time is not ours to move


def test_hold_on_a_real_clock_is_bounded_so_no_one_waits_minutes_b11():
    # A real clock's HOLD is waited out, and every other client, the keypad and the window
    # wait with it: ten minutes of that is refused, at once; the 3 s holds still work (B11).
    p, t, slept = on_a_real_clock()
    before = p.handle("STATE")
    for line in ("HOLD C 600000", "HOLD 1 10001"):
        assert p.handle(line) == ["ERR bad-argument ms is a whole number from 0 to 10000 on a "
                                  "real clock (all else waits while the key is held)"], line
    assert slept == [] and p.handle("STATE") == before  # nothing held, nothing pressed
    assert ok(p.handle("BALANCES"))["1"] == 14000000
    ok(p.handle("HOLD C 10000"))  # the longest hold: C past its 3 s (B11)
    assert sum(slept) == 10000
    assert ok(p.handle("BALANCES"))["1"] == 15000000
    # A virtual clock's hold costs no one any time: its bound is ten minutes.
    r, p = proto_rig()
    assert ok(p.handle("HOLD 1 600000"))["entry"] == "1"
    assert p.handle("HOLD 1 600001")[0].startswith("ERR bad-argument ms is a whole number from "
                                                    "0 to 600000")


def test_advance_and_hold_with_virtual_clock():
    r, p = proto_rig()
    p.handle("INSERT R 1")
    p.handle("KEY 1M-")
    p.handle("REMOVE R")
    st = ok(p.handle("HOLD C 3000"))
    assert ok(p.handle("BALANCES"))["1"] == 15000000
    st = ok(p.handle("ADVANCE 60000"))
    assert st["power"] == "off"
    st = ok(p.handle("KEY 5 5"))  # the first key wakes, the rest is input
    assert st["power"] == "on" and st["entry"] == "5"


def test_advance_unsupported_on_real_clock():
    from brain.clock import RealClock
    from protocol import Protocol

    r, _ = proto_rig()
    p = Protocol(r.unit, RealClock(lambda: 0, lambda ms: None))
    assert p.handle("ADVANCE 10")[0].startswith("ERR unsupported")
    for bad in ("ADVANCE", "ADVANCE x", "ADVANCE -1", "ADVANCE 1 2"):  # no such command here
        assert p.handle(bad)[0].startswith("ERR unsupported"), bad


def test_mem_is_only_a_units():
    # The simulator (CPython or the unix port) has no unit's heap to report: the same refusal
    # on both interpreters, and nothing changes.
    _, p = proto_rig()
    before = p.handle("STATE")
    assert p.handle("MEM")[0].startswith("ERR unsupported")
    assert p.handle("MEM 1")[0].startswith("ERR bad-argument")
    assert p.handle("STATE") == before


def test_events_before_reply():
    r, p = proto_rig()
    assert p.handle("EVENTS ON") == ["OK"]
    out = p.handle("INSERT L 3")
    assert out[0] == '! tone {"name": "card"}'
    assert out[-1].startswith("OK ")
    out = p.handle("KEY 1M+")
    assert '! tone {"name": "money-in"}' in out
    assert out.index('! tone {"name": "money-in"}') < len(out) - 1
    assert any(x.startswith('! txn {"seq": 1, "kind": "receive"') for x in out)
    p.handle("EVENTS OFF")
    assert len(p.handle("KEY 1M+")) == 1


def test_events_from_time():
    r, p = proto_rig(seed=5)
    p.handle("EVENTS ON")
    p.handle("KEY DEAL")
    out = p.handle("ADVANCE 60000")
    tones = [x for x in out if x.startswith("! tone")]
    assert tones == ['! tone {"name": "deal-warning"}', '! tone {"name": "deal-end"}']


def test_maintenance_commands():
    r, p = proto_rig()
    assert ok(p.handle("MAINT")) == {"maintenance": False}
    p.handle("HOLD DEAL 3000")  # over serial: no one is at the unit, so no maintenance
    assert ok(p.handle("MAINT")) == {"maintenance": False}
    assert p.handle("SET BALANCE 3 1234000") == [
        "ERR maintenance-required hold DEAL for 3 s on the unit first"]
    # An unknown profile is said with the profiles in the order every list of them has (B15).
    assert p.handle("SET PROFILE monaco") == ["ERR bad-argument profiles are world classic francs"]
    r.hold("DEAL", 3000)  # on the unit's own keypad
    assert r.text() == "SErv"

    assert ok(p.handle("STATE"))["deal"] == "idle"
    ok(p.handle("SET BALANCE 3 1234000"))
    assert ok(p.handle("BALANCES"))["3"] == 1234000
    log = ok(p.handle("LOG 1"))
    assert log[0]["kind"] == "set" and log[0]["via"] == "serial"
    ok(p.handle("SET BALANCE 3 1234000"))  # what it holds already: nothing moves, none logged
    ok(p.handle("SET BALANCE POT 0"))
    assert ok(p.handle("LOG 1")) == log
    ok(p.handle("NEWGAME"))
    assert ok(p.handle("BALANCES"))["3"] == 15000000
    ok(p.handle("RESTORE PREVIOUS"))
    assert ok(p.handle("BALANCES"))["3"] == 1234000
    ok(p.handle("SET PROFILE classic"))
    assert ok(p.handle("HELLO"))["profile"] == "classic"
    assert ok(p.handle("BALANCES"))["3"] == 1500
    ok(p.handle("SET SOUND 0"))
    assert ok(p.handle("STATE"))["sound"] == 0


def test_a_host_s_change_within_a_transfer_s_second_sounds_no_money_in_for_the_payee_b6():
    # B6: the payee's balance and its money-in tone come a second after a transfer; a change
    # from a host in that second (another game brought back, a balance set) ends it: no money
    # came in to anyone, and no balance but the one in play is shown for it.
    for change in ("SET BALANCE 3 1234000", "RESTORE PREVIOUS"):
        r, p = proto_rig()
        r.hold("DEAL", 3000)
        ok(p.handle("INSERT L 1"))
        ok(p.handle("KEY 1 0 K +"))
        ok(p.handle("NEWGAME"))  # a game to bring back
        ok(p.handle("INSERT R 2"))
        ok(p.handle("KEY 1 M -"))  # 2 pays 1: 1's balance in a second, with money-in
        r.take_tones()
        ok(p.handle(change))
        r.take_tones()
        r.advance(1000)
        assert r.take_tones() == [], change


def test_a_change_refused_while_the_unit_is_switched_off_says_to_wake_it_b16():
    # Maintenance granted at start (a headless simulator's --maintenance) ends at the
    # switch-off and is back at the wake: the refusal says to wake the unit, not only to
    # hold DEAL, and nothing changes until it is awake.
    from protocol import Protocol

    r = Rig(maintenance=True)
    p = Protocol(r.unit, r.clock)
    r.advance(60000)
    assert not r.unit.power
    out = p.handle("SET BALANCE 3 1234000")
    assert out == ["ERR maintenance-required the unit is switched off: wake it (a key or a "
                   "card), then hold DEAL for 3 s on the unit if it asks again"]
    assert ok(p.handle("BALANCES"))["3"] == 15000000
    ok(p.handle("INSERT L 1"))  # a card wakes it
    ok(p.handle("SET BALANCE 3 1234000"))
    assert ok(p.handle("BALANCES"))["3"] == 1234000


def test_a_carriage_return_in_a_line_is_ignored_whoever_hands_the_line_over():
    # The serial port's LineReader drops a \r; a line handed over whole (the page's bank.send)
    # reads the same, never a \r taken for a space.
    from protocol import LineReader

    for line in ("HELLO\rSTATE", "INSERT L\r3", "NAME 1 A\rB"):
        _, whole = proto_rig()
        _, byte_wise = proto_rig()
        (cut,) = cut_lines(LineReader(), line.encode() + b"\n")
        assert whole.handle(line) == byte_wise.handle(cut), line
    _, p = proto_rig()
    assert p.handle("HELLO\rSTATE") == ["ERR unknown-command HELLOSTATE"]
    p.handle("NAME 1 A\rB")
    assert ok(p.handle("NAMES"))["1"] == "AB"


def test_unprintable_characters_in_text_lines_too():
    r, p = proto_rig()
    out = p.handle("FR\x00B")
    assert out == ["ERR bad-line a line has no control characters"]
    assert p.handle("HELLO\r")[0].startswith("OK ")


def _recovered():
    """A unit whose store had to fall back to its last good copy at boot (B17)."""
    from harness import Rig

    st = Rig().store  # a game is stored
    st.fs.files[st.paths[st.cur]].extend(b"00000000 r junk\n")  # then a line goes bad
    return Rig(store=st)


def test_b17_damaged_store_reported_until_a_key():
    r = _recovered()
    u = r.unit
    assert u.store_status == "damaged" and u.error == "store-damaged"
    assert r.text() == "Err5"
    r.insert("L", 1)
    assert u.error == "store-damaged"  # a card is not the banker's key
    r.press("5")
    assert u.error is None
    assert r.bal(1) == 15000000  # the last good copy is in use


def test_b17_a_hosts_key_is_not_the_banker_seeing_the_damage():
    # Damage is the banker's to see: only a key on the unit's own keypad ends its report. A
    # host's keys are keys (they type, pay, hold C for a new game), but the report stays,
    # Err5 on the display too, and a refusal in between does not hide it: STATE's error is
    # store-damaged throughout, the refusal is its tone.
    from protocol import Protocol

    r = _recovered()
    p = Protocol(r.unit, r.clock)
    st = ok(p.handle("KEY C"))
    assert (st["error"], st["display"]["text"]) == ("store-damaged", "Err5")
    ok(p.handle("EVENTS ON"))
    out = p.handle("KEY M")  # M alone, no card: refused (B2)
    assert out[:-1] == ['! tone {"name": "error"}'], out
    assert ok(out[-1:])["error"] == "store-damaged"
    ok(p.handle("EVENTS OFF"))
    ok(p.handle("INSERT R 2"))
    assert ok(p.handle("KEY 5 M +"))["error"] == "store-damaged"  # + with an R card (B7)
    assert ok(p.handle("STATE"))["error"] == "store-damaged"
    ok(p.handle("KEY C"))
    ok(p.handle("REMOVE R"))
    st = ok(p.handle("KEY 5"))
    assert (st["error"], st["entry"]) == ("store-damaged", "5")
    ok(p.handle("KEY C"))
    ok(p.handle("INSERT L 1"))
    assert ok(p.handle("KEY 1 M +"))["error"] == "store-damaged"
    assert ok(p.handle("BALANCES"))["1"] == 16000000  # play goes on
    ok(p.handle("REMOVE L"))
    st = ok(p.handle("HOLD C 3000"))  # B11: a new game, the keypad's over serial
    assert st["error"] == "store-damaged" and r.bal(1) == 15000000
    assert ok(p.handle("HELLO"))["store"] == "damaged"
    r.press("C")  # the banker, at the unit
    assert ok(p.handle("STATE"))["error"] is None


def test_a_sign_inside_a_key_word_is_refused_and_presses_nothing():
    # docs/protocol.md: keys are words split by spaces; "1M-" is an amount and its sign, but
    # "-5" is no key: refused whole (ERR bad-key), not - (paying the entry) and then 5.
    r, p = proto_rig()
    p.handle("INSERT R 1")
    ok(p.handle("KEY 1M"))
    before = (p.handle("STATE"), p.handle("BALANCES"), p.handle("LOG"))
    for line in ("KEY -5", "KEY 5-5", "KEY 2 -5", "KEY 1+5", "KEY -M"):
        out = p.handle(line)
        assert len(out) == 1 and out[0].startswith("ERR bad-key "), (line, out)
    assert (p.handle("STATE"), p.handle("BALANCES"), p.handle("LOG")) == before
    assert ok(p.handle("KEY -"))["entry"] == ""  # the sign on its own, or last, still pays
    assert ok(p.handle("BALANCES"))["1"] == 14000000


def test_a_carriage_return_does_not_end_a_line():
    # docs/protocol.md: lines end in \n and \r is ignored, so "HELLO\r" waits for its \n,
    # and a line that is only "\r" (or "\r\n") is blank: no reply (docs/simulator.md).
    from protocol import LineReader

    r, p = proto_rig()
    rd = LineReader()
    assert cut_lines(rd, b"HELLO\r") == []
    assert cut_lines(rd, b"\r\r") == []
    assert cut_lines(rd, b"\n") == [b"HELLO"]
    assert p.handle(cut_lines(rd, b"\r\n")[0]) == []
    assert cut_lines(rd, b"HELLO\rSTATE\n") == [b"HELLOSTATE"]


def test_an_extension_name_without_its_handler_is_an_unknown_command():
    # A unit answers every line: a table out of step is refused as unknown, never an exception
    # (on a Pico, an exception in the loop restarts the unit).
    from protocol import extensions

    _, p = proto_rig()
    handler = extensions.COMMANDS.pop("GAMES")
    try:
        assert p.handle("GAMES") == ["ERR unknown-command GAMES"]
        assert p.handle("games") == ["ERR unknown-command games"]
        ok(p.handle("STATE"))  # and the unit goes on
    finally:
        extensions.COMMANDS["GAMES"] = handler
    ok(p.handle("GAMES"))


def test_every_balance_a_game_reaches_can_be_set_again():
    # SET BALANCE takes the most a balance holds (brain/ledger.py), and no move takes a balance
    # past it: a backup of any game can be restored (docs/protocol-extensions.md).
    most = 999999999999  # 12 digits
    r, p = proto_rig()
    r.unit.maintenance = True
    ok(p.handle("SET BALANCE 1 999999999000"))  # the fullest in world's 1,000s
    ok(p.handle("INSERT L 1"))
    st = ok(p.handle("KEY 1 0 K +"))  # B4: would make 13 digits
    assert st["error"] == "balance-limit" and st["entry"] == "10K"  # B2: the entry stays
    st = ok(p.handle("KEY C M"))  # B9: Go is a receipt too
    assert st["error"] == "balance-limit"
    ok(p.handle("INSERT R 2"))
    st = ok(p.handle("KEY 1 0 K -"))  # B6: neither card moves
    assert st["error"] == "balance-limit"
    bal = ok(p.handle("BALANCES"))
    assert (bal["1"], bal["2"]) == (999999999000, 15000000)
    assert [e["kind"] for e in ok(p.handle("LOG"))] == ["set"]
    ok(p.handle("REMOVE L"))
    ok(p.handle("KEY 5 M -"))  # B5: paying out of it still works
    assert ok(p.handle("BALANCES"))["2"] == 10000000
    ok(p.handle("SET PROFILE classic"))  # B15: amounts of 1
    assert p.handle("SET BALANCE 1 %d" % (most + 1)) == [
        "ERR bad-argument SET BALANCE <1-6|pot> <amount 0-999999999999>"]
    ok(p.handle("SET BALANCE 1 %d" % most))
    assert ok(p.handle("BALANCES"))["1"] == most
    ok(p.handle("REMOVE R"))
    ok(p.handle("INSERT L 1"))
    st = ok(p.handle("KEY 1 +"))
    assert st["error"] == "balance-limit" and ok(p.handle("BALANCES"))["1"] == most
