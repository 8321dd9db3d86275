"""The feed of the page that is itself a unit (desktop/reads.py's TableFeed, docs/table.md):
what the table of the simulator serving the page has not heard yet, from the page's own
Protocol, asking only what the table reads. Under CPython and the MicroPython unix port (the
page runs it in MicroPython's webassembly port)."""

from desktop.reads import READS, WHOLE, TableFeed
from harness import Rig
from protocol import Protocol


def feed():
    r = Rig(store=None)
    return r, TableFeed(r.unit, r.clock), Protocol(r.unit, r.clock)


def asked(lines):
    return [command for command, _ in lines if command != "!"]


def test_the_first_lines_are_the_whole_game_then_only_what_changed():
    r, f, host = feed()
    first = f.lines(True, [None] * 6)
    assert asked(first) == list(WHOLE)
    assert [line[:3] for c, line in first if c != "!"] == ["OK "] * len(WHOLE)
    assert f.lines(False, [None] * 6) == []  # nothing moved: nothing to say
    host.handle("INSERT L 2")
    host.handle("KEY 1M+")  # B4
    got = f.lines(False, [None] * 6)
    events = [line for c, line in got if c == "!"]
    assert [e.split(" ")[1] for e in events if "tone" not in e] == ["txn"]
    assert '"balances": {"2": 16000000}' in [e for e in events if "txn" in e][0]
    assert asked(got) == []  # the state the table shows did not change


def test_a_state_the_table_shows_or_a_name_is_said_when_it_changes():
    r, f, host = feed()
    f.lines(True, [None] * 6)
    host.handle("KEY DEAL")  # B13: the deal timer runs
    assert asked(f.lines(False, [None] * 6)) == ["STATE"]
    assert asked(f.lines(False, ["Ann"] + [None] * 5)) == ["NAMES"]
    assert asked(f.lines(False, ["Ann"] + [None] * 5)) == []


def test_a_game_brought_back_is_sent_whole():
    # B11: a kept game restored brings its own history, which no event carries.
    r, f, host = feed()
    f.lines(True, [None] * 6)
    host.handle("INSERT L 1")
    host.handle("KEY 1M+")
    host.handle("REMOVE L")
    host.handle("HOLD C 3000")
    r.unit.maintenance = True  # as DEAL held 3 s on the keypad leaves it
    gid = host.handle("GAMES")[-1].split('"id": ')[1].split(",")[0]
    assert host.handle("RESTORE GAME " + gid)[-1].startswith("OK")
    assert asked(f.lines(False, [None] * 6)) == list(WHOLE)


def test_it_asks_nothing_but_the_tables_reads():
    r, f, host = feed()
    for command in asked(f.lines(True, ["Zo\u00eb"] * 6)):
        assert command.split(" ")[0] in READS
    f.stop()
    host.handle("INSERT L 3")
    host.handle("KEY 1M+")
    assert f.protocol.pending == []  # stopped: its events are kept no more
