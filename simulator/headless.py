"""The headless simulator: the serial protocol on stdio, a pty or a TCP port.

The loop is the unit's own, app.App (desktop/simapp.py on desktop/simboard.py), as on the Pico:
each turn it steps (timers, events), then sleeps in select.poll on the ports until App's next
deadline or input, and hands what came to the ports (desktop/ports.py: per-client protocol
state, flow control, bounded reads; docs/simulator.md, "Serving").
"""

import select
import sys

from desktop.ports import CHUNK, MAX_CLIENTS, Link, Ports
from desktop.simapp import SimApp
from protocol import Protocol
from simulator import stdout

IS_MICROPYTHON = sys.implementation.name == "micropython"
EAGAIN = 11


def _write_fd(fd, data):
    import os

    while data:
        n = os.write(fd, data)
        data = data[n:]


def _serve(host, ports, once=False, table=None):
    """App's loop on the ports. With once, return when every link has ended (stdio: the end
    of input ends the simulator). table: what starts the table view on the ports (--table,
    cli.py), stopped when the loop ends."""
    running = table(ports) if table is not None else None
    try:
        _loop(host, ports, once)
    finally:
        if running is not None:
            running.stop()


def _loop(host, ports, once):
    app = SimApp(host.unit, host.clock, ports)
    poller = select.poll()
    watched = {}
    ready = []
    while True:
        # As on the Pico: what is due happens (step) before what came in is answered (io),
        # and every reply and event goes out before the next sleep.
        app.step(host.clock.now())
        for link in app.io(ready):
            if link.sticky and not link.absent:
                continue
            watched.pop(link.key, None)
            try:
                poller.unregister(link.key)  # its socket is closed: it has no fileno() now
            except (KeyError, ValueError, OSError):
                pass
        if once and not [link for link in ports.links if not link.internal]:
            return
        ms = app.wait(host.clock.now())
        for pollable, key, want in ports.wants():
            if watched.get(key) != want:
                poller.register(pollable, want)  # register again: its flags change
                watched[key] = want
        ready = poller.poll(ms)


# -- stdio ------------------------------------------------------------------------------------


def run_stdio(host, table=None):
    if IS_MICROPYTHON:
        inp = sys.stdin.buffer
        ask = select.poll()
        ask.register(sys.stdin, select.POLLIN)

        def recv():
            # read(n) would wait for all n bytes and readline() for a newline: one byte at a
            # time, while more is there, so a half line never stops the unit's timers and a
            # long one never fills the heap.
            got = bytearray()
            while len(got) < CHUNK:
                b = inp.read(1)
                if not b:
                    return bytes(got) if got else b""
                got += b
                if not ask.poll(0):
                    break
            return bytes(got)

        def write(b):
            sys.stdout.buffer.write(b)
    else:
        import os

        def recv():
            return os.read(0, CHUNK)

        def write(b):
            _write_fd(1, b)  # one client, which reads what it asked for: waiting is fine

    lost = []  # why standard output took no more: the replies' reader is gone

    def send(b):
        try:
            write(b)
        except OSError as e:
            lost.append(e)
            raise
        return len(b)

    link = Link(host.protocol, sys.stdin if IS_MICROPYTHON else 0, recv, send)
    ports = Ports()
    ports.links.append(link)
    _serve(host, ports, once=True, table=table)
    if lost:  # the replies are the product here: nobody reads them, so the unit stops
        from simulator.host import _why

        sys.stderr.write("simulator: standard output cannot be written (%s): stopped\n"
                         % _why(lost[0]))
        return 1
    if link.dropped:
        sys.stderr.write("simulator: a last line without its newline was dropped\n")
    return 0


# -- pty --------------------------------------------------------------------------------------


def run_pty(host, table=None):
    if IS_MICROPYTHON:
        sys.stderr.write("simulator: --pty needs CPython; use --stdio or --tcp under "
                         "MicroPython\n")
        return 2
    from simulator.ptyport import PtyPort

    pty = PtyPort()
    stdout.line("listening pty " + pty.path)
    ports = Ports()
    ports.links.append(pty.link(host.protocol))
    _serve(host, ports, table=table)


# -- TCP --------------------------------------------------------------------------------------


_taken = {}  # the port asked for -> (socket, port got): take_port's, for listen to hand over


def take_port(port):
    """The TCP port listened on first, at start: a port taken stops the start before the state
    folder is made or its game booted, touching nothing. listen() hands it over."""
    import socket

    _taken[port] = listen(socket, port)


def listen(socket, port):
    """A listening socket on 127.0.0.1:port and the port it got. The unix port's sockets
    cannot say which port 0 picked, so there the simulator picks one itself."""
    from simulator.host import StartError

    if port in _taken:
        return _taken.pop(port)

    tries = 50 if (port == 0 and IS_MICROPYTHON) else 1
    for _ in range(tries):
        want = port
        if port == 0 and IS_MICROPYTHON:
            import os

            r = os.urandom(2)
            want = 20000 + ((r[0] << 8) | r[1]) % 40000
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            srv.bind(socket.getaddrinfo("127.0.0.1", want)[0][-1])
        except OSError as e:
            srv.close()
            if tries == 1:
                from simulator.host import _why

                raise StartError("cannot listen on 127.0.0.1:%d (%s); is another simulator "
                                 "running? Stop it, or give another --tcp PORT (0 picks a "
                                 "free one)" % (port, _why(e))) from None
            continue
        srv.listen(MAX_CLIENTS)
        real = want if IS_MICROPYTHON else srv.getsockname()[1]
        return srv, real
    raise StartError("cannot find a free TCP port; give one with --tcp PORT")


def client(host, sock, http_guard=True, wrap=None):
    """A Link for a new connection to host's unit, with a protocol of its own (events off),
    wrapped by wrap when given (the table's read-only line); a TCP client's is cut at a line
    that reads as HTTP (desktop/ports.py: any web page can send to 127.0.0.1)."""
    sock.setblocking(False)
    proto = Protocol(host.unit, host.clock)
    listener = host.unit.listeners[-1]  # the one Protocol() added; removed when it leaves

    def recv():
        try:
            return sock.recv(CHUNK)
        except OSError as e:
            if e.args and e.args[0] == EAGAIN:
                return None
            return b""

    def send(b):
        try:
            return sock.send(b) or 0
        except OSError as e:
            if e.args and e.args[0] == EAGAIN:
                return 0
            raise

    def close():
        ls = host.unit.listeners
        for i in range(len(ls)):
            if ls[i] is listener:
                del ls[i]
                break
        sock.close()

    return Link(proto if wrap is None else wrap(proto), sock, recv, send, close,
                http_guard=http_guard)


def run_tcp(host, port, table=None):
    import socket

    srv, real = listen(socket, port)
    stdout.line("listening tcp 127.0.0.1:%d" % real)
    ports = Ports(srv, lambda: accept(host, srv, ports))
    # Between connections the unit's timers still run (a deal ends, the unit switches off).
    _serve(host, ports, table=table)


def accept(host, srv, ports):
    """A Link for the client waiting on srv, or None (none, or MAX_CLIENTS already)."""
    try:
        sock, _ = srv.accept()
    except OSError:
        return None
    if ports.clients() >= MAX_CLIENTS:
        try:
            sock.send(b"ERR busy %d clients are connected; try again later\n" % MAX_CLIENTS)
        except OSError:
            pass
        sock.close()
        return None
    return client(host, sock)
