"""What every phone at the table shows (simulator/table/model.py, docs/table.md), kept from the
unit's own protocol: the firmware's Protocol on a real unit (a headless simulator's Host, its
virtual clock), read as the table's feeds read it, compared with what the unit says when
asked (BALANCES, LOG). Money is the unit's: the table's balances are those of BALANCES after
every command, its history that of LOG, whatever order the events come in (B17: nothing lost,
nothing invented)."""

import json
import random

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from desktop.reads import WHOLE
from simulator import options
from simulator.host import Host
from simulator.table import follow
from simulator.table.model import CLOSED, Bad, Table
from tests.waits import wait_for


class Unit:
    """A simulated unit and the table's view of it: `do(line)` is a host's command (its
    events reach the table's own line, as on a serial port), `client` that line."""

    def __init__(self, *extra):
        self.host = Host(options.parse(["--virtual-clock", "--seed", "7", *extra]))
        self.host_line = self.host.protocol  # the banker's host tool
        self.client = ProtocolClient(self.host)

    def do(self, line):
        out = self.host_line.handle(line)
        assert not out[-1].startswith("ERR"), (line, out)
        return out[-1]

    def ask(self, line):
        reply = self.host_line.handle(line)[-1]
        return json.loads(reply[3:])


class ProtocolClient:
    """The table's line to the unit as follow.py's clients give it (ask, next_event), on a
    Protocol of its own: its events kept in order until taken."""

    def __init__(self, host):
        from protocol import Protocol

        self.proto = Protocol(host.unit, host.clock)
        self.events = []
        self.sent = []

    def ask(self, command):
        self.sent.append(command)
        out = self.proto.handle(command)
        self.events += [follow.event_line(line) for line in out[:-1]]
        return follow.reply(out[-1])

    def take(self):
        self.events += [follow.event_line(line) for line in self.proto.drain()]
        got, self.events = self.events, []
        return got

    def close(self):
        pass


def followed(unit):
    table = Table()
    follow.ask(unit.client, "EVENTS ON")
    follow.read_whole(table, unit.client)
    return table


def take_events(unit, table):
    for kind, data in unit.client.take():
        if table.event(kind, data):
            follow.read_whole(table, unit.client)


def as_logged(view):
    """The history as a phone has it, in LOG's terms (without what the table adds to show it,
    and without `via`, which the phones do not say)."""
    return [{k: v for k, v in t.items() if k not in ("shown", "shown_balances")}
            for t in view["log"]]


def logged(unit):
    return [{k: v for k, v in t.items() if k != "via"} for t in unit.ask("LOG 200")]


def play(unit, rng, n):
    """n random moves of money at the unit, as a banker's host tool makes them: payments,
    transfers, Go, undos (B4-B10); refused keys too."""
    for _ in range(n):
        a, b = rng.sample(range(1, 7), 2)
        kind = rng.choice(("receive", "pay", "transfer", "go", "undo", "refused"))
        amount = "%dK" % rng.choice((10, 50, 150, 500, 990))
        if kind == "receive":
            unit.do("INSERT L %d" % a), unit.do("KEY " + amount + "+"), unit.do("REMOVE L")
        elif kind == "pay":
            unit.do("INSERT R %d" % a), unit.do("KEY " + amount + "-"), unit.do("REMOVE R")
        elif kind == "transfer":
            unit.do("INSERT R %d" % a), unit.do("INSERT L %d" % b)
            unit.do("KEY " + amount + "-"), unit.do("REMOVE L"), unit.do("REMOVE R")
        elif kind == "go":
            unit.do("INSERT L %d" % a), unit.do("KEY M"), unit.do("REMOVE L")
        elif kind == "undo":
            unit.do("INSERT L %d" % a), unit.do("KEY 20K+"), unit.do("KEY C")
            unit.do("REMOVE L")
        else:
            unit.do("INSERT R %d" % a), unit.do("KEY 20M-"), unit.do("REMOVE R")  # B8


def test_the_tables_balances_and_history_are_the_units_after_every_move():
    unit = Unit()
    table = followed(unit)
    rng = random.Random(5)
    for _ in range(60):
        play(unit, rng, 4)
        take_events(unit, table)
        view = table.whole()
        assert view["balances"] == unit.ask("BALANCES")
        assert as_logged(view) == logged(unit)
    assert len(table.whole()["log"]) > 150


