"""The table's server on a café's network (docs/table.md, "Safe on a café's network"): nothing
without the game's secret, only its own files and the read-only stream, nothing that reaches
the unit's write side. Real sockets on 127.0.0.1, a real unit (a headless simulator's Host)
behind the simulator's own read-only line (simulator/table/link.py)."""

import http.client
import json
import os
import re
import select
import socket
import stat
import threading
import time

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from desktop import words
from desktop.ports import Ports
from desktop.simapp import SimApp
from simulator import options
from simulator.host import Host
from simulator.table import follow, link, server
from simulator.table.model import Table
from tests.waits import wait_for

PAGE_FILES = ("", "index.html", "table.js", "table.css", "words.json", "manifest.webmanifest",
              "sw.js", "icon-192.png", "icon-512.png")


class Loop:
    """The unit's own loop (SimApp on Ports, as headless runs it) in a thread of its own; the
    test speaks to it only through sockets."""

    def __init__(self, host, ports):
        self.app = SimApp(host.unit, host.clock, ports)
        self.ports = ports
        self.host = host
        self.stopping = False
        self.awake = threading.Event()  # cleared: the loop takes no turn (a loaded machine)
        self.awake.set()
        self.parked = threading.Event()  # ... and has stopped
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        poller = select.poll()
        watched = {}
        ready = []
        while not self.stopping:
            if not self.awake.is_set():
                self.parked.set()
                self.awake.wait()
                self.parked.clear()
            self.app.step(self.host.clock.now())
            self.app.io(ready)
            for pollable, key, want in self.ports.wants():
                if watched.get(key) != want:
                    poller.register(pollable, want)
                    watched[key] = want
            ready = poller.poll(20)

    def stop(self):
        self.stopping = True
        self.awake.set()
        self.thread.join(5)


@pytest.fixture
def unit():
    host = Host(options.parse(["--virtual-clock"]))
    ports = Ports()
    client = link.attach(host, ports)
    loop = Loop(host, ports)
    host.loop = loop
    yield host, client
    loop.stop()


@pytest.fixture
def served(unit):
    host, client = unit
    table = Table(ping_ms=200)
    given = [client]
    feed = follow.Follower(table, lambda: given.pop() if given else (_ for _ in ()).throw(
        follow.Lost("once"))).start()
    srv = server.TableServer(server.Site(table, server.new_secret()), "127.0.0.1", 0).start()
    deadline = time.monotonic() + 5
    while table.whole()["unit"] != "live":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    yield srv, table, host
    feed.stop()
    srv.stop()


def get(srv, path, method="GET", body=None):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
    c.request(method, path, body=body)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r, data


def test_nothing_is_served_without_the_secret(served):
    srv, _, _ = served
    s = srv.site.secret
    near = s[:-1] + ("A" if s[-1] != "A" else "B")
    for path in ("/", "/index.html", "/stream", "/table.js", "/words.json", "/sw.js",
                 "/%s/" % near, "/%sx/" % s, "/x%s/" % s, "/%s/" % s[:-1],
                 "/%s/" % "".join("%%%02X" % ord(c) for c in s), "/../%s/" % s,
                 "/%s/" % s.upper() if s.upper() != s else "/nope/"):
        r, data = get(srv, path)
        assert (r.status, data) == (404, server.NOT_FOUND), path
        assert r.getheader("Server") == "bank-table"  # which Python serves it: not said


def test_behind_the_secret_only_the_pages_own_files_and_its_stream(served):
    srv, _, _ = served
    s = srv.site.secret
    for name in PAGE_FILES:
        r, data = get(srv, "/%s/%s" % (s, name))
        assert r.status == 200 and data, name
        assert r.getheader("X-Content-Type-Options") == "nosniff"
        assert r.getheader("Referrer-Policy") == "no-referrer"
        assert "connect-src 'self'" in r.getheader("Content-Security-Policy")
    r, _ = get(srv, "/" + s)
    assert r.status == 301 and r.getheader("Location") == "/%s/" % s
    assert r.getheader("Referrer-Policy") == "no-referrer"  # the secret is in its Location
    for name in ("server.py", "model.py", "page/", "page/table.js", "../model.py",
                 "%2e%2e/model.py", "..%2fmodel.py", "table.js/", "index.html?x=/../..",
                 ".", "stream/", "words.json/../index.html", "__init__.py"):
        r, data = get(srv, "/%s/%s" % (s, name))
        if name.startswith("index.html?"):
            assert r.status == 200  # the query is not a path
            continue
        assert (r.status, data) == (404, server.NOT_FOUND), name


