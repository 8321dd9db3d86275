"""The serial protocol served on a pty or a TCP port next to an interactive front end.

headless.py owns its loop and blocks in poll(); a window or a terminal front end has a loop of
its own (Tk's, or a select() over the keyboard). `Server` never blocks: the front end tells it
which file descriptors to watch through `watch(fd)` / `unwatch(fd)` callbacks and calls
`ready(fd)` when one is readable. Replies are written at once; event lines the unit's own timers
produced (a deal ending, a card's balance coming up) go out on `flush()`, which the front end
calls after every tick and every input of its own. One client at a time, as headless: the next
one is taken when it leaves, and the unit lives on between them (docs/protocol.md, "The
simulator's command line").
"""

import errno
import os
import socket

from protocol import LineReader


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
        self.reader = LineReader()
        self.listen = None  # the TCP listening socket
        self.client = None  # the TCP client socket
        self.master = None  # the pty's master fd
        self.slave = None
        self.address = None  # "127.0.0.1:<port>" or the pty's path

    # -- setting up ----------------------------------------------------------------------------

    def start(self):
        """Open the pty or the port; returns the line headless prints first ('listening ...')."""
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
        srv.bind(("127.0.0.1", self.port))
        srv.listen(1)
        srv.setblocking(False)
        self.listen = srv
        self.address = "127.0.0.1:%d" % srv.getsockname()[1]
        self.watch(srv.fileno())
        return "listening tcp " + self.address

    def close(self):
        for s in (self.client, self.listen):
            if s is not None:
                try:
                    self.unwatch(s.fileno())
                except (OSError, ValueError):
                    pass
                s.close()
        self.client = self.listen = None
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
        if self.client is not None:
            return [self.client.fileno()]
        if self.listen is not None:
            return [self.listen.fileno()]
        return []

    # -- serving -------------------------------------------------------------------------------

    def ready(self, fd=None):
        """A watched descriptor is readable: accept, or read and answer whole lines."""
        if self.mode == "tcp" and self.client is None:
            self._accept()
            return
        data = self._read()
        if data is None:
            return
        if not data:
            self._hang_up()
            return
        proto = self.host.protocol
        out = []
        for line in self.reader.feed(data):
            self.host.tick()  # the unit's timers first, as headless does after every poll
            out.extend(proto.drain())
            out.extend(proto.handle(line))
        self._send(out)
        self.on_change()

    def flush(self):
        """Send the event lines produced since the last reply (or drop them with no client)."""
        lines = self.host.protocol.drain()
        if lines:
            self._send(lines)

    def _accept(self):
        try:
            sock, _ = self.listen.accept()
        except (BlockingIOError, InterruptedError):
            return
        sock.settimeout(2.0)  # a client that stops reading cannot freeze the window for long
        self.unwatch(self.listen.fileno())
        self.client = sock
        self.reader = LineReader()
        self.watch(sock.fileno())

    def _hang_up(self):
        if self.client is not None:
            self.unwatch(self.client.fileno())
            self.client.close()
            self.client = None
            self.reader = LineReader()
            self.watch(self.listen.fileno())

    def _read(self):
        """Bytes, b'' at the end of the client's input, None for nothing to read yet."""
        try:
            if self.master is not None:
                return os.read(self.master, 4096)
            return self.client.recv(4096)
        except (BlockingIOError, InterruptedError, socket.timeout):
            return None
        except OSError as e:
            if self.master is not None and e.errno == errno.EIO:
                return None  # no client has the pty open: wait for one
            return b""

    def _send(self, lines):
        if not lines:
            return
        data = ("\n".join(lines) + "\n").encode()
        try:
            if self.master is not None:
                while data:
                    data = data[os.write(self.master, data):]
            elif self.client is not None:
                self.client.sendall(data)
        except (BlockingIOError, socket.timeout):
            pass  # nobody reads: the lines are dropped rather than the front end frozen
        except OSError:
            self._hang_up()
