"""What the table view reads of a unit (docs/table.md): the protocol's read-only commands, the
only ones its feeds send (simulator/table/follow.py, TableFeed below) and the only ones the line
the simulator gives its table answers (simulator/table/link.py); the whole game, as a feed reads
it when it starts and after a restore; and the feed of the page that is itself a unit (web/
body.py), which runs in the page's MicroPython. Never deployed.
"""

from protocol import Protocol
from store import FileStore

READS = ("HELLO", "STATE", "BALANCES", "LOG", "NAMES", "EVENTS")
LOG_KEPT = FileStore.keep  # as far back as LOG reaches
WHOLE = ("HELLO", "STATE", "BALANCES", "LOG %d" % LOG_KEPT, "NAMES")


class TableFeed:
    """The page's line to the table view of the simulator that serves it (`--web`,
    docs/table.md): a Protocol of its own, events on, asked only what the table reads.
    `lines(whole, names)` gives what the table has not heard yet, as [command, reply] and
    ["!", event line] pairs: the events, then STATE when what the table shows of it changed,
    NAMES when the names did, or the whole game (when asked, and after a restore, whose
    history no event carries)."""

    def __init__(self, unit, clock):
        self.unit = unit
        self.protocol = Protocol(unit, clock)
        self.listener = unit.listeners[-1]  # the one Protocol() added; removed by stop()
        self.protocol.handle("EVENTS ON")
        self.told = None  # what the table was last told of the unit's state
        self.names = None  # ... and of the names

    def lines(self, whole, names):
        out = [["!", line] for line in self.protocol.drain()]
        whole = whole or [1 for _, line in out if '"kind": "restore"' in line] != []
        u = self.unit
        told = (u.power, u.maintenance, u.deal_phase(), u.error == "store-damaged",
                u.ledger.ready)
        asks = []
        if whole:
            asks = list(WHOLE)
        else:
            if told != self.told:
                asks.append("STATE")
            if names != self.names:
                asks.append("NAMES")
        self.told = told
        self.names = names
        for command in asks:
            got = self.protocol.handle(command)
            out.extend(["!", line] for line in got[:-1])
            out.append([command, got[-1]])
        return out

    def stop(self):
        """No table hears the page: its events are kept no more."""
        ls = self.unit.listeners
        for i in range(len(ls)):
            if ls[i] is self.listener:
                del ls[i]
                break
