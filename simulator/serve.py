"""The serial protocol served on a pty or a TCP port next to an interactive front end.

headless.py owns its loop and blocks in poll(); a window or a terminal front end has a loop of
its own (Tk's, or a select() over the keyboard). `Server` never blocks: the front end tells it
which file descriptors to watch through `watch(fd)` / `unwatch(fd)` callbacks and calls
`ready(fd)` when one is readable. Replies are queued and sent as far as the client takes them;
event lines the unit's own timers produced (a deal ending, a card's balance coming up) go out on
`flush()`, which the front end calls after every tick and every input of its own, and which
also sends what a slow client left queued.

TCP serves several clients at once, as headless does (docs/simulator.md, "Serving"): each has
its own protocol state (EVENTS ON is per client, off for a new one) and its replies in order;
none can stall the window: reads never wait for a newline, sends never block, and a client that
lets headless.OUT_MAX bytes pile up unread is disconnected. The unit lives on between clients
(docs/protocol.md, "The simulator's command line").
"""

import errno
import os
import socket

from protocol import LineReader, Protocol
from simulator.headless import CHUNK, MAX_CLIENTS, OUT_MAX, OUT_PAUSE


class _Client:
    def __init__(self, sock, proto, listener):
        self.sock = sock
        self.proto = proto
        self.listener = listener  # the unit's listener Protocol() added, removed on hang-up
        self.reader = LineReader()
        self.out = b""
        self.pending = b""  # read, not yet answered: its replies are backed up
        self.paused = False  # not watched until they are sent


