"""The headless simulator: the serial protocol on stdio, a pty or a TCP port.

One loop for all three: poll the inputs with a timeout that is the unit's next deadline (so an
idle simulator sleeps), tick the unit, feed what arrived to each client's LineReader, queue the
replies and the event lines the unit's own timers produced, and send what each client takes.

Nothing a client does can stall the unit or another client (docs/simulator.md, "Serving"):
- reads never wait for a newline: a half line sits in its LineReader (at most 200
  characters, docs/protocol.md) while the timers run; a longer line is skipped to its
  newline and answered
  `ERR line-too-long`, in bounded chunks, so a 2 MB line costs no more memory than a short one;
- TCP serves up to MAX_CLIENTS at once, each with its own protocol state (EVENTS ON is per
  client; a new one starts with events off) and its replies in order;
- sends never block: a client's replies wait in its own queue; while more than OUT_PAUSE bytes
  wait, its further commands wait too (in the kernel), and a client that lets OUT_MAX bytes
  pile up (events it never reads) is disconnected.
"""

import select
import sys

from protocol import LineReader, Protocol

IS_MICROPYTHON = sys.implementation.name == "micropython"

CHUNK = 4096  # bytes read from one client per turn
MAX_CLIENTS = 8
if IS_MICROPYTHON:  # a heap of its own to keep (about 2 MB by default)
    OUT_PAUSE = 16 * 1024
    OUT_MAX = 128 * 1024
else:
    OUT_PAUSE = 64 * 1024
    OUT_MAX = 256 * 1024
EAGAIN = 11


def _write_fd(fd, data):
    import os

    while data:
        n = os.write(fd, data)
        data = data[n:]


def _stdout_line(text):
    sys.stdout.write(text + "\n")
    flush = getattr(sys.stdout, "flush", None)
    if flush:
        flush()


class Link:
    """One client. recv() gives bytes, b'' at the end of its input, None for nothing now;
    send(data) gives how many bytes it took (0: not now) or raises OSError (gone)."""

    def __init__(self, proto, pollable, key, recv, send, close=None):
        self.proto = proto
        self.pollable = pollable  # what poll watches
        self.key = key  # what poll reports for it (an fd on CPython, the object on MicroPython)
        self.recv = recv
        self.send = send
        self.close = close
        self.reader = LineReader()
        self.out = b""
        self.pending = b""  # bytes read and not yet taken: its replies were backed up
        self.eof = False  # its input ended
        self.ended = False  # ... and all it sent is answered: closed once its replies are out

    def busy(self):
        """Its replies are backed up: its commands wait."""
        return len(self.out) > OUT_PAUSE

    def work(self):
        """Answer the lines in what was read, until its replies back up (a chunk of 4096
        bytes of `LOG 200` would be megabytes of replies)."""
        data = self.pending
        i = 0
        n = len(data)
        push = self.reader.push
        while i < n and len(self.out) <= OUT_PAUSE:
            line = push(data[i])
            i += 1
            if line is not None:
                self.queue(self.proto.handle(line))
        self.pending = data[i:] if i < n else b""
        if self.eof and not self.pending and not self.ended:
            # A last line without its newline is still a command.
            if self.reader.buf or self.reader.over:
                self.queue(self.proto.handle(push(10)))
            self.ended = True

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


