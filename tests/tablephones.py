"""The table view's tests' hands (docs/table.md): a simulator or `bank table` started as a
user starts them, their lines read as they come, and a phone's stream read as its browser reads
it (Server-Sent Events). tests/test_table_cli.py, tests/web/test_table_*.py and the bench use
them."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from desktop.reads import LOG_KEPT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port):
    """The addresses a TCP socket listens on at port, from the kernel's own table."""
    if not os.path.exists("/proc/net/tcp"):
        pytest.skip("no /proc/net/tcp to read the bound address from (not Linux)")
    found = []
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.split(":")
            if int(p, 16) == port and state == "0A":
                found.append(".".join(str(b) for b in reversed(bytes.fromhex(addr))))
    return found


class Proc:
    """A simulator or a `bank table` started as a user starts it: its lines read as they come."""

    def __init__(self, args, env=None):
        self.p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                  env=dict(os.environ, **(env or {})))
        self.lines = []

    def line(self, prefix, stream="stdout"):
        f = getattr(self.p, stream)
        while True:
            got = f.readline()
            assert got, "%s ended: %s" % (self.p.args, self.p.stderr.read())
            self.lines.append(got)
            if got.startswith(prefix):
                return got.rstrip("\n")

    def stop(self, sig=signal.SIGTERM):
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            out, err = self.p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
        return out, err


def simulator(*args, table="0", clock="--virtual-clock"):
    """A headless simulator serving the protocol on TCP and its table: (Proc, the protocol's
    127.0.0.1:port, the table's link)."""
    p = Proc([sys.executable, "-m", "simulator", "--headless", "--tcp", "0", "--table", table,
              *([clock] if clock else []), *args])
    tcp = p.line("listening tcp ").split()[-1]
    url = p.line("table ").split()[1]
    return p, tcp, url


def bank_table(unit_port, *args):
    p = Proc([sys.executable, "-m", "host_tools", "-p", "socket://" + unit_port, "table",
              *args])
    return p, p.line("table ").split()[1]


class Phone:
    """A phone's stream (Server-Sent Events), read as its browser reads it."""

    def __init__(self, url, timeout=10):
        host, rest = url[len("http://"):].split("/", 1)
        addr, port = host.rsplit(":", 1)
        self.sock = socket.create_connection((addr, int(port)), timeout=timeout)
        self.sock.sendall(b"GET /%sstream HTTP/1.1\r\nHost: %s\r\n\r\n" % (rest.encode(),
                                                                         host.encode()))
        self.f = self.sock.makefile("rb")
        assert b" 200 " in self.f.readline()
        while self.f.readline() not in (b"\r\n", b""):
            pass
        self.view = None

    def next(self):
        """(event, data) of the next message; None when the stream ends."""
        kind = None
        for raw in self.f:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                if kind == "snapshot":
                    self.view = data
                elif kind == "update":
                    log = self.view["log"]
                    if data["txn"] and (not log or data["txn"]["seq"] > log[-1]["seq"]):
                        log.append(data["txn"])
                        del log[:-LOG_KEPT]  # as the page keeps it: as far back as LOG reaches
                    self.view = dict(data, log=log)
                return kind, data
        return None

    reader = None
    ended = False

    def until(self, cond, timeout=10):
        end = time.monotonic() + timeout
        while self.reader is not None:  # its thread reads: watch the view it keeps
            view = self.view
            if view is not None and cond(view):
                return view
            assert not self.ended, "the stream ended"
            assert time.monotonic() < end, self.late(timeout)
            time.sleep(0.02)
        while not (self.view is not None and cond(self.view)):
            assert time.monotonic() < end, self.late(timeout)
            self.sock.settimeout(max(0.05, end - time.monotonic()))
            try:
                assert self.next() is not None, "the stream ended"
            except socket.timeout:
                raise AssertionError(self.late(timeout)) from None
        return self.view

    def late(self, timeout):
        """What the phone shows when it waited in vain: short enough to survive a CI log's
        cut (a whole view with its history is tens of kilobytes)."""
        v = self.view
        if v is None:
            return "not within %.1f s: no view" % timeout
        log = v.get("log") or []
        return "not within %.1f s: unit %s, message %s, balances %s, %d moves up to #%s" % (
            timeout, v.get("unit"), v.get("v"), v.get("balances"), len(log),
            log[-1]["seq"] if log else None)

    def keep_reading(self):
        """Read on in a thread of its own, as a phone's browser reads while the game goes on
        (a stream nobody reads stalls at its socket's buffer); until() then waits on the view
        that thread keeps."""
        import threading

        self.sock.settimeout(None)
        self.reader = threading.Thread(target=self._read_on, daemon=True)
        self.reader.start()
        return self

    def _read_on(self):
        try:
            while self.next() is not None:
                pass
        except (OSError, ValueError):
            pass  # closed by the test
        self.ended = True

    def close(self):
        self.sock.close()
