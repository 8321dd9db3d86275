"""The table's feeds: a unit followed through its own protocol, read-only (docs/table.md).

- `Follower` follows a unit over a line: the simulator's own unit over a socket pair
  (simulator/table/link.py), or a real one over USB serial through host_tools.Bank (`bank
  table`, host_tools/table.py). It says `EVENTS ON`, reads the whole game (HELLO, STATE,
  BALANCES, LOG, NAMES), then takes the events as they come (`! txn` carries the balances it
  left) and asks STATE again now and then, and at once after a tone (the deal timer and
  maintenance have no event of their own). A line that goes is the unit gone (the phones say
  so); it tries again every second and reads the whole game anew when the unit is back.
- `PageFeed` takes what the page that is itself a unit posts to the simulator serving it
  (`--web`): the same replies and events, produced by the page's own Protocol.

Either way only the commands of READS (desktop/reads.py) are ever sent (`ask` refuses any
other), and the line the simulator gives its table refuses the others too (link.py): nothing a
phone does, and nothing here, reaches a command that changes the unit.
"""

import collections
import json
import select
import sys
import threading
import time

from desktop.reads import READS, WHOLE
from simulator.table.model import (Bad, checked_event, checked_names, checked_night,
                                   checked_snapshot, checked_state)


class Lost(Exception):
    """The line to the unit is gone, or it answers what no unit would."""


def reply(line):
    """(ok, payload) of a reply line: (True, None) for a bare OK, (False, code) for ERR."""
    if line == "OK":
        return True, None
    if line.startswith("OK "):
        try:
            return True, json.loads(line[3:])
        except (ValueError, RecursionError):
            raise Lost("a reply that does not parse: %r" % line[:80]) from None
    if line.startswith("ERR"):
        return False, (line.split(" ") + [""])[1]
    raise Lost("not a reply: %r" % line[:80])


def event_line(line):
    """(type, data) of an event line `! <type> <json>`."""
    parts = line[2:].split(" ", 1)
    try:
        return parts[0], json.loads(parts[1]) if len(parts) > 1 else None
    except (ValueError, RecursionError):
        raise Lost("an event that does not parse: %r" % line[:80]) from None


def ask(client, command):
    """A read-only command's (ok, payload); anything else is refused here, before a byte goes."""
    if command.split(" ")[0].upper() not in READS:
        raise ValueError("the table only reads: %s is not sent" % command.split(" ")[0])
    return client.ask(command)


class LineClient:
    """The protocol over a socket: `ask(command)` -> (ok, payload), the events that came
    before the reply kept for `next_event(timeout)` -> (type, data) or None. Lost when the
    socket goes, or no reply comes within `timeout` seconds (None: however long it takes)."""

    timeout = 5.0

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.events = collections.deque()

    def _line(self, timeout):
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                return None
            try:
                ready, _, _ = select.select([self.sock], [], [], left)
                if not ready:
                    return None
                got = self.sock.recv(65536)
            except (OSError, ValueError) as e:
                raise Lost("the line to the unit broke: %s" % e) from None
            if not got:
                raise Lost("the unit closed the line")
            self.buf += got
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def ask(self, command):
        try:
            self.sock.sendall(command.encode() + b"\n")
        except OSError as e:
            raise Lost("the line to the unit broke: %s" % e) from None
        while True:
            line = self._line(self.timeout)
            if line is None:
                raise Lost("no reply to %s within %.0f s" % (command, self.timeout))
            if line.startswith("! "):
                self.events.append(event_line(line))
            elif line:
                return reply(line)

    def next_event(self, timeout):
        if self.events:
            return self.events.popleft()
        line = self._line(timeout)
        if line is None or not line:
            return None
        if not line.startswith("! "):
            raise Lost("a line that is no event: %r" % line[:80])
        return event_line(line)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# What a unit with no good copy of its game (Err6) refuses to read stands for: no balances to
# report, no log (B17).
ERR6 = {"BALANCES": None, "LOG": []}


