"""The headless simulator: the serial protocol on stdio, a pty or a TCP port.

One loop for all three: poll the input with a timeout that is the unit's next deadline (so an
idle simulator sleeps), feed the bytes to the protocol's LineReader, write the replies, and
write any event lines the unit's own timers produced in between.
"""

import select
import sys

from protocol import LineReader

IS_MICROPYTHON = sys.implementation.name == "micropython"


def _write_fd(fd, data):
    import os

    while data:
        n = os.write(fd, data)
        data = data[n:]


class Conn:
    """A byte pipe: read() returns b'' at end of input."""

    def __init__(self, pollable, read, write, close=None):
        self.pollable = pollable
        self.read = read
        self.write = write
        self.close = close


def _send(conn, lines):
    if lines:
        conn.write(("\n".join(lines) + "\n").encode())


def serve_conn(host, conn):
    """Serve one connection until its input ends. Returns False if interrupted."""
    reader = LineReader()
    proto = host.protocol
    poller = select.poll()
    poller.register(conn.pollable, select.POLLIN)
    while True:
        ready = poller.poll(host.ms_to_deadline())
        host.tick()
        _send(conn, proto.drain())
        if not ready:
            continue
        data = conn.read()
        if not data:
            # The input ended: a last line without its newline is still a command.
            last = reader.push(10) if (reader.buf or reader.over) else None
            if last is not None:
                _send(conn, proto.handle(last))
            return True
        out = []
        for line in reader.feed(data):
            out.extend(proto.handle(line))
        _send(conn, out)


def _stdout_line(text):
    sys.stdout.write(text + "\n")
    flush = getattr(sys.stdout, "flush", None)
    if flush:
        flush()


def run_stdio(host):
    if IS_MICROPYTHON:
        inp = sys.stdin.buffer

        def read():
            return inp.readline()  # unbuffered underneath: poll stays truthful

        def write(b):
            sys.stdout.buffer.write(b)

        conn = Conn(sys.stdin, read, write)
    else:
        import os

        def read():
            return os.read(0, 4096)

        def write(b):
            _write_fd(1, b)

        conn = Conn(0, read, write)
    serve_conn(host, conn)
    return 0


def run_pty(host):
    if IS_MICROPYTHON:
        sys.stderr.write("--pty needs CPython; use --stdio or --tcp under MicroPython\n")
        return 2
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    _stdout_line("listening pty " + path)

    def read():
        try:
            return os.read(master, 4096)
        except OSError:
            return b""

    conn = Conn(master, read, lambda b: _write_fd(master, b))
    # The slave end stays open here, so a client closing its end is not the end: the next
    # client opens the same path and finds the same unit (docs/protocol.md: state lives on).
    while True:
        serve_conn(host, conn)


def _listen(socket, port):
    """A listening socket on 127.0.0.1:port and the port it got. The unix port's sockets
    cannot say which port 0 picked, so there the simulator picks one itself."""
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
        except OSError:
            srv.close()
            if tries == 1:
                raise
            continue
        srv.listen(1)
        real = want if IS_MICROPYTHON else srv.getsockname()[1]
        return srv, real
    raise OSError("no free port found")


def run_tcp(host, port):
    import socket

    srv, real = _listen(socket, port)
    _stdout_line("listening tcp 127.0.0.1:%d" % real)
    poller = select.poll()
    poller.register(srv, select.POLLIN)
    while True:
        # Between connections the unit's timers still run (a deal ends, the unit switches off).
        if not poller.poll(host.ms_to_deadline()):
            host.tick()
            host.protocol.drain()
            continue
        sock, _ = srv.accept()

        def read(sock=sock):
            try:
                return sock.recv(4096)
            except OSError:
                return b""

        def write(b, sock=sock):
            try:
                sock.sendall(b) if hasattr(sock, "sendall") else sock.write(b)
            except OSError:
                pass

        try:
            serve_conn(host, Conn(sock, read, write))
        finally:
            sock.close()