def _serve(host, links, listener=None, accept=None, once=False):
    """The loop. links: the clients (a list this may change); listener/accept: a listening
    socket and the function that turns it into a new Link. With once, return when every
    link has ended (stdio: the end of input ends the simulator)."""
    poller = select.poll()
    watched = {}
    if listener is not None:
        poller.register(listener, select.POLLIN)
    while True:
        more = False  # a link has lines read and room for their replies: no sleeping
        for link in links:
            want = select.POLLIN if link.wants_input() else 0
            if link.out:
                want |= select.POLLOUT
            if link.pending and not link.busy():
                more = True
            if watched.get(link.key) != want:
                poller.register(link.pollable, want)  # register again: its flags change
                watched[link.key] = want
        ready = poller.poll(0 if more else host.ms_to_deadline())
        host.tick()
        for ev in ready:
            key, flags = ev[0], ev[1]
            if listener is not None and key == _key(listener):
                link = accept()
                if link is not None:
                    links.append(link)
                continue
            for link in links:
                if link.key == key:
                    break
            else:
                continue
            if flags & (select.POLLIN | select.POLLHUP | select.POLLERR) and link.wants_input():
                data = link.recv()
                if data is not None:
                    if data:
                        link.pending = data
                    else:
                        link.eof = True
        gone = []
        for link in links:
            if not link.busy():
                link.work()
            link.queue(link.proto.drain())  # the unit's own timers' events, and others'
            if not link.flush() or len(link.out) > OUT_MAX or (link.ended and not link.out):
                gone.append(link)
        for link in gone:
            links.remove(link)
            watched.pop(link.key, None)
            try:
                poller.unregister(link.pollable)
            except (KeyError, ValueError, OSError):
                pass
            if link.close is not None:
                link.close()
        if once and not links:
            return


def _key(obj):
    if IS_MICROPYTHON or isinstance(obj, int):
        return obj
    return obj.fileno()


# -- stdio ------------------------------------------------------------------------------------


def run_stdio(host):
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

        def send(b):
            sys.stdout.buffer.write(b)
            return len(b)

        link = Link(host.protocol, sys.stdin, sys.stdin, recv, send)
    else:
        import os

        def recv():
            return os.read(0, CHUNK)

        def send(b):
            _write_fd(1, b)  # one client, which reads what it asked for: waiting is fine
            return len(b)

        link = Link(host.protocol, 0, 0, recv, send)
    _serve(host, [link], once=True)
    return 0


# -- pty --------------------------------------------------------------------------------------


def run_pty(host):
    if IS_MICROPYTHON:
        sys.stderr.write("simulator: --pty needs CPython; use --stdio or --tcp under "
                         "MicroPython\n")
        return 2
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    path = os.ttyname(slave)
    _stdout_line("listening pty " + path)

    def recv():
        try:
            return os.read(master, CHUNK)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            return None  # no client has the pty open: wait for one

    def send(b):
        try:
            return os.write(master, b)
        except (BlockingIOError, InterruptedError):
            return 0

    # The slave end stays open here, so a client closing its end is not the end: the next
    # client opens the same path and finds the same unit (docs/protocol.md: state lives on).
    # One link for all of them; replies nobody reads pile up to OUT_MAX and are then dropped.
    link = Link(host.protocol, master, master, recv, send)
    links = [link]
    while True:
        _serve(host, links, once=True)
        link.out = b""
        link.ended = False
        links.append(link)


# -- TCP --------------------------------------------------------------------------------------


def _listen(socket, port):
    """A listening socket on 127.0.0.1:port and the port it got. The unix port's sockets
    cannot say which port 0 picked, so there the simulator picks one itself."""
    from simulator.host import StartError

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


def _client(host, sock):
    """A Link for a new TCP connection, with a protocol of its own (events off)."""
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

    return Link(proto, sock, _key(sock), recv, send, close)


def run_tcp(host, port):
    import socket

    srv, real = _listen(socket, port)
    _stdout_line("listening tcp 127.0.0.1:%d" % real)
    links = []

    def accept():
        try:
            sock, _ = srv.accept()
        except OSError:
            return None
        if len(links) >= MAX_CLIENTS:
            try:
                sock.send(b"ERR busy %d clients are connected; try again later\n" % MAX_CLIENTS)
            except OSError:
                pass
            sock.close()
            return None
        return _client(host, sock)

    # Between connections the unit's timers still run (a deal ends, the unit switches off).
    _serve(host, links, srv, accept)
