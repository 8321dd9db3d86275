"""Misbehaving "units" on a TCP port, for the error paths of the host tools."""

import socket
import threading
import time

HELLO = ('OK {"device": "bank-unit", "firmware": "fake", "protocol": 1, "profile": "world", '
         '"store": "ok"}')


class FakeUnit:
    """Accepts connections on 127.0.0.1 and answers each line through `answer(line)`, which
    returns the bytes to send (b"" for nothing) or None to close the connection."""

    def __init__(self, answer):
        self.answer = answer
        self.srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(4)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        self.received = []
        self.conns = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._conn, args=(conn,), daemon=True).start()

    def _conn(self, conn):
        buf = b""
        try:
            while True:
                data = conn.recv(4096)
                if not data:
                    return
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    text = line.decode(errors="replace").strip()
                    self.received.append(text)
                    out = self.answer(text)
                    if out is None:
                        conn.close()
                        return
                    if callable(out):  # it speaks on its own time: out(conn)
                        out(conn)
                    elif out:
                        conn.sendall(out)
        except OSError:
            return

    def close(self):
        self.srv.close()
        for c in self.conns:
            try:
                c.close()
            except OSError:
                pass


def silent(line):
    return b""


def garbage(line):
    return b"\x00\xffhello there\n"


def bad_json(line):
    return b"OK {not json\n"


def closes(line):
    return None


def not_a_bank(line):
    return b'OK {"device": "toaster", "protocol": 1}\n'


def closes_after_hello(line):
    if line.upper() == "HELLO":
        return HELLO.encode() + b"\n"
    return None


def hello_then_silent(line):
    if line.upper() == "HELLO":
        return HELLO.encode() + b"\n"
    return b""


def hello_then_garbage(line):
    if line.upper() == "HELLO":
        return HELLO.encode() + b"\n"
    return b"OK {\"1\": 15000000,\n"


def cut_off_before():
    """The port of a unit whose last host was unplugged mid-reply: it sends the rest of that
    reply, a line end, then the answer; from then on it answers as a unit does."""
    told = []

    def answer(line):
        if not told:
            told.append(line)
            return b'000, "via": "key"}]\n' + HELLO.encode() + b"\n"
        return HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"OK\n"

    return answer


def deaf_to_the_first():
    """A unit re-plugged in a long reply, which drops the new host's first line with the old
    host's unread bytes; it answers from then on."""
    told = []

    def answer(line):
        if not told:
            told.append(line)
            return b""
        return HELLO.encode() + b"\n" if line.upper() == "HELLO" else b"OK\n"

    return answer


def dripping(piece, every):
    """A unit that answers HELLO, then, to anything else, sends `piece` every `every` seconds
    and never a reply, for as long as the host listens (30 s at most)."""

    def answer(line):
        if line.upper() == "HELLO":
            return HELLO.encode() + b"\n"

        def drip(conn):
            for _ in range(int(30 / every)):
                try:
                    conn.sendall(piece)
                except OSError:
                    return
                time.sleep(every)

        return drip

    return answer


def eventful(n, then_silent=False):
    """A unit that sends n event lines after EVENTS ON (and, before its reply, an event line
    for every other command, to check events are not taken for replies)."""

    def answer(line):
        word = line.upper()
        if word == "HELLO":
            return b'! tone {"name": "click"}\n' + HELLO.encode() + b"\n"
        if word == "EVENTS ON":
            events = b"".join(b'! tone {"name": "money-in", "n": %d}\n' % i for i in range(n))
            return b"OK\n" + events
        if word == "EVENTS OFF":
            return b"OK\n"
        if word == "STATE":
            return STATE.encode() + b"\n"  # a unit says its state, even a quiet one
        return b"" if then_silent else b"ERR unknown-command\n"

    return answer


def hostile(command, payload):
    """A unit that answers HELLO well, `command` with `OK <payload>` (valid JSON of the wrong
    shape) and anything else as a unit without it would (NAMES: no names)."""

    def answer(line):
        word = line.upper()
        if word == command:
            return b"OK " + payload.encode() + b"\n"
        if word == "HELLO":
            return HELLO.encode() + b"\n"
        if word == "STATE":
            return STATE.encode() + b"\n"
        return b"ERR unknown-command\n"

    return answer