def test_no_request_reaches_the_unit_and_only_get_and_head_are_answered(served):
    srv, table, host = served
    s = srv.site.secret
    before = table.whole()
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in ("/%s/" % s, "/%s/stream" % s, "/%s/feed" % s, "/table/feed", "/"):
            r, data = get(srv, path, method, b"KEY 1M+\n")
            assert (r.status, data) == (404, server.NOT_FOUND), (method, path)
    r, data = get(srv, "/%s/index.html" % s, "HEAD")
    assert r.status == 200 and data == b""
    # Each request was answered before the next: one that reached the unit had moved it by
    # now, and a unit that did not move gives the table nothing to follow.
    assert host.unit.ledger.seq == 0
    assert table.whole()["balances"] == before["balances"] and table.whole()["log"] == []


def test_what_http_server_refuses_itself_carries_the_tables_headers_and_no_page(served):
    # A method with no name http.server knows, a URL or a header too long, a request line it
    # cannot read: the table's answer too (docs/table.md), never http.server's HTML page.
    srv, _, _ = served
    s = srv.site.secret
    long = "x" * 70000
    for request, status in (("BREW /%s/ HTTP/1.1\r\n\r\n" % s, 404),
                            ("GET /%s HTTP/1.1\r\n\r\n" % long, 414),
                            ("GET / HTTP/1.1\r\nX: %s\r\n\r\n" % long, 431),
                            ("GET / HTTP/2.0\r\n\r\n", 505),
                            ("GET / HTTP/x\r\n\r\n", 400)):
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as c:
            c.sendall(request.encode())
            got = b""
            while True:
                b = c.recv(65536)
                if not b:
                    break
                got += b
        assert b"<html" not in got.lower(), got
        if status in (505, 400):
            # A request line it cannot read is answered as HTTP/0.9 was: no status line, no
            # headers, only the few bytes.
            assert got == b"%d\n" % status, got
            continue
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.") and b" %d " % status in head.split(b"\r\n")[0], got
        assert b"X-Content-Type-Options: nosniff" in head, got


def test_the_line_the_simulator_gives_its_table_refuses_every_write(unit):
    host, client = unit
    sock = client.sock
    sock.settimeout(5)
    f = sock.makefile("rwb")
    writes = ("KEY 1 M +", "HOLD C 3000", "INSERT L 1", "REMOVE L", "ADVANCE 5000",
              "NAME 1 Mallory", "SET BALANCE 1 99000000", "SET SOUND 0", "NEWGAME",
              "RESTORE PREVIOUS", "MAINT", "BACKUP", "GAMES", "key 5", "  KEY\t1M+")
    for line in writes:
        f.write(line.encode() + b"\n")
        f.flush()
        got = f.readline().decode()
        assert got.startswith("ERR read-only"), (line, got)
    f.write(b"BALANCES\nNAMES\nLOG 5\n")
    f.flush()
    assert json.loads(f.readline()[3:]) == {str(c): 15000000 for c in range(1, 7)}
    assert json.loads(f.readline()[3:])["1"] is None
    assert json.loads(f.readline()[3:]) == []
    assert host.unit.ledger.seq == 0 and host.unit.slots == {"L": None, "R": None}


def sse(srv, timeout=5):
    """A phone's stream: yields (event, data) as they come."""
    sock = socket.create_connection(("127.0.0.1", srv.port), timeout=timeout)
    sock.sendall(b"GET /%s/stream HTTP/1.1\r\nHost: x\r\n\r\n" % srv.site.secret.encode())
    f = sock.makefile("rb")
    status = f.readline()
    assert b" 200 " in status, status
    while f.readline() not in (b"\r\n", b""):
        pass
    kind = None
    for raw in f:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            yield kind, line[6:]


def test_a_phone_hears_the_whole_game_then_each_change_and_pings(served):
    srv, table, host = served
    phone = sse(srv)
    kind, data = next(phone)
    view = json.loads(data)
    assert kind == "snapshot" and view["unit"] == "live" and view["log"] == []
    assert view["shown"]["4"] == "15 M"
    kind, data = next(phone)
    assert kind == "ping"  # nothing moved for a ping's time: the phone still hears it


