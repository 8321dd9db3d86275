"""The table view: every phone at the table follows one game, read-only (docs/table.md).

A page served on the local network by whatever is the unit, behind the game's secret, live
from the unit's own protocol events:
- model.py: what the phones show (the balances, the history, the names, the unit's state),
  kept from the protocol's replies and events;
- follow.py: the feeds: a unit followed over a line (`Follower`), or the page that is itself a
  unit posting its own (`PageFeed`, for `--web`);
- link.py: the simulator's own unit, followed over a read-only line of its loop;
- server.py: the phones' page and its stream (Server-Sent Events), standard library only;
- page/: the page itself, phone first, in both languages.

`start(...)` puts them together for the simulator (`--table`: the window, the terminal or
headless), `start_table(...)` for another feed (`bank table`, host_tools/table.py), and
`announce` prints the one line, `table http://HOST:PORT/SECRET/`, and its QR code.
"""

import errno
import sys

from simulator.lan import ANY
from simulator.table import link
from simulator.table.follow import Follower, Lost
from simulator.table.model import Table
from simulator.table.server import Site, TableServer, kept_secret

LOCAL = "127.0.0.1"


class Running:
    """A table being served: its server, its feed, the link the phones open (and, with lan,
    whether a local network was found for it)."""

    def __init__(self, server, feed, url, found=True):
        self.server = server
        self.feed = feed
        self.url = url
        self.found = found

    @property
    def table(self):
        return self.server.site.table

    def stop(self):
        if self.feed is not None:
            self.feed.stop()
        self.server.stop()


def listen(port, lan, site, free="--table 0"):
    """The table's server on 127.0.0.1:port (every address with lan), started; a port that
    cannot be had is OSError with a sentence saying what to do (str(e)): free, the command's
    way to a free port."""
    bind = ANY if lan else LOCAL
    try:
        return TableServer(site, bind, port).start()
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            why = "port %d is in use on %s (another table?); %s picks a free one" % (
                port, bind, free)
        elif e.errno == errno.EACCES:
            why = "port %d needs privileges; use one above 1023" % port
        else:
            why = e.strerror or str(e)
        raise OSError(e.errno, "cannot serve the table on %s:%d: %s" % (bind, port, why)) \
            from None


def url_of(server, lan):
    """(the link a phone opens, whether a network was found): this machine's address on its
    local network with lan (the one its route out leaves from), else 127.0.0.1 (also when lan
    finds no network)."""
    from simulator.lan import lan_address

    addr = lan_address() if lan else None
    host = addr or LOCAL
    return "http://%s:%d/%s/" % (host, server.port, server.site.secret), addr is not None


def announce(url, lan, found=True, out=None, err=None):
    """`table URL` (one line), then with lan its QR code for the phones' cameras."""
    from simulator.lan import qr_block

    from simulator import stdout

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        out.write("table %s\n" % url)
        if lan and found:
            out.write(qr_block(url))
        out.flush()
    except OSError as e:  # its reader took a line and went (| head -1): the table serves on
        stdout.gone(e)
    if lan and not found:
        err.write("table: no local network found: this machine only for now\n")
    elif not lan:
        err.write("table: this machine only; --lan serves it to the phones on the local "
                  "network\n")
    err.flush()


def serve(port, lan, folder, free="--table 0"):
    """The table's server, started on an empty table, its secret kept in folder (None: a new
    one); as listen's, OSError for a port that cannot be had."""
    return listen(port, lan, Site(Table(), kept_secret(folder)), free)


def start_table(connect, server, lan, follow=None):
    """The table on server (serve's) fed by a Follower over connect() (follow.Follower's): the
    Running table. follow: the Follower's other settings (poll_ms, names_ms)."""
    feed = Follower(server.site.table, connect, **(follow or {})).start()
    return Running(server, feed, *url_of(server, lan))


def start(host, ports, server, lan, out=None, err=None):
    """The simulator's own table (`--table`): host's unit followed over a read-only line of
    the body's loop (`ports`, which must serve it), the link announced. Call before the loop
    runs, from its thread."""
    given = [link.attach(host, ports)]

    def connect():
        # In one process the line goes only with the loop that serves it: never taken again.
        if given:
            return given.pop()
        raise Lost("the simulator's line to its unit is closed")

    running = start_table(connect, server, lan)
    announce(running.url, lan, running.found, out, err)
    return running


def starter(host, opts, out=None):
    """What starts host's table (`--table`, opts.table its port) on a body's ports: a function
    of the ports, to call from the loop's thread before it runs, giving the Running table; a
    port that cannot be had is host.StartError (one line, exit status 2) at once, before the
    body says where it serves."""
    from simulator.host import StartError

    try:
        server = serve(opts.table, opts.lan, opts.state)
    except OSError as e:
        raise StartError(e.strerror or str(e)) from None

    def begin(ports):
        return start(host, ports, server, opts.lan, out=out)

    return begin