STATE = ('OK {"power": "on", "display": {"text": "0", "k": false, "M": false}, "red": "off", '
         '"green": "off", "slots": {"L": null, "R": null}, "entry": "", "deal": "idle", '
         '"sound": 2, "error": null}')


def reading(balances, log="[]"):
    """A unit that answers what a reading asks: HELLO, STATE, BALANCES (balances(): its payload,
    asked again at each read, so that it may move between them) and LOG (log's payload)."""

    def answer(line):
        word = line.upper()
        if word == "HELLO":
            return HELLO.encode() + b"\n"
        if word == "STATE":
            return STATE.encode() + b"\n"
        if word == "BALANCES":
            return b"OK " + balances().encode() + b"\n"
        if word.startswith("LOG"):
            return b"OK " + log.encode() + b"\n"
        return b"ERR unknown-command\n"

    return answer


def escaping(line):
    """A unit whose every text holds terminal escape sequences and other controls: in HELLO,
    the names, the display, the entry, the log, the kept games and a refusal's message."""
    word = line.upper()
    esc = "\\u001b"  # JSON's escape: a raw ESC in a JSON string would not parse
    if word == "HELLO":
        return ('OK {"device": "bank-unit", "firmware": "1%s[31m", "protocol": 1, "profile": '
                '"world", "store": "ok%s]0;owned\\u0007"}\n' % (esc, esc)).encode()
    if word == "NAMES":
        return ('OK {"1": "Ann%s[2J", "2": "Bob\\u0007", "3": "\\u202eLi", "4": "Zo\\n\\u00eb", '
                '"5": null, "6": "Cy\\r"}\n' % esc).encode()
    if word == "STATE":
        return STATE.replace('"text": "0"', '"text": "%s[5m0"' % esc).replace(
            '"entry": ""', '"entry": "5%s[A"' % esc).encode() + b"\n"
    if word == "BALANCES":  # as the log leaves them: card 1 had Go
        return ('OK {"1": 17000000, %s}\n' % ", ".join('"%d": 15000000' % c for c in range(2, 7))
                ).encode()
    if word.startswith("LOG"):
        return ('OK [{"seq": 1, "kind": "go%s[1m", "from": "bank", "to": 1, "amount": 2000000, '
                '"balances": {"1": 17000000}, "via": "key"}]\n' % esc).encode()
    if word == "GAMES":
        return ('OK [{"id": 3, "profile": "world%s[8m", "seq": 3, "transactions": 1, '
                '"balances": null, "number": 1}]\n' % esc).encode()
    if word.startswith("INSERT"):
        return b"ERR slot-occupied \x1b[2Jslot L holds a card\n"
    return b"ERR unknown-command\n"


class Relay:
    """Passes one host's lines to the unit at url and its replies back, until the host sends a
    line starting with cut: that one the unit takes and answers, and the link drops before the
    answer is passed on, as a cable pulled while the unit replies."""

    def __init__(self, url, cut):
        host, port = url.split("//")[-1].rsplit(":", 1)
        self.unit = socket.create_connection((host, int(port)))
        self.cut = cut.encode()
        self.cutting = False
        self.srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        try:
            conn, _ = self.srv.accept()
        except OSError:
            return
        threading.Thread(target=self._back, args=(conn,), daemon=True).start()
        buf = b""
        try:
            while not self.cutting:
                data = conn.recv(4096)
                if not data:
                    break
                buf += data
                while b"\n" in buf and not self.cutting:
                    line, buf = buf.split(b"\n", 1)
                    self.cutting = line.startswith(self.cut)
                    self.unit.sendall(line + b"\n")
        except OSError:
            pass

    def _back(self, conn):
        try:
            while True:
                data = self.unit.recv(4096)
                if not data or self.cutting:
                    break
                conn.sendall(data)
        except OSError:
            pass
        conn.close()
        self.close()

    def close(self):
        for s in (self.srv, self.unit):
            try:
                s.close()
            except OSError:
                pass