def test_the_table_waits_out_a_slow_turn_of_its_own_units_loop(unit, monkeypatch):
    """A reply from the simulator's own loop that comes later than a unit over a wire would be
    waited for is not a lost unit: the phones keep the game live, and hear the next move. (The
    line is given once per loop: a table that let it go would say "gone" until a restart.)"""
    host, client = unit
    monkeypatch.setattr(follow.LineClient, "timeout", 0.05)
    table = Table(ping_ms=200)
    given = [client]
    feed = follow.Follower(table, lambda: given.pop() if given else (_ for _ in ()).throw(
        follow.Lost("once")), poll_ms=10).start()
    try:
        wait_for(lambda: table.whole()["unit"] == "live")
        host.loop.awake.clear()
        assert host.loop.parked.wait(5)
        time.sleep(0.15)  # the table's polls wait three times as long as a wire's reply would
        host.unit.set_balance(2, 20000000, via="serial")
        host.loop.awake.set()
        wait_for(lambda: table.whole()["balances"].get("2") == 20000000)
        assert table.whole()["unit"] == "live"
    finally:
        feed.stop()


def test_no_more_phones_than_the_table_takes(served):
    srv, table, _ = served
    table.most = 1
    first = sse(srv)
    next(first)
    r, _ = get(srv, "/%s/stream" % srv.site.secret)
    assert r.status == 503 and r.getheader("Retry-After") == "5"


def test_a_flood_of_idle_connections_holds_no_more_than_the_server_takes(served):
    # Each held a thread and a file: past the process's files, the store's read as damaged
    srv, _, _ = served
    srv.most = 4
    idle = [socket.create_connection(("127.0.0.1", srv.port), timeout=5) for _ in range(4)]
    try:
        extra = socket.create_connection(("127.0.0.1", srv.port), timeout=5)  # accepted 5th
        assert extra.recv(1) == b""  # closed at once, not held until the 30 s timeout
        extra.close()
    finally:
        for s in idle:
            s.close()
    deadline = time.monotonic() + 5
    while True:  # the idle ones gone, a phone is served again
        try:
            r, _ = get(srv, "/%s/" % srv.site.secret)
            break
        except (http.client.HTTPException, ConnectionError):
            assert time.monotonic() < deadline
            time.sleep(0.01)
    assert r.status == 200


def test_the_page_says_only_words_of_both_languages():
    files = server.page_files()
    got = json.loads(files["words.json"][0])
    assert sorted(got) == ["en", "fr"] and sorted(got["en"]) == sorted(got["fr"])
    html = files["index.html"][0].decode()
    script = files["table.js"][0].decode()
    said = set(re.findall(r'data-say="([\w.-]+)"', html))
    said |= set(re.findall(r'say\("([\w.-]*\w)"', script))
    said |= {"deal." + p for p in ("running", "ending", "done")}
    assert said and said <= set(got["en"]), said - set(got["en"])
    for sid in said:
        assert got["fr"][sid] == words.TEXTS["fr"][sid]  # the window's words, not copies


def test_the_secret_is_kept_with_the_game_and_new_without_one(tmp_path):
    a = server.kept_secret(str(tmp_path))
    assert server.kept_secret(str(tmp_path)) == a and len(a) >= 16
    path = os.path.join(str(tmp_path), server.SECRET_FILE)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # no other user reads the link
    assert server.kept_secret(None) != server.kept_secret(None)
    with open(path, "w") as f:
        f.write("../../etc\n")  # not a secret the server made: a new one
    b = server.kept_secret(str(tmp_path))
    assert b != a and re.fullmatch(r"[\w-]{16,}", b)


def test_a_secret_that_cannot_be_kept_is_said_so(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("")  # a file where the folder would be: nothing can be kept in it
    a = server.kept_secret(str(blocked / "state"))
    assert re.fullmatch(r"[\w-]{16,}", a)
    assert capsys.readouterr().err == (
        "the table's link is not kept in %s (Not a directory): each run gives a new one\n"
        % (blocked / "state"))


def test_a_line_nested_too_deep_to_read_is_a_unit_lost_not_a_follower_dead():
    # The phones are told the unit is gone (and it is followed again), never left "live" with
    # what a dead follower last read.
    deep = "[" * 5000 + "]" * 5000
    for bad in (lambda: follow.event_line("! tone " + deep), lambda: follow.reply("OK " + deep)):
        with pytest.raises(follow.Lost):
            bad()



def test_the_page_is_served_on_an_ipv6_address_of_this_machine(tmp_path):
    # --web --host ::1: an address this machine has, IPv6 as the table's server takes it.
    from simulator import web

    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    (tmp_path / "index.html").write_text("<p>unit</p>")
    srv = web.server(str(tmp_path), 0, "::1")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        c = http.client.HTTPConnection("::1", srv.server_address[1], timeout=5)
        c.request("GET", "/")
        r = c.getresponse()
        assert r.status == 200 and r.read() == b"<p>unit</p>"
        c.close()
    finally:
        srv.shutdown()
        srv.server_close()
