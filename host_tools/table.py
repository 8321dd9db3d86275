"""`bank table [PORT] [--lan]`: every phone at the table follows the unit on this host's serial
line, read-only (docs/table.md, docs/host_tools.md "The table view").

The unit is followed through `Bank` as any host tool speaks to it, asking only what the table
reads (firmware/desktop/reads.py): `EVENTS ON`, the whole game, then its events and a STATE now
and then. The page and its server are the simulator's (simulator/table/, found in the
repository beside host_tools, as out.py finds the firmware's words). A unit unplugged or
restarting is said on every phone, and followed again, from its whole game, when it answers;
the serial port is this command's while it runs (other `bank` commands find it busy).
"""

import os
import signal
import sys
import time

from .bank import Bank
from .errors import EXIT_OK, BankError, UsageError
from .out import integer

# The simulator's --table port (simulator/options.py), copied: the parser is built where the
# repository may not be; tests/host/test_facts.py holds the two equal.
TABLE_PORT = 8001


def add_parser(sub):
    s = sub.add_parser("table", help="serve the table view: every phone follows the unit, "
                       "read-only (Ctrl-C stops)")
    s.add_argument("listen", nargs="?", type=integer, default=TABLE_PORT, metavar="PORT",
                   help="the table's web port (%d; 0 picks a free one)" % TABLE_PORT)
    s.add_argument("--lan", action="store_true", help="serve it on the local network too "
                   "(0.0.0.0), with a QR code for the phones")
    s.add_argument("--state", help="where the table's secret is kept, so that its link stays "
                   "the same between runs (default: $XDG_STATE_HOME/bank-unit-table)")
    return s


def _tables():
    """simulator/table (and firmware/, which it runs on) from the repository beside host_tools;
    a UsageError where host_tools was installed without it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isfile(os.path.join(root, "simulator", "table", "__init__.py")):
        raise UsageError("bank table serves the page in the repository's simulator/table/; "
                         "run it from the repository (make setup installs it from there)")
    if root not in sys.path:
        sys.path.append(root)
    import simulator.table

    return simulator.table


def state_folder():
    _tables()  # the simulator beside host_tools, whose rule says where state is kept
    from simulator.xdg import state_home

    return state_home("bank-unit-table")


class Client:
    """A Bank as the table's Follower speaks to it (simulator/table/follow.py)."""

    def __init__(self, bank, lost):
        self.bank = bank
        self.lost = lost
        self.pending = []  # events that came before a reply: exchange() hands them over there

    def ask(self, command):
        try:
            r = self.bank.exchange(command)
        except BankError as e:
            raise self.lost(str(e)) from None
        self.pending.extend(r.events)
        return r.ok, (r.payload if r.ok else r.code)

    def next_event(self, timeout):
        if self.pending:
            e = self.pending.pop(0)
            return e.type, e.data
        try:
            e = self.bank.wait_event(timeout)
        except BankError as e:
            raise self.lost(str(e)) from None
        return None if e is None else (e.type, e.data)

    def close(self):
        self.bank.close()


def cmd_table(bank, args):
    tables = _tables()
    from simulator.table.follow import Lost

    first = [bank]

    def connect():
        # The unit the command opened first; then, each time it goes, the unit found again
        # (its device may change name when it comes back).
        got = first.pop() if first else None
        if got is None:
            try:
                got = Bank.open(args.port, timeout=args.timeout)
            except BankError as e:
                raise Lost(str(e)) from None
        return Client(got, Lost)

    port = args.listen
    if not 0 <= port <= 65535:
        raise UsageError("the table's port is a number from 0 to 65535")
    try:
        server = tables.serve(port, args.lan, args.state or state_folder(), "bank table 0")
    except OSError as e:
        raise UsageError(e.strerror or str(e)) from None
    running = tables.start_table(connect, server, args.lan, {"names_ms": None})
    tables.announce(running.url, args.lan, running.found)
    sys.stderr.write("following %s for the table, read-only; Ctrl-C stops\n" % bank.name)
    sys.stderr.flush()
    # A service manager's stop is Ctrl-C's: KeyboardInterrupt.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    return EXIT_OK