def test_events_that_came_while_the_game_was_read_are_not_counted_twice():
    unit = Unit()
    table = Table()
    follow.ask(unit.client, "EVENTS ON")
    unit.do("INSERT L 2")
    unit.do("KEY 1M+")  # its `! txn` is queued for the table before the snapshot reads LOG
    follow.read_whole(table, unit.client)
    unit.do("KEY 1M+")
    take_events(unit, table)
    view = table.whole()
    assert [t["seq"] for t in view["log"]] == [1, 2]
    assert view["balances"] == unit.ask("BALANCES") and view["balances"]["2"] == 17000000


def test_events_the_unit_dropped_for_a_line_not_read_bring_the_whole_game_again():
    # A Pico drops the events a host leaves unread past its 32 lines and says how many
    # (docs/protocol.md, "A host that stops reading"): the phones read the game whole again.
    unit = Unit()
    table = followed(unit)
    unit.do("INSERT L 2")
    unit.do("KEY 1M+")
    unit.client.take()  # dropped on the way
    assert table.whole()["balances"]["2"] == 15000000
    assert table.event("lost", {"events": 3})
    follow.read_whole(table, unit.client)
    assert table.whole()["balances"] == unit.ask("BALANCES")
    assert as_logged(table.whole()) == logged(unit)


def test_a_new_game_starts_the_history_again_from_its_balances():
    # B11: every card back to the start; the phones' histories start again too.
    unit = Unit()
    table = followed(unit)
    play(unit, random.Random(1), 10)
    take_events(unit, table)
    unit.do("HOLD C 3000")
    take_events(unit, table)
    view = table.whole()
    assert view["log"] == [] and set(view["balances"].values()) == {15000000}
    assert view["shown"]["1"] == "15 M"
    unit.do("INSERT L 4"), unit.do("KEY 150K+")
    take_events(unit, table)
    assert as_logged(table.whole()) == logged(unit)


def test_a_game_brought_back_is_read_whole_again():
    # B11: a kept game restored brings its own history back, which no event carries.
    unit = Unit("--maintenance")
    play(unit, random.Random(2), 12)
    unit.do("HOLD C 3000")
    table = followed(unit)
    unit.do("INSERT L 1"), unit.do("KEY 2M+"), unit.do("REMOVE L")
    take_events(unit, table)
    gid = unit.ask("GAMES")[0]["id"]
    unit.do("RESTORE GAME %d" % gid)
    take_events(unit, table)
    view = table.whole()
    assert view["balances"] == unit.ask("BALANCES")
    assert as_logged(view) == logged(unit)
    assert len(view["log"]) > 12 and view["log"][-1]["kind"] == "restore"


def test_what_the_table_asks_the_unit_only_reads():
    unit = Unit()
    table = followed(unit)
    assert [c.split()[0] for c in unit.client.sent] == ["EVENTS"] + [w.split()[0] for w in WHOLE]
    with pytest.raises(ValueError):
        follow.ask(unit.client, "KEY 1M+")
    with pytest.raises(ValueError):
        follow.ask(unit.client, "name 1 Mallory")
    assert unit.client.sent[-1] == "NAMES" and table.whole()["balances"]["1"] == 15000000


def test_a_feed_that_sends_nonsense_changes_nothing():
    unit = Unit()
    table = followed(unit)
    before = table.whole()
    bad = [
        ("txn", {"seq": 9, "kind": "receive", "from": "bank", "to": 7, "amount": 5,
                 "balances": {"7": 5}}),
        ("txn", {"seq": 9, "kind": "receive", "from": "bank", "to": 1, "amount": -5,
                 "balances": {"1": 5}}),
        ("txn", {"seq": 9, "kind": "receive", "from": "bank", "to": 1, "amount": 5,
                 "balances": {"1": "lots"}}),
        ("newgame", {"profile": "world", "balances": {"1": 1}}),
        ("power", {"power": "dim"}),
        ("txn", {"seq": 9, "kind": "pot-in", "from": 1, "to": "pot", "amount": 5,
                 "balances": {"pot": -5}}),
        ("pot", {"pot": "full"}),
        ("clock", {"clock": {"minutes": 45, "left": 9, "running": "yes", "over": False}}),
        ("count", {"count": {"on": True, "cards": {"7": 1}, "ranking": [7]}}),
        ("count", ["on"]),
    ]
    for kind, data in bad:
        with pytest.raises(Bad):
            table.event(kind, data)
    with pytest.raises(Bad):
        table.snapshot({"device": "toaster"}, {"power": "on"}, {}, [])
    with pytest.raises(Bad):
        table.snapshot(unit.ask("HELLO"), unit.ask("STATE"), {"1": 5}, [])
    after = table.whole()
    assert after == before


