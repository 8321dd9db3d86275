"""The simulator's own unit, followed by its table over a line of its own (docs/table.md).

A socket pair: one end is a port of the unit's loop (desktop/ports.py: served as a TCP client
is, with its flow control, by whichever body runs the loop: headless, the window, the
terminal), the other the table's Follower (follow.py), in a thread of its own. The unit's end
answers only the commands the table reads (desktop/reads.py): any other line is refused there,
`ERR read-only`, and changes nothing, whoever wrote it.
"""

import socket

from protocol import TOO_LONG
from desktop.reads import READS
from simulator import headless
from simulator.table.follow import LineClient


class ReadOnly:
    """A Protocol that answers only what the table reads; `ERR read-only` to anything else."""

    def __init__(self, proto):
        self.proto = proto

    def handle(self, line):
        if line is not TOO_LONG:
            text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
            words = text.replace("\t", " ").split(" ")
            word = next((w for w in words if w), "").upper()
            if word and word not in READS:
                return self.proto.drain() + ["ERR read-only the table only reads the unit"]
        return self.proto.handle(line)

    def drain(self):
        return self.proto.drain()


class OwnLine(LineClient):
    """The table's end: the loop that answers it is this process's own, so a reply waits as
    long as it takes. A slow turn (a machine under load) is not a lost unit, and a line
    taken for lost could never be given again (one per loop)."""

    timeout = None


def attach(host, ports):
    """A read-only line from the table to host's unit: its unit end served by `ports` (the
    body's loop), its other end returned as a LineClient for the table's Follower."""
    mine, theirs = socket.socketpair()
    link = headless.client(host, mine, http_guard=False, wrap=ReadOnly)
    link.internal = True  # not one of the TCP clients MAX_CLIENTS counts
    ports.links.append(link)
    return OwnLine(theirs)
