"""What a host learns from the events (docs/protocol.md, "Events"): every change of money, a
restore and a new game included (B11, B15), carries the balances after it, so the event stream
alone rebuilds BALANCES; and what HELLO and the switch-off minute say after play (B16, B17).
In process, on both interpreters (tests/mprun.py); tests/test_event_stream.py does the same
through a simulator over TCP."""

import json

import eventplay
from harness import Rig, proto_rig
from protocol import Protocol
from store import FileStore
from storerig import FaultFS

START = 15000000  # world


def ok(lines):
    return eventplay.reply_json(lines)


def _events(lines, kind):
    head = "! %s " % kind
    return [json.loads(x[len(head):]) for x in lines if x.startswith(head)]


def _maint_rig():
    r, p = proto_rig()
    r.unit.maintenance = True
    return r, p


def test_restore_event_and_log_carry_all_six_balances_b11():
    r, p = _maint_rig()
    p.handle("EVENTS ON")
    ok(p.handle("INSERT R 3"))
    ok(p.handle("KEY 2M-"))
    ok(p.handle("REMOVE R"))
    r.hold("C", 3000)  # B11: the game with the payment is kept
    ok(p.handle("INSERT L 5"))
    ok(p.handle("KEY 1M+"))
    out = p.handle("RESTORE PREVIOUS")
    txns = _events(out, "txn")
    want = {"1": START, "2": START, "3": START - 2000000, "4": START, "5": START, "6": START}
    assert len(txns) == 1 and txns[0]["kind"] == "restore"
    assert txns[0]["balances"] == want == ok(p.handle("BALANCES"))
    assert txns[0]["profile"] == "world"
    ok(p.handle("KEY 150K+"))  # card 5 is still in L
    log = ok(p.handle("LOG"))
    assert [t["kind"] for t in log][-2:] == ["restore", "receive"]
    assert log[-2]["balances"] == want  # LOG shows the restore as its event did
    assert log[-1]["balances"] == {"5": START + 150000}


def test_a_restore_into_another_profile_says_which_b15():
    r, p = _maint_rig()
    ok(p.handle("SET PROFILE classic"))
    ok(p.handle("SET BALANCE 2 1000"))
    ok(p.handle("SET PROFILE world"))  # the classic game is kept
    p.handle("EVENTS ON")
    txn = _events(p.handle("RESTORE PREVIOUS"), "txn")[0]
    assert txn["profile"] == "classic"
    assert txn["balances"] == {"1": 1500, "2": 1000, "3": 1500, "4": 1500, "5": 1500, "6": 1500}


def test_newgame_event_carries_the_starting_balances_b11():
    r, p = _maint_rig()
    p.handle("EVENTS ON")
    ok(p.handle("SET BALANCE 4 3000000"))
    for cmd, profile, start in (("NEWGAME", "world", START), ("HOLD C 3000", "world", START),
                                ("SET PROFILE francs", "francs", 150000)):
        games = _events(p.handle(cmd), "newgame")
        assert games == [{"profile": profile,
                          "balances": {c: start for c in eventplay.CARDS}}], cmd


def test_the_events_alone_rebuild_balances_in_random_sessions():
    for seed in (1, 2):
        r, p = _maint_rig()
        eventplay.enough(eventplay.play(p.handle, seed, 300))


def test_the_events_alone_rebuild_balances_on_the_flash_store():
    r = Rig(store=FileStore("/bank", fs=FaultFS()))
    r.unit.maintenance = True
    eventplay.enough(eventplay.play(Protocol(r.unit, r.clock).handle, 3, 300))


def test_hello_says_ok_once_a_game_is_played_b17():
    r, p = proto_rig()
    assert ok(p.handle("HELLO"))["store"] == "new"  # nothing was kept before this boot
    ok(p.handle("INSERT L 2"))
    ok(p.handle("KEY 50"))
    assert ok(p.handle("HELLO"))["store"] == "new"  # no money moved: nothing new kept
    ok(p.handle("KEY K +"))
    assert ok(p.handle("HELLO"))["store"] == "ok"


def test_hello_says_ok_after_a_new_game_on_a_new_store_b17():
    r, p = proto_rig()
    r.hold("C", 3000)
    assert ok(p.handle("HELLO"))["store"] == "ok"


def test_a_key_held_past_the_minute_leaves_the_unit_on_b16():
    r, p = proto_rig()
    state = ok(p.handle("HOLD 1 61000"))
    assert state["power"] == "on" and state["entry"] == "1"
    # the minute counts from the release
    assert ok(p.handle("ADVANCE 59999"))["power"] == "on"
    assert ok(p.handle("ADVANCE 1"))["power"] == "off"


def test_a_key_held_on_the_keypad_keeps_the_unit_on_b16():
    r = Rig()
    u = r.unit
    u.key_down("7", r.clock.now())
    r.advance(5 * 60000)
    assert u.power
    assert u.deadline() is None  # nothing timed while it is down: a body may sleep
    u.key_up("7", r.clock.now())
    r.advance(59000)
    assert u.power
    r.advance(1000)
    assert not u.power