def read_whole(table, client):
    """HELLO, STATE, BALANCES, LOG and NAMES, read and handed to the table as one snapshot;
    the events that came meanwhile stay queued in the client, to be taken after it."""
    got = {}
    for command in WHOLE:
        ok, payload = ask(client, command)
        word = command.split(" ")[0]
        if not ok and payload == "no-game" and word in ERR6:
            got[word] = ERR6[word]
            continue
        if not ok and word != "NAMES":  # a unit without the NAMES extension has no names
            raise Lost("the unit refused %s: %s" % (command, payload))
        got[word] = payload if ok else None
    try:
        table.snapshot(got["HELLO"], got["STATE"], got["BALANCES"], got["LOG"], got["NAMES"])
    except Bad as e:
        raise Lost("the unit's answers are not a bank unit's: %s" % e) from None


class Follower:
    """A thread that keeps `table` what the unit says. connect() gives a client (LineClient,
    or host_tools/table.py's Bank client) or raises Lost; called again whenever the line goes.
    STATE is asked every poll_ms (and after a tone), NAMES every names_ms (None: only with the
    whole game: a real unit's names change only by a host, and `bank table` is its host)."""

    def __init__(self, table, connect, poll_ms=400, names_ms=2000, retry_ms=1000):
        self.table = table
        self.connect = connect
        self.poll_ms = poll_ms
        self.names_ms = names_ms
        self.retry_ms = retry_ms
        self.stopping = threading.Event()
        self.thread = None
        self.client = None

    def start(self):
        self.thread = threading.Thread(target=self.run, name="table-follower", daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()
        client = self.client
        if client is not None:
            client.close()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(5)

    def run(self):
        while not self.stopping.is_set():
            try:
                self.client = self.connect()
            except Lost:
                self.client = None
            if self.client is not None:
                try:
                    self._follow(self.client)
                except Lost:
                    pass
                except Exception as e:  # noqa: BLE001 - whatever a unit says, phones are told
                    sys.stderr.write("table: the unit's line failed (%s: %s); following it "
                                     "again\n" % (type(e).__name__, str(e)[:120]))
                finally:
                    self.client.close()
                    self.client = None
            if self.stopping.is_set():
                return
            self.table.lost()
            self.stopping.wait(self.retry_ms / 1000.0)

    def _follow(self, client):
        ask(client, "EVENTS ON")
        read_whole(self.table, client)
        now = time.monotonic()
        poll_at = now + self.poll_ms / 1000.0
        names_at = None if self.names_ms is None else now + self.names_ms / 1000.0
        while not self.stopping.is_set():
            ev = client.next_event(max(0.0, poll_at - time.monotonic()))
            if ev is not None:
                kind, data = ev
                try:
                    again = self.table.event(kind, data)
                except Bad as e:
                    raise Lost("an event no bank unit sends: %s" % e) from None
                if again:
                    read_whole(self.table, client)
                if kind == "tone":  # a deal's step or maintenance may have come with it
                    poll_at = time.monotonic()
                continue
            now = time.monotonic()
            if now >= poll_at:
                self._poll(client, "STATE", self.table.polled_state)
                poll_at = now + self.poll_ms / 1000.0
            if names_at is not None and now >= names_at:
                self._poll(client, "NAMES", self.table.polled_names)
                names_at = now + self.names_ms / 1000.0

    def _poll(self, client, command, keep):
        ok, payload = ask(client, command)
        if ok:
            try:
                keep(payload)
            except Bad as e:
                raise Lost("the unit's %s is not a bank unit's: %s" % (command, e)) from None


class PageFeed:
    """What the page that is itself a unit posts (`--web`): {"page": its id, "lines": [[command,
    reply line] or ["!", event line], ...]}, produced by the page's own Protocol (web/body.py).
    The first page to post is the table's unit; another is told it is a unit of its own while
    that one keeps posting (every few seconds at least); the unit is gone when its page has
    been silent for gone_ms, or said goodbye. The table follows one game, the first page's
    (the unit's link, as `--web` prints it): a page on another (`?game=`) is never taken, or a
    tab on another game took the table over once the unit's page was closed, and every phone
    showed that game's balances under the same link."""

    def __init__(self, table, gone_ms=10000):
        self.table = table
        self.gone_ms = gone_ms
        self.lock = threading.Lock()
        self.page = None
        self.game = None  # the game the table follows: the first page's
        self.heard = 0.0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="table-page-feed", daemon=True)
        self.thread.start()

    def post(self, body):
        """The page's post, checked: {"unit": True} if its page is the table's unit (what it
        said is kept; "whole": True asks it for the whole game next, which a page new to the
        table, or back from silence, must send), {"unit": False} if another page is. Bad when
        it is not what a page posts, and nothing kept."""
        try:
            got = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise Bad("not JSON") from None
        if not isinstance(got, dict) or not isinstance(got.get("page"), str) or \
                not isinstance(got.get("lines", []), list):
            raise Bad("not a page's post")
        page = got["page"][:64]
        game = got.get("game", "")
        if not isinstance(game, str):
            raise Bad("not a page's post")
        try:
            events, replies = self._read(got.get("lines", []))  # a bad line: nothing is kept
            self._check(events, replies)  # ... nor what came before it
        except Lost as e:
            raise Bad(str(e)) from None
        with self.lock:
            if self.game is not None and game[:64] != self.game:
                return {"unit": False, "why": "game"}  # never: it need not ask again
            now = time.monotonic()
            if self.page is not None and page != self.page and \
                    now - self.heard < self.gone_ms / 1000.0:
                return {"unit": False}
            if got.get("bye"):
                if page == self.page:
                    self.page = None
                    self.table.lost()
                return {"unit": True}
            self.page = page
            self.game = game[:64]
            self.heard = now
            try:
                self._keep(events, replies)
            except Lost as e:
                raise Bad(str(e)) from None
            return {"unit": True, "whole": self.table.unit != "live"}

    def _read(self, lines):
        """(the events, {command: reply payload}) a post's lines say; Bad at one that is not a
        page's line."""
        events = []
        got = {}
        for item in lines:
            if not (isinstance(item, list) and len(item) == 2 and
                    all(isinstance(x, str) for x in item)):
                raise Bad("not a line")
            command, line = item
            if command == "!":
                events.append(event_line(line))
                continue
            word = command.split(" ")[0].upper()
            if word not in READS:
                raise Bad("%s is not a command the table reads" % word)
            ok, payload = reply(line)
            if not ok and payload == "no-game" and word in ERR6:
                got[word] = ERR6[word]
                continue
            got[word] = payload if ok else None
        return events, got

    def _check(self, events, got):
        """Bad if anything _keep would keep is not what a unit sends: a post is kept whole or
        not at all."""
        for kind, data in events:
            checked_event(kind, data)
        if "HELLO" in got:
            checked_snapshot(got["HELLO"], got.get("STATE"), got.get("BALANCES"),
                             got.get("LOG"), got.get("NAMES"))
            return
        if got.get("STATE") is not None:
            checked_state(got["STATE"])
            checked_night(got["STATE"])
        if got.get("NAMES") is not None:
            checked_names(got["NAMES"])

    def _keep(self, events, got):
        for event in events:
            self.table.event(*event)
        if "HELLO" in got:
            self.table.snapshot(got["HELLO"], got.get("STATE"), got.get("BALANCES"),
                                got.get("LOG"), got.get("NAMES"))
            return
        if got.get("STATE") is not None:
            self.table.polled_state(got["STATE"])
        if got.get("NAMES") is not None:
            self.table.polled_names(got["NAMES"])

    def _watch(self):
        while not self.stopping.wait(0.25):
            with self.lock:
                if self.page is not None and \
                        time.monotonic() - self.heard >= self.gone_ms / 1000.0:
                    self.page = None
                    self.table.lost()

    def stop(self):
        self.stopping.set()
