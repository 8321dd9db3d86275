"""The simulated board's serial side: any number of ports, each with its own protocol.

The Pico has one USB port, which app.App serves itself; the simulator serves stdio, a pty or
TCP clients, the same protocol on each (desktop/simapp.py puts them in App's loop). Nothing a
client does can stall the unit or another client (docs/simulator.md, "Serving"):
- reads never wait for a newline: a half line sits in its LineReader (at most 200
  characters, docs/protocol.md) while the timers run; a longer line is skipped to its
  newline and answered `ERR line-too-long`, in bounded chunks, so a 2 MB line costs no more
  memory than a short one; a half line whose client goes (or whose input ends) is dropped
  unanswered, never acted on;
- TCP serves up to MAX_CLIENTS at once, each with its own protocol state (EVENTS ON is per
  client; a new one starts with events off) and its replies in order; when all are taken, one
  that has sent nothing for SILENT_S gives its place to the next;
- sends never block: a client's replies wait in its own queue; while more than OUT_PAUSE bytes
  wait, its further commands wait too (in the kernel), and a client that lets OUT_MAX bytes
  pile up (events it never reads) is disconnected;
- a TCP line that reads as HTTP (reads_as_http) cuts its connection at once, nothing after it
  read: a web page's request to 127.0.0.1 (a form, a fetch in no-cors mode) reaches the port
  too, and the lines of its body would otherwise be commands (Redis guards its port the same
  way).

A body waits for the ports as its loop allows (headless: select.poll; the terminal: select;
the window: Tk's file handlers): `wants()` says what to wait for, `io(ready)` does what came.
Never deployed; runs under CPython and the MicroPython unix port.
"""

import select
import sys
import time

from protocol import MAX_LINE, TOO_LONG, LineReader

IS_MICROPYTHON = sys.implementation.name == "micropython"

CHUNK = 4096  # bytes read from one client per turn
MAX_CLIENTS = 8
# A client that has sent nothing for this long gives its place to a new one when all are
# taken: a web page's browser opens idle connections ahead (preconnect) that never send a line
# the HTTP guard could see, and would hold every place from the banker's host tools.
SILENT_S = 3
if IS_MICROPYTHON:  # a heap of its own to keep (about 2 MB by default)
    OUT_PAUSE = 16 * 1024
    OUT_MAX = 128 * 1024
else:
    OUT_PAUSE = 64 * 1024
    OUT_MAX = 256 * 1024
IN = select.POLLIN
OUT = select.POLLOUT
GONE = select.POLLIN | select.POLLHUP | select.POLLERR
def reads_as_http(line):
    """A line (bytes; of a line too long, its first MAX_LINE bytes) that only an HTTP client
    sends: a request line, a method then its target (`POST / HTTP/1.1`, `PRI * HTTP/2.0`,
    `GET http://a/ HTTP/1.1`, `CONNECT a:443 HTTP/1.1`), or a `Host:` header (every request of
    a browser has one, before its body). No command of the protocol reads so: none has a
    second word that starts with / or * or holds ://, nor a third that starts with HTTP/ after
    a second that is no number."""
    if line[:5].lower() == b"host:":
        return True
    words = line.split()
    if len(words) < 2 or not words[0].isalpha():
        return False
    target = words[1]
    if target[:1] in (b"/", b"*") or b"://" in target:
        return True
    return len(words) == 3 and not target.isdigit() and words[2][:5].upper() == b"HTTP/"


def key_of(obj):
    """What poll reports for obj: an fd on CPython, the object itself on MicroPython."""
    if IS_MICROPYTHON or isinstance(obj, int):
        return obj
    return obj.fileno()


class Link:
    """One client. recv() gives bytes, b'' at the end of its input, None for nothing now;
    send(data) gives how many bytes it took (0: not now) or raises OSError (gone).
    A sticky link (a pty: one path that clients open in turn) is never let go: when its
    client goes, its half line and its queued replies are dropped and the next client finds it
    as new."""

    def __init__(self, proto, pollable, recv, send, close=None, sticky=False, present=None,
                 http_guard=False):
        self.proto = proto
        self.pollable = pollable  # what poll watches
        self.key = key_of(pollable)  # what poll reports for it
        self.recv = recv
        self.send = send
        self.close = close
        self.sticky = sticky
        # A sticky link's port may have no client at all (a pty nobody has open): present()
        # says whether one has come. While absent the link is not waited on (its port would
        # report a hang-up at every wait), its replies and events are dropped, and
        # Ports.recheck_ms says how soon to look again.
        self.present = present
        self.absent = present is not None and not present()
        self.reader = LineReader()
        self.out = b""
        self.pending = b""  # bytes read and not yet taken: its replies were backed up
        self.eof = False  # its input ended
        self.dropped = 0  # half lines dropped at the end of an input (a client gone)
        self.ended = False  # ... and all it sent is answered: closed once its replies are out
        self.http_guard = http_guard  # a TCP client: a line that reads as HTTP cuts it
        self.cut = False  # ... and one did: let go at once, nothing more read, answered or sent
        self.internal = False  # the simulator's own (its table's line): no TCP client's place
        self.since = time.time()  # when it came; it has sent nothing while silent
        self.silent = True

    def busy(self):
        """Its replies are backed up: its commands wait."""
        return len(self.out) > OUT_PAUSE

    def work(self):
        """Answer the lines in what was read, until its replies back up (a chunk of 4096
        bytes of `LOG 200` would be megabytes of replies)."""
        data = self.pending
        i = 0
        n = len(data)
        reader = self.reader
        push = reader.push
        guard = self.http_guard
        while i < n and len(self.out) <= OUT_PAUSE:
            if guard and len(reader.buf) == MAX_LINE and reads_as_http(bytes(reader.buf)):
                self._cut()  # a request line too long to end: its start says what it is
                return
            line = push(data[i])
            i += 1
            if line is not None:
                if guard and line is not TOO_LONG and reads_as_http(line):
                    self._cut()
                    return
                self.queue(self.proto.handle(line))
        self.pending = data[i:] if i < n else b""
        if self.eof and not self.pending and not self.ended:
            # A last line without its newline was never finished: it is not a command.
            if self.reader.partial():
                self.reader.drop()
                self.dropped += 1
            self.ended = True

    def _cut(self):
        sys.stderr.write("simulator: a TCP client sent a line that reads as HTTP (a web page?): "
                         "its connection is closed, nothing after that line was read\n")
        self.cut = self.eof = self.ended = True
        self.flush()  # the replies of the lines before it, as far as the client takes them now
        self.pending = self.out = b""
        self.reader.drop()

    def wants_input(self):
        return not self.eof and not self.pending and not self.busy()

    def queue(self, lines):
        if lines:
            self.out += ("\n".join(lines) + "\n").encode()

    def flush(self):
        """Send what the client takes now; False if it is gone."""
        while self.out:
            try:
                n = self.send(self.out[:CHUNK * 4])
            except OSError:
                return False
            if not n:
                break
            self.out = self.out[n:]
        return True


