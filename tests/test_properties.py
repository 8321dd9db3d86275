"""Property tests of the protocol (docs/protocol.md): whatever a host sends, every line
gets exactly one reply, and a refused line changes nothing."""

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from harness import cut_lines, proto_rig
from protocol import LineReader

WORDS = ["KEY", "HOLD", "INSERT", "REMOVE", "STATE", "BALANCES", "LOG", "ADVANCE", "EVENTS",
         "HELLO", "SET", "MAINT", "BACKUP", "RESTORE", "NEWGAME", "L", "R", "0", "1", "7", "C",
         "DEAL", "+", "-", "K", "M", ".", "150K", "ON", "OFF", "-5", "99999999999999", "x"]

lines = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join),
    st.binary(max_size=250).filter(lambda b: b"\n" not in b).map(lambda b: b.decode("latin-1")),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, min_size=1, max_size=12))
@example(batch=["OK", "err x", "! txn {}", "\tOK STATE", "KEY 1"])
def test_one_reply_per_line_and_refusals_change_nothing(batch):
    r, p = proto_rig()
    rd = LineReader()
    for text in batch:
        raw = text.encode("latin-1")
        got = cut_lines(rd, raw + b"\n")
        assert len(got) == 1
        before = (p.handle("STATE"), p.handle("BALANCES"), p.handle("LOG 200"))
        out = p.handle(got[0])
        replies = [x for x in out if not x.startswith("! ")]
        if text.strip(" \t\r") == "" and len(raw) <= 200:
            assert replies == []
            continue
        first = text.replace("\t", " ").replace("\r", "").split(" ")
        first = [w for w in first if w][:1]
        if first and first[0].upper() in ("OK", "ERR", "!"):
            # The unit's own line, echoed back by a terminal: answered by nothing
            # (docs/protocol.md), and nothing changes.
            assert replies == [], (text, out)
            assert (p.handle("STATE"), p.handle("BALANCES"), p.handle("LOG 200")) == before
            continue
        assert len(replies) == 1, (text, out)
        reply = replies[0]
        assert reply == "OK" or reply.startswith("OK ") or reply.startswith("ERR ")
        assert all(32 <= ord(c) < 127 for c in reply)
        if reply.startswith("ERR "):
            code = reply[4:].split(" ")[0]
            assert code and code == code.lower()
            assert (p.handle("STATE"), p.handle("BALANCES"), p.handle("LOG 200")) == before


MOVES = ["KEY 150K+", "KEY 2M-", "KEY M", "KEY C", "INSERT L 1", "INSERT R 2", "INSERT L 3",
         "REMOVE L", "REMOVE R", "HOLD C 3000", "HOLD C 100", "NEWGAME", "RESTORE PREVIOUS",
         "RESTORE GAME 1", "SET BALANCE 2 5000", "SET BALANCE 1 0", "SET PROFILE classic",
         "SET PROFILE world", "KEY 500+", "ADVANCE 1500", "GAMES"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(MOVES), lines), min_size=1, max_size=25))
def test_the_events_alone_rebuild_balances(batch):
    # docs/protocol.md, "Events": every change of money carries the balances after it
    import eventplay

    r, p = proto_rig()
    r.unit.maintenance = True
    p.handle("EVENTS ON")
    host = eventplay.Follower(eventplay.reply_json(p.handle("BALANCES")))
    rd = LineReader()
    for text in batch:
        for line in cut_lines(rd, text.encode("latin-1") + b"\n"):
            for x in p.handle(line):
                host.take(x)
            assert host.bal == eventplay.reply_json(p.handle("BALANCES")), (text, batch)