class Server:
    def __init__(self, host, mode, port=0, watch=None, unwatch=None, on_change=None):
        if mode not in ("pty", "tcp"):
            raise ValueError("serve mode is pty or tcp")
        self.host = host
        self.mode = mode
        self.port = port
        self.watch = watch or (lambda fd: None)
        self.unwatch = unwatch or (lambda fd: None)
        self.on_change = on_change or (lambda: None)
        self.reader = LineReader()  # the pty's
        self.out = b""  # the pty's queued replies
        self.listen = None  # the TCP listening socket
        self.clients = {}  # fd -> _Client
        self.master = None  # the pty's master fd
        self.slave = None
        self.address = None  # "127.0.0.1:<port>" or the pty's path

    # -- setting up ----------------------------------------------------------------------------

    def start(self):
        """Open the pty or the port; returns the line headless prints first ('listening ...').
        A port that cannot be had is host.StartError (one line, exit status 2)."""
        if self.mode == "pty":
            import tty

            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)
            os.set_blocking(self.master, False)
            self.address = os.ttyname(self.slave)
            # The slave end stays open here, so a client closing its end is not the end: the
            # next client opens the same path and finds the same unit.
            self.watch(self.master)
            return "listening pty " + self.address
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            srv.bind(("127.0.0.1", self.port))
        except OSError as e:
            srv.close()
            from simulator.host import StartError

            raise StartError("cannot listen on 127.0.0.1:%d (%s); is another simulator "
                             "running? Stop it, or give another --tcp PORT (0 picks a free "
                             "one)" % (self.port, e.strerror)) from None
        srv.listen(MAX_CLIENTS)
        srv.setblocking(False)
        self.listen = srv
        self.address = "127.0.0.1:%d" % srv.getsockname()[1]
        self.watch(srv.fileno())
        return "listening tcp " + self.address

    def close(self):
        for fd in list(self.clients):
            self._hang_up(fd)
        if self.listen is not None:
            try:
                self.unwatch(self.listen.fileno())
            except (OSError, ValueError):
                pass
            self.listen.close()
        self.listen = None
        for fd in (self.master, self.slave):
            if fd is not None:
                if fd == self.master:
                    self.unwatch(fd)
                os.close(fd)
        self.master = self.slave = None

    def fds(self):
        """The descriptors to watch now (for a select() loop that asks rather than is told)."""
        if self.master is not None:
            return [self.master]
        out = [fd for fd, c in self.clients.items() if not c.paused]
        if self.listen is not None:
            out.append(self.listen.fileno())
        return out

    # -- serving -------------------------------------------------------------------------------

    def ready(self, fd=None):
        """A watched descriptor is readable: accept, or read and answer whole lines."""
        if self.master is not None:
            data = self._read_pty()
            if data:
                self.out += self._answer(self.host.protocol, self.reader, data)
                self.out = self._send_pty(self.out)
                self.on_change()
            return
        if fd is None or (self.listen is not None and fd == self.listen.fileno()):
            self._accept()
            return
        c = self.clients.get(fd)
        if c is None:
            return
        if c.pending or len(c.out) > OUT_PAUSE:
            self._pause(fd, c)
            return
        try:
            data = c.sock.recv(CHUNK)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return
        except OSError:
            data = b""
        if not data:
            self._hang_up(fd)
            return
        c.pending = data
        self._work(fd, c)
        self.on_change()

    def _work(self, fd, c):
        """Answer the lines read, as far as the client's replies have room (a chunk of
        `LOG 200` lines would be megabytes of them); the rest waits, unwatched."""
        data = c.pending
        i = 0
        out = []
        size = len(c.out)
        while i < len(data) and size <= OUT_PAUSE:
            line = c.reader.push(data[i])
            i += 1
            if line is not None:
                self.host.tick()  # the unit's timers first, as headless does after every poll
                got = c.proto.drain() + c.proto.handle(line)
                out.extend(got)
                size += sum(len(x) + 1 for x in got)
        c.pending = data[i:]
        if out:
            c.out += ("\n".join(out) + "\n").encode()
        self._send(fd, c)
        if fd in self.clients and (c.pending or len(c.out) > OUT_PAUSE):
            self._pause(fd, c)

    def _pause(self, fd, c):
        if not c.paused:
            c.paused = True
            self.unwatch(fd)

    def _answer(self, proto, reader, data):
        out = []
        for line in reader.feed(data):
            self.host.tick()  # the unit's timers first, as headless does after every poll
            out.extend(proto.drain())
            out.extend(proto.handle(line))
        return ("\n".join(out) + "\n").encode() if out else b""

    def flush(self):
        """Send the event lines produced since the last reply, and what a client left queued."""
        if self.master is not None:
            lines = self.host.protocol.drain()
            if lines:
                self.out += ("\n".join(lines) + "\n").encode()
            if self.out:
                self.out = self._send_pty(self.out)
            return
        for fd, c in list(self.clients.items()):
            lines = c.proto.drain()
            if lines:
                c.out += ("\n".join(lines) + "\n").encode()
            if c.out:
                self._send(fd, c)
            if fd not in self.clients or len(c.out) > OUT_PAUSE:
                continue
            if c.pending:
                self._work(fd, c)
                self.on_change()
            if fd in self.clients and c.paused and not c.pending and len(c.out) <= OUT_PAUSE:
                c.paused = False
                self.watch(fd)

    def _accept(self):
        try:
            sock, _ = self.listen.accept()
        except (BlockingIOError, InterruptedError):
            return
        if len(self.clients) >= MAX_CLIENTS:
            try:
                sock.send(b"ERR busy %d clients are connected; try again later\n" % MAX_CLIENTS)
            except OSError:
                pass
            sock.close()
            return
        sock.setblocking(False)
        proto = Protocol(self.host.unit, self.host.clock)
        c = _Client(sock, proto, self.host.unit.listeners[-1])
        self.clients[sock.fileno()] = c
        self.watch(sock.fileno())

    def _hang_up(self, fd):
        c = self.clients.pop(fd, None)
        if c is None:
            return
        ls = self.host.unit.listeners
        for i in range(len(ls)):
            if ls[i] is c.listener:
                del ls[i]
                break
        if not c.paused:
            try:
                self.unwatch(fd)
            except (OSError, ValueError):
                pass
        c.sock.close()

    def _send(self, fd, c):
        while c.out:
            try:
                n = c.sock.send(c.out[:CHUNK * 4])
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self._hang_up(fd)
                return
            c.out = c.out[n:]
        if len(c.out) > OUT_MAX:
            self._hang_up(fd)  # it never reads: let it go rather than hold its lines forever

    def _read_pty(self):
        try:
            return os.read(self.master, CHUNK)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as e:
            if e.errno == errno.EIO:
                return None  # no client has the pty open: wait for one
            return None

    def _send_pty(self, data):
        try:
            while data:
                data = data[os.write(self.master, data):]
        except (BlockingIOError, InterruptedError):
            pass
        # Nobody reads: past OUT_MAX the lines are dropped rather than the window frozen.
        return b"" if len(data) > OUT_MAX else data