def whole_now(unit):
    """The view of a table that reads the whole game now (its STATE, BALANCES, LOG)."""
    table = Table()
    follow.read_whole(table, ProtocolClient(unit.host))
    return table.whole()


def test_b19_b20_b22_game_night_on_the_phones_from_the_events_alone():
    # The pot's money, the clock's minutes and the count's ranking, kept from the events as
    # they come (no STATE asked after the first): each time what a table reading STATE now
    # shows, and the history with the pot's moves in it.
    unit = Unit("--pot", "on")
    table = followed(unit)

    def night(*lines):
        for line in lines:
            unit.do(line)
        take_events(unit, table)
        got = table.whole()
        assert got["night"] == whole_now(unit)["night"]
        assert got["balances"] == unit.ask("BALANCES") and as_logged(got) == logged(unit)
        return got["night"]

    assert night() == {"pot": 0, "pot_shown": "0", "clock": None, "count": None}
    got = night("INSERT R 2", "KEY 1M+", "REMOVE R")  # into the pot (B22)
    assert got["pot"] == 1000000 and got["pot_shown"] == "1 M"
    assert table.whole()["log"][-1]["to"] == "pot"
    assert night("INSERT L 4", "KEY +", "REMOVE L")["pot"] == 0  # collected whole
    assert night("INSERT R 5", "KEY 500K+", "REMOVE R")["pot_shown"] == "500 k"
    got = night("HOLD K 3000", "KEY 4 5 +", "KEY K")  # a 45-minute clock (B20)
    assert got["clock"] == {"minutes": 45, "min_left": 45, "running": True, "over": False}
    assert night("ADVANCE 60000")["clock"]["min_left"] == 44
    got = night("KEY C", "KEY K", "KEY -", "KEY K")  # woken, then the clock stopped
    assert got["clock"] == {"minutes": 45, "min_left": 44, "running": False, "over": False}
    got = night("KEY K +", "KEY K", "ADVANCE %d" % (44 * 60000))
    assert got["clock"] == {"minutes": 45, "min_left": 0, "running": False, "over": True}
    got = night("KEY C", "KEY 5")  # woken; the key after End starts the count (B19)
    assert got["count"] == {"on": True, "rows": []}
    got = night("INSERT L 3", "KEY 9M+", "REMOVE L", "INSERT L 6", "KEY 9M+", "REMOVE L",
                "INSERT R 2", "REMOVE R")
    assert got["count"]["rows"] == [[1, 3, 24000000, "24 M"], [1, 6, 24000000, "24 M"],
                                    [3, 2, 14000000, "14 M"]]  # a shared first place
    unit.host.unit.maintenance = True  # as DEAL held 3 s on the keypad leaves it
    got = night("SET BALANCE 2 30000000")  # a count follows its card's balance
    assert got["count"]["rows"][0] == [1, 2, 30000000, "30 M"]
    got = night("HOLD C 3000")  # a new game (B11): the pot empty, no clock, no count
    assert got == {"pot": 0, "pot_shown": "0", "clock": None, "count": None}


def test_the_units_state_is_said_switched_off_and_in_maintenance():
    unit = Unit()
    table = followed(unit)
    unit.do("ADVANCE 61000")  # B16: a minute with nothing
    take_events(unit, table)
    assert table.whole()["state"]["power"] == "off"
    unit.do("KEY C")
    take_events(unit, table)
    table.polled_state(unit.ask("STATE"))
    assert table.whole()["state"]["power"] == "on"
    unit.host.unit.maintenance = True  # as DEAL held 3 s on the keypad leaves it
    table.polled_state(unit.ask("STATE"))
    assert table.whole()["state"]["maintenance"] is True
    unit.do("KEY DEAL")  # B13: the deal timer
    table.polled_state(unit.ask("STATE"))
    assert table.whole()["state"]["deal"] == "running"