class Ports:
    """The clients, and the listening socket that brings new ones (accept() -> Link or None)."""

    recheck_ms = 50  # how soon to look again for a client on a port that has none

    def __init__(self, listener=None, accept=None):
        self.links = []
        self.listener = listener
        self.accept = accept
        self.listen_key = None if listener is None else key_of(listener)

    def clients(self):
        """How many places the clients take (MAX_CLIENTS): the simulator's own links take none."""
        n = 0
        for link in self.links:
            if not link.internal:
                n += 1
        return n

    def more(self):
        """A link has lines read and room for their replies: the loop must not sleep."""
        for link in self.links:
            if link.pending and not link.busy():
                return True
        return False

    def waiting(self):
        """A port has no client yet: the body must look again within recheck_ms."""
        for link in self.links:
            if link.absent:
                return True
        return False

    def drain(self):
        """The events of keys, cards and timers, to every client that asked for them."""
        for link in self.links:
            link.queue(link.proto.drain())

    def wants(self):
        """[(pollable, key, flags)]: what to wait for (flags 0: nothing from it now). A link
        with no client is left out: the body stops waiting on it."""
        out = []
        if self.listener is not None:
            out.append((self.listener, self.listen_key, IN))
        for link in self.links:
            if link.absent:
                continue
            want = IN if link.wants_input() else 0
            if link.out:
                want |= OUT
            out.append((link.pollable, link.key, want))
        return out

    def io(self, ready):
        """ready: [(key, flags)] from the wait. Read, answer what fits, send what the clients
        take, let go of the clients that are gone, then accept. Returns the links let go (a
        sticky link whose client went is among them, absent, to stop waiting on).
        A client that closed is let go before the next one is accepted: a host that closes
        and connects again at once finds its place free, wherever the wait listed the two."""
        for link in self.links:
            if link.absent and link.present():
                link.absent = False
        accept = False
        for ev in ready:
            key, flags = ev[0], ev[1]
            if key == self.listen_key and key is not None:
                accept = True
                continue
            for link in self.links:
                if link.key == key:
                    break
            else:
                continue
            if flags & GONE:
                self._read(link)
        gone = self._settle()
        if accept:
            if self.clients() >= MAX_CLIENTS:
                # A client's end of input that the wait has not reported yet (a body that
                # hands its descriptors over one at a time) would still count: look.
                for link in self.links:
                    self._read(link)
                gone += self._settle()
            if self.clients() >= MAX_CLIENTS:
                self._free_a_place()
                gone += self._settle()
            link = self.accept()
            if link is not None:
                self.links.append(link)
        return gone

    def _free_a_place(self):
        """The oldest client that has sent nothing for SILENT_S let go (cut), if any."""
        now = time.time()
        for link in self.links:
            if link.silent and not link.internal and not link.sticky and \
                    now - link.since >= SILENT_S:
                link.cut = True
                return

    def _read(self, link):
        if not link.absent and link.wants_input():
            data = link.recv()
            if data is not None:
                if data:
                    link.pending = data
                    link.silent = False
                else:
                    link.eof = True

    def _settle(self):
        """Answer, send; let go of the clients that are gone. Returns them."""
        gone = []
        for link in self.links:
            if not link.absent and not link.busy():
                link.work()
        # Then every link's events, those of the lines just answered among them: a link
        # settled before the one whose line made them would hold them until the next wake.
        for link in self.links:
            if link.absent:
                link.proto.drain()  # nobody to read the events
                continue
            if link.cut:
                link.proto.drain()  # nobody to send them to
                gone.append(link)
                continue
            link.queue(link.proto.drain())  # the unit's own timers' events, and others'
            if not link.flush() or len(link.out) > OUT_MAX or (link.ended and not link.out):
                gone.append(link)
        for link in gone:
            if link.sticky:
                link.out = b""  # nobody reads: the lines are dropped, the port stays
                link.ended = False
                if link.eof:  # its client went: the next one starts afresh
                    link.eof = False
                    link.reader.drop()
                    link.absent = link.present is not None
                continue
            self.links.remove(link)
            if link.close is not None:
                link.close()
        return gone

    def close(self):
        for link in self.links:
            if link.close is not None:
                link.close()
        self.links = []
