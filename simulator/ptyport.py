"""The simulator's pty: one path that clients open in turn, each finding the same unit.

The simulator keeps only the master end. With no client holding the slave end open the master
reports a hang-up, which is how a client's leaving is seen: its half line is then dropped
(docs/protocol.md, "Lines") and the next client starts afresh. CPython only (os.openpty).
"""

import os
import select
import tty

from desktop.ports import CHUNK, Link


class PtyPort:
    def __init__(self):
        self.master, slave = os.openpty()
        tty.setraw(slave)  # kept by the pair while the master is open, for every client
        os.set_blocking(self.master, False)
        self.path = os.ttyname(slave)
        os.close(slave)
        self._probe = select.poll()
        self._probe.register(self.master, select.POLLIN)

    def link(self, proto):
        return Link(proto, self.master, self.recv, self.send, sticky=True, present=self.present)

    def present(self):
        """A client has the slave open, or left bytes behind to read before its hang-up."""
        for _, flags in self._probe.poll(0):
            return bool(flags & select.POLLIN) or not flags & select.POLLHUP
        return True

    def recv(self):
        try:
            return os.read(self.master, CHUNK)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            return b""  # EIO: the client closed the slave, and all it sent has been read

    def send(self, data):
        try:
            return os.write(self.master, data[:CHUNK * 4])
        except (BlockingIOError, InterruptedError):
            return 0

    def close(self):
        os.close(self.master)