def test_every_phone_hears_every_change_in_order_and_can_tell_a_gap():
    unit = Unit()
    table = followed(unit)
    phones = [table.subscribe() for _ in range(3)]
    play(unit, random.Random(3), 5)
    take_events(unit, table)
    for sub in phones:
        got = []
        while True:
            msg = sub.get(0)
            if msg is None:
                break
            got.append(msg)
        kinds = [k for k, _, _ in got]
        vs = [v for _, v, _ in got]
        assert kinds[0] == "snapshot" and set(kinds[1:]) == {"update"}
        assert vs == list(range(vs[0], vs[0] + len(vs)))  # numbered one after the other
        last = json.loads(got[-1][2])
        assert last["balances"] == unit.ask("BALANCES")


def test_a_phone_that_reads_too_slowly_is_let_go_and_no_phone_past_the_most():
    from simulator.table import model

    table = Table(most=2)
    unit = Unit()
    follow.ask(unit.client, "EVENTS ON")
    follow.read_whole(table, unit.client)
    slow = table.subscribe()
    assert table.subscribe() is not None and table.subscribe() is None
    for _ in range(model.QUEUE_MAX + 1):
        table.polled_names({"1": "x" if _ % 2 else "y"})
    assert slow.get(0) is CLOSED  # it asks again, and gets the whole view


def test_the_unit_gone_is_said_and_the_view_back_when_it_answers():
    unit = Unit()
    table = followed(unit)
    table.lost()
    assert table.whole()["unit"] == "gone"
    assert table.whole()["balances"] == unit.ask("BALANCES")  # what it last gave, kept
    follow.read_whole(table, unit.client)
    assert table.whole()["unit"] == "live"


class Page:
    """The page that is itself a unit, as web/body.py runs it: its TableFeed's lines."""

    def __init__(self, unit):
        from desktop.reads import TableFeed

        self.unit = unit
        self.feed = TableFeed(unit.host.unit, unit.host.clock)

    def names(self):
        return [self.unit.ask("NAMES")[str(c)] for c in range(1, 7)]

    def whole(self):
        return self.feed.lines(True, self.names())

    def events(self):
        return self.feed.lines(False, self.names())


def post(feed, page, lines=(), **extra):
    return feed.post(json.dumps(dict({"page": page, "lines": list(lines)}, **extra)).encode())


def test_the_first_page_to_feed_is_the_tables_unit_and_another_is_a_unit_of_its_own():
    unit = Unit()
    table = Table()
    feed = follow.PageFeed(table, gone_ms=300)
    try:
        page = Page(unit)
        assert post(feed, "first", page.whole()) == {"unit": True, "whole": False}
        unit.do("INSERT L 3"), unit.do("KEY 1M+")
        assert post(feed, "first", page.events())["unit"] is True
        assert table.whole()["balances"] == unit.ask("BALANCES")
        assert post(feed, "second", Page(unit).whole()) == {"unit": False}
        assert table.whole()["balances"]["3"] == 16000000
        # the first page silent past gone_ms: its unit is gone, and the table says so
        wait_for(lambda: table.whole()["unit"] == "gone", 5)
        assert post(feed, "second") == {"unit": True, "whole": True}  # send it all, please
        assert post(feed, "second", Page(unit).whole())["whole"] is False
        assert post(feed, "second", bye=True) == {"unit": True}
        assert table.whole()["unit"] == "gone"
    finally:
        feed.stop()