def test_the_events_alone_rebuild_balances_and_the_pot_through_game_night_b19_b21_b22():
    # Bankruptcies, the pot turned on and off, money into and out of it, the count: every
    # change of money is an event carrying the balances (the pot's as "pot") after it.
    for seed in (4, 5):
        r, p = _maint_rig()
        seen = eventplay.play(p.handle, seed, 300, True)
        for kind in ("bankrupt", "pot-in", "pot-out"):
            assert seen.get(kind, 0) >= 1, (seed, seen)


def _port(protocol):
    """A unit's serial side alone (app.App's), for a host that has not read yet."""
    import app

    class Port(app.App):
        def __init__(self, protocol):
            self.protocol, self.unsent, self._at, self.lost = protocol, [], 0, 0

        def send(self):
            pass

        def taken(self):
            """What the port is given once the host reads: each piece as it is made."""
            out = []
            for data in self.unsent:
                out.extend([data] if isinstance(data, bytes) else list(data))
            return out

    return Port(protocol)


def _stalled_port(protocol, room):
    """A unit's serial side (app.App's own send) on a port that takes room bytes, then no more:
    a host that stopped reading."""
    import app

    class Board:
        def hold_irqs(self):
            return 0

        def free_irqs(self, held):
            pass

        def usb_sending(self):
            return True  # a packet waits for the host

    class Out:
        def __init__(self):
            self.got = bytearray()

        def write(self, b):
            self.got += b
            return len(b)

    class Waiter:
        def register(self, obj, mask):
            pass

    class Port(app.App):
        def __init__(self, protocol):
            self.protocol, self.board, self.stdout = protocol, Board(), Out()
            self.stdin, self.waiter = None, Waiter()
            self.unsent, self._at, self.lost, self._one = [], 0, 0, bytearray(1)
            self._kicked = self._open = self.stalled = False

        def _room(self):
            return len(self.stdout.got) < room

    return Port(protocol)


def _long_log_rig():
    _, p = proto_rig()
    p.handle("INSERT L 1")
    for _ in range(30):
        p.handle("KEY 1 0 K + C")  # a move and its undo: 60 records, some 8 KB of LOG
    return p


def test_events_made_while_a_long_reply_waits_for_the_port_are_kept_not_lost():
    # A unit's port takes LOG 200 in pieces of a few hundred bytes (app.py, App.write): the events
    # the keys make meanwhile still have room for 31 lines, as beside a one-line reply; they
    # were dropped and counted "! lost" as if the pieces were lines.
    p = _long_log_rig()
    p.pieces = True
    port = _port(p)
    port.write(p.handle("LOG 200"))
    p.pending = ["! tone {\"name\": \"click\"}"] * 30
    port.drain()
    assert port.lost == 0
    pieces = port.taken()
    assert len(pieces) > 2  # the reply in pieces, then the events
    # none of them much past 256 bytes: a heap a long game cut small may have no 1 KB in one
    # piece, and a Pico's LOG 200 then ran out of memory and restarted
    assert max(len(piece) for piece in pieces) < 512
    assert b"".join(pieces).count(b"\n") == 31  # the reply, then the 30 events


def test_a_host_that_stops_reading_in_a_long_replys_last_piece_still_has_32_lines_kept():
    # docs/protocol.md, "A host that stops reading": its first 32 unread lines are kept. With
    # the last piece of a LOG drawn and waiting, the reply counted as two, and one event more
    # was dropped.
    p = _long_log_rig()
    (whole,) = p.handle("LOG 200")
    p.pieces = True
    port = _stalled_port(p, len(whole) - 10)  # all but the reply's last 10 bytes (and "\n")
    port.write(p.handle("LOG 200"))
    for _ in range(len(whole)):
        port.send()
    assert bytes(port.stdout.got) == whole[:-10].encode()
    p.pending = ["! tone {\"name\": \"click\"}"] * 40
    port.drain()
    assert port.lost == 40 - 31
    assert [data[-1] == 10 for data in port.unsent] == [True] * 32  # the reply, 31 events


def test_a_long_reply_made_while_the_keys_play_on_says_the_game_as_it_was_asked():
    # A unit makes LOG's records and BACKUP's as its port takes them, reading its keys between
    # (a long game's took a second or more to make, and a key tapped meanwhile was lost): a
    # move made before the reply is out is not in it, and the reply is the one asked for.
    for command in ("LOG 200", "BACKUP"):
        p = _long_log_rig()
        asked = p.handle(command)
        p.pieces = True
        port = _port(p)
        port.write(p.handle(command))
        before = p.handle("BALANCES")
        p.handle("KEY 1 0 K +")
        assert p.handle("BALANCES") != before
        pieces = port.taken()
        assert len(pieces) > 2 and max(len(piece) for piece in pieces) < 512
        assert b"".join(pieces) == "".join(line + "\n" for line in asked).encode(), command
