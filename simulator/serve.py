"""The serial protocol served on a pty or a TCP port next to an interactive front end.

The ports are the simulated board's (desktop/ports.py, the same clients, flow control and
limits as headless's), served by the front end's app.App (desktop/simapp.py): this module only
opens them and fits them to a front end's own event loop (Tk's, or a select() over the
keyboard), which never blocks here. The front end says which file descriptors to watch through
`watch(fd)` / `unwatch(fd)` callbacks (or asks `fds()` / `wfds()`) and calls `ready(fd)` when
one is ready; `flush()`, after every step of its own, sends the event lines the unit's timers
produced and what a slow client left queued, and answers lines that waited for room.

TCP serves several clients at once, as headless does (docs/simulator.md, "Serving"). The unit
lives on between clients (docs/protocol.md, "The simulator's command line"). With no mode it
opens no port and serves only the links a front end adds to its ports (`--table`'s read-only
line, simulator/table/link.py), whose lines move nothing a front end draws.
"""

from desktop.ports import IN, OUT
from desktop.simapp import SimApp


class Server:
    def __init__(self, host, mode, port=0, watch=None, unwatch=None, on_change=None, app=None):
        if mode not in ("pty", "tcp", None):
            raise ValueError("serve mode is pty, tcp or None")
        self.host = host
        self.mode = mode
        self.port = port
        self.watch = watch or (lambda fd: None)
        self.unwatch = unwatch or (lambda fd: None)
        self.on_change = on_change or (lambda: None)
        # The loop that serves the ports: the front end's (a Session's), or one of its own.
        self.app = app if app is not None else SimApp(host.unit, host.clock)
        self.ports = self.app.ports
        self.watched = set()
        self.listen = None  # the TCP listening socket
        self.pty = None  # the pty (simulator/ptyport.py)
        self.master = None  # its master fd
        self.address = None  # "127.0.0.1:<port>" or the pty's path

    # -- setting up ----------------------------------------------------------------------------

    def start(self):
        """Open the pty or the port; returns the line headless prints first ('listening ...').
        A port that cannot be had is host.StartError (one line, exit status 2). With no mode
        nothing is opened, and None is returned."""
        from simulator import headless

        if self.mode is None:
            self._sync()
            return None
        if self.mode == "pty":
            from simulator.ptyport import PtyPort

            self.pty = PtyPort()
            self.master = self.pty.master
            self.address = self.pty.path
            self.ports.links.append(self.pty.link(self.host.protocol))
            self._sync()
            return "listening pty " + self.address
        import socket

        srv, real = headless.listen(socket, self.port)
        srv.setblocking(False)
        self.listen = srv
        self.address = "127.0.0.1:%d" % real
        ports = self.ports
        ports.listener = srv
        ports.listen_key = srv.fileno()
        ports.accept = lambda: headless.accept(self.host, srv, ports)
        self._sync()
        return "listening tcp " + self.address

    def close(self):
        for fd in list(self.watched):
            self._unwatch(fd)
        self.ports.close()
        self.ports.listener = self.ports.listen_key = self.ports.accept = None
        if self.listen is not None:
            self.listen.close()
        self.listen = None
        if self.pty is not None:
            self.pty.close()
        self.pty = self.master = None

    def fds(self):
        """The descriptors to read now (for a select() loop that asks rather than is told)."""
        return [key for _, key, want in self.ports.wants() if want & IN]

    def wfds(self):
        """The descriptors with replies waiting for the client to take them."""
        return [key for _, key, want in self.ports.wants() if want & OUT]

    # -- serving -------------------------------------------------------------------------------

    def ready(self, fd=None):
        """A watched descriptor is readable: accept, or read and answer whole lines, after the
        unit's timers that are due (App's step, as headless steps after every poll)."""
        if fd is None:
            fd = self.master if self.master is not None else self.ports.listen_key
        internal = [link for link in self.ports.links if link.key == fd and link.internal]
        self.app.step(self.host.clock.now())
        self.app.io([(fd, IN)])
        self._sync()
        if not internal:  # the table only reads: nothing a front end draws has moved
            self.on_change()

    def flush(self):
        """Send the event lines produced since the last reply, and what a client left queued;
        answer the lines that waited for their replies to be taken."""
        before = sum(len(link.pending) for link in self.ports.links)
        self.app.io([])
        self._sync()
        if sum(len(link.pending) for link in self.ports.links) < before:
            self.on_change()  # lines that waited were answered: draw what they did

    def sync(self):
        """Watch the ports' links again (a front end added one: the table's)."""
        self._sync()

    def _sync(self):
        """Watch what wants reading (a client whose replies back up waits unwatched)."""
        want = set(self.fds())
        for fd in list(self.watched - want):
            self._unwatch(fd)
        for fd in want - self.watched:
            self.watched.add(fd)
            self.watch(fd)

    def _unwatch(self, fd):
        self.watched.discard(fd)
        try:
            self.unwatch(fd)
        except (OSError, ValueError):
            pass