def test_a_page_on_another_game_never_takes_the_table_over_even_with_the_unit_gone():
    # A tab on ?game=other took the table once the unit's page was closed: every phone showed
    # that game's balances under the same link.
    unit = Unit()
    table = Table()
    feed = follow.PageFeed(table)
    try:
        page = Page(unit)
        assert post(feed, "first", page.whole(), game="default")["unit"] is True
        unit.do("INSERT L 3"), unit.do("KEY 1M+")
        assert post(feed, "first", page.events(), game="default")["unit"] is True
        assert post(feed, "first", bye=True, game="default") == {"unit": True}
        assert table.whole()["unit"] == "gone"
        other = Page(Unit())
        assert post(feed, "other", other.whole(), game="other") == {"unit": False,
                                                                      "why": "game"}
        assert table.whole()["unit"] == "gone"
        assert table.whole()["balances"]["3"] == 16000000  # what the unit last gave
        assert post(feed, "first", page.whole(), game="default")["unit"] is True
    finally:
        feed.stop()


def test_a_page_with_no_good_copy_of_its_game_reports_no_balances_on_the_phones_b17():
    # The page that is the table's unit, in Err6: BALANCES and LOG refused (no-game). The phones
    # say so and show no balance, rather than keep the last ones.
    unit = Unit()
    table = Table()
    feed = follow.PageFeed(table)
    try:
        unit.do("INSERT L 3"), unit.do("KEY 1M+")
        page = Page(unit)
        assert post(feed, "p", page.whole())["unit"] is True
        assert table.whole()["balances"]["3"] == 16000000
        err6 = []
        for command, line in page.whole():
            if command.split(" ")[0] in ("BALANCES", "LOG"):
                line = "ERR no-game no good copy of the game"
            elif command == "STATE":
                st = json.loads(line[3:])
                st["display"] = {"text": "Err6", "k": False, "M": False}
                line = "OK " + json.dumps(st)
            err6.append([command, line])
        assert post(feed, "p", err6)["unit"] is True  # taken, not refused as no log
        got = table.whole()
        assert got["balances"] == {} and got["log"] == [], got
        assert got["state"]["no_game"] is True
    finally:
        feed.stop()


def test_a_page_that_posts_anything_but_the_tables_reads_is_refused():
    table = Table()
    feed = follow.PageFeed(table)
    try:
        for body in (b"not json", b"[]", json.dumps({"page": 5}).encode(),
                     json.dumps({"page": "p", "lines": [["KEY 5M+", "OK {}"]]}).encode(),
                     json.dumps({"page": "p", "lines": [["!", "! txn {nope"]]}).encode()):
            with pytest.raises(Bad):
                feed.post(body)
        assert table.whole()["unit"] == "waiting" and table.whole()["balances"] == {}
    finally:
        feed.stop()


def test_a_refused_post_keeps_nothing_and_takes_no_unit_slot():
    # docs/table.md: a post that is not a page's is refused and keeps nothing; an event before
    # its bad line is not kept, and the page that posted it is not the table's unit.
    unit = Unit()
    table = Table()
    feed = follow.PageFeed(table)
    try:
        before = table.whole()
        with pytest.raises(Bad):
            post(feed, "bad", [["!", '! power {"power": "off"}'], ["KEY 1", "OK"]])
        assert table.whole() == before and feed.page is None
        assert post(feed, "good", Page(unit).whole())["unit"] is True
    finally:
        feed.stop()


def test_a_post_whose_later_event_is_no_units_keeps_none_of_its_events():
    # docs/table.md: kept whole or not at all; a good txn before a bad one moved the phones'
    # balances, and a page posting that took the unit's place
    unit = Unit()
    table = Table()
    feed = follow.PageFeed(table, gone_ms=50)
    try:
        page = Page(unit)
        assert post(feed, "p1", page.whole())["unit"] is True
        before = table.whole()
        good = ('! txn {"seq": 9, "kind": "receive", "from": "bank", "to": 1, '
                '"amount": 84999999, "balances": {"1": 99999999}, "via": "key"}')
        bad = good.replace('"amount": 84999999', '"amount": -5')
        with pytest.raises(Bad):
            post(feed, "p1", [["!", good], ["!", bad]])
        after = table.whole()
        assert (after["balances"], after["log"]) == (before["balances"], before["log"])
        import time

        time.sleep(0.08)  # p1 silent past gone_ms: its place is free
        with pytest.raises(Bad):
            post(feed, "p2", [["!", '! power {"power": "off"}'], ["!", bad]])
        assert feed.page != "p2" and table.whole()["state"]["power"] == "on"
        assert post(feed, "p3", Page(unit).whole())["unit"] is True
    finally:
        feed.stop()
