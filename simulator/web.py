"""`python -m simulator --web [PORT] [--lan | --host ADDR]`: the unit in a browser (docs/web.md).

Builds the static site (web/build.py, as `make web`) and serves that folder's files (no folder
is listed); prints
'serving http://<address>:<port>/' first, then the table view's link, 'table
http://<address>:<port>/<secret>/' (docs/table.md): the page that is itself a unit, opened on
this machine, feeds the table (a POST of its own protocol's lines to /table/feed, taken from
this machine only), and every phone at the table follows it there. By default on 127.0.0.1
only: nothing on the network sees either unless asked. `--lan` serves on every address of the
machine (0.0.0.0) and prints the table's link for the phones on the same network, with its QR
code drawn in the terminal; `--host ADDR` serves on that one address. PORT 0 (the default is
8000) picks a free one. A port in use, an address not this machine's: one line, exit status 2.
"""

import errno
import functools
import http.server
import ipaddress
import json
import os
import posixpath
import socket
import sys
from urllib.parse import urlsplit

from simulator.lan import ANY, Bounded, lan_address, qr_block  # noqa: F401  (web.qr_block: the tests')

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = "usage: python -m simulator --web [PORT] [--lan | --host ADDR]\n"
FEED = "/table/feed"  # where the page that is itself a unit posts what it does
FEED_MAX = 1 << 20  # bytes a post may carry: many times a whole game's LOG


class WebUsageError(Exception):
    pass


class Handler(http.server.SimpleHTTPRequestHandler):
    timeout = 30  # a request half sent, or a connection left idle, holds no thread for long
    # The port's module and binary need their types for a browser to run them.
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm", ".py": "text/plain",
                             ".json": "application/json",
                             ".webmanifest": "application/manifest+json"})

    def version_string(self):
        # The table's server's word (docs/table.md): which Python serves the page is nobody's
        # business on a café's network.
        return "bank-unit"

    def send_error(self, code, message=None, explain=None):
        """What the site does not serve, as the table answers it (docs/table.md), never
        http.server's page."""
        from simulator.table.server import refuse

        refuse(self, code)

    # Files only: a folder's listing would show what the site holds, and the page needs none.
    # The site's root is the page itself (index.html); any other folder is not found.
    def send_head(self):
        path = self.translate_path(self.path)
        if "\0" in path:
            self.send_error(404, "Not found")  # no file has it in its name
            return None
        # A folder is the root only as "/": "/x/%2f.." comes back to it too, and is no page.
        if os.path.isdir(path) and (os.path.normpath(path) != os.path.normpath(self.directory)
                                    or posixpath.normpath(urlsplit(self.path).path) != "/"):
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404, "Not found")  # the root without its index.html
        return None

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt page is seen at a reload
        # Never in another site's frame: framed, the page would be a unit of that site's, and
        # the table's phones would follow it once the banker's page closed.
        self.send_header("Content-Security-Policy", "frame-ancestors 'none'")
        self.send_header("X-Frame-Options", "DENY")
        if getattr(self.server, "table_feed", None) is not None:
            # The page that is itself a unit feeds this table (web/unit.js looks for it).
            self.send_header("X-Bank-Table", FEED)
        super().end_headers()

    def do_GET(self):
        site = getattr(self.server, "table_site", None)
        if site is None or not site.answer(self):
            super().do_GET()

    def do_HEAD(self):
        site = getattr(self.server, "table_site", None)
        if site is None or not site.answer(self):
            super().do_HEAD()

    def do_POST(self):
        """The page that is itself a unit, feeding the table view (simulator/table/follow.py's
        PageFeed): from this machine only, a page on a phone is a unit of its own."""
        feed = getattr(self.server, "table_feed", None)
        if feed is None or urlsplit(self.path).path != FEED:
            self.send_error(404)
            return
        try:
            size = int(self.headers.get("Content-Length") or "")
        except ValueError:
            size = -1
        if not 0 <= size <= FEED_MAX:
            self.send_error(413 if size > FEED_MAX else 411)
            return
        body = self.rfile.read(size)
        # A page the table does not take is answered so, as a page that is: its console shows
        # no error for what is no fault of its (a phone's page, a second game's).
        local = self.connection.getsockname()[0]
        if not _this_machine(self.client_address[0], local):
            self._answer(200, {"unit": False, "why": "lan"})
            return
        if not _own_page(self.headers, local, self.server.server_address[1]):
            self._answer(403, {"error": "only the unit's own page feeds the table"})
            return
        from simulator.table.model import Bad

        try:
            got = feed.post(body)
        except Bad as e:
            self._answer(400, {"error": str(e)})
            return
        self._answer(200, dict(got, why=None if got["unit"] else "other"))

    def _answer(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # a page load is ~40 requests: quiet


def _own_page(headers, local, port):
    """Whether a post is the unit's own page's, as this server served it: to a Host that names
    this server by its address or as localhost (never a name some site resolved here), and
    from that origin (a browser says the origin of every page that posts)."""
    host = headers.get("Host") or ""
    own = ("%s:%d" % (local, port), "[%s]:%d" % (local, port), "localhost:%d" % port)
    return host in own and headers.get("Origin") in (None, "http://" + host)


def _this_machine(peer, local):
    """A connection from this machine: over loopback, or from the very address it came to (no
    other machine has it)."""
    if peer == local:
        return True
    try:
        ip = ipaddress.ip_address(peer.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


class Server(Bounded, http.server.ThreadingHTTPServer):
    daemon_threads = True  # a phone's stream (the table's) never holds the server's exit
    # The phones at a table reconnect together when the server comes back: 5 waiting (the
    # default) made the rest retry their connection, some for seconds.
    request_queue_size = 64
    table_site = None  # the table view (simulator/table/server.py's Site), and its feed
    table_feed = None

    def handle_error(self, request, client_address):
        # A phone that closes its tab, or a browser gone, while a file is on its way: nothing
        # wrong here, and no traceback in the terminal that serves it.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class Server6(Server):
    address_family = socket.AF_INET6  # --host ::1, or another address of this machine's


def server(folder, port=0, host="127.0.0.1", table=None):
    """A threading HTTP server for folder on host:port (not started); with table, a (Site,
    PageFeed) pair (simulator/table/), the table view too."""
    handler = functools.partial(Handler, directory=folder)
    srv = (Server6 if ":" in host else Server)((host, port), handler)
    if table is not None:
        srv.table_site, srv.table_feed = table
    return srv


def table_secret_folder():
    """Where --web keeps its table's secret, so that a server started again keeps the phones'
    link: beside the simulator's kept games (BANK_SIM_STATE=none: nowhere, a new one each
    start)."""
    from simulator.frontend import state_dir
    from simulator.xdg import state_env

    where = state_env()
    return None if where is None else os.path.join(where or state_dir(), "web")


def make_table():
    """The table view --web serves: (Site, PageFeed), fed by the page on this machine."""
    from simulator.table.follow import PageFeed
    from simulator.table.model import Table
    from simulator.table.server import Site, kept_secret

    table = Table()
    return Site(table, kept_secret(table_secret_folder())), PageFeed(table)


def parse(argv):
    """--web's own command line (argv as given to python -m simulator): (port, host, lan,
    help)."""
    port, host, lan, want_help = 8000, None, False, False
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and "=" in a:
            a, v = a.split("=", 1)
            args[i:i + 1] = [a, v]
        if a == "--web" and i + 1 < len(args) and args[i + 1] == "":
            raise WebUsageError("--web takes one port number")
        if a == "--web":
            if i + 1 < len(args) and not args[i + 1].startswith("-"):
                i += 1
                if not args[i].isdigit():
                    raise WebUsageError("--web takes one port number")
                port = int(args[i])
                if port > 65535:
                    raise WebUsageError("--web takes a port from 0 to 65535")
        elif a == "--lan":
            lan = True
        elif a == "--host":
            if i + 1 >= len(args) or not args[i + 1]:
                raise WebUsageError("--host needs an address of this machine")
            host = args[i + 1]
            i += 1
        elif a in ("-h", "--help"):
            want_help = True
        elif a.isdigit():
            raise WebUsageError("--web takes one port number")
        else:
            raise WebUsageError("%s does not go with --web (it takes a port, --lan, --host)" % a)
        i += 1
    if lan and host is not None and host != ANY:
        raise WebUsageError("choose one of --lan and --host")
    if lan:
        host = ANY
    return port, host or "127.0.0.1", host == ANY, want_help


def main(argv):
    try:
        port, host, lan, want_help = parse(argv)
    except WebUsageError as e:
        sys.stderr.write("simulator: %s\n%s(python -m simulator --help says what each option "
                         "does)\n" % (e, USAGE))
        return 2
    if want_help:
        from simulator import options

        sys.stdout.write(options.USAGE)
        return 0
    sys.path.insert(0, os.path.join(REPO, "web"))
    import build

    folder = os.path.join(REPO, "build", "web")
    # The port is taken before the build: a port in use is said at once, not after it.
    try:
        table = make_table()
        srv = server(folder, port, host, table)
    except OSError as e:
        where = "%s:%d" % (host, port)
        if e.errno == errno.EADDRINUSE:
            why = "port %d is in use on %s (another --web?); --web 0 picks a free one" % (
                port, host)
        elif e.errno in (errno.EADDRNOTAVAIL, errno.EINVAL) or isinstance(e, socket.gaierror):
            why = "cannot serve on %s: %s is not an address of this machine" % (where, host)
        elif e.errno == errno.EACCES:
            why = "cannot serve on %s: port %d needs privileges; use one above 1023" % (
                where, port)
        else:
            why = "cannot serve on %s: %s" % (where, e.strerror or e)
        sys.stderr.write("simulator: %s\n" % why)
        return 2
    try:
        try:
            build.build(folder)
        except build.BuildError as e:
            sys.stderr.write("simulator: %s\n" % e)
            return 1
        port = srv.server_address[1]
        announce(srv, port, host, lan)
        sys.stdout.flush()
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.table_feed.stop()
        srv.table_site.table.close()
        srv.server_close()
    return 0


def announce(srv, port, host, lan):
    """What --web prints: where it serves, then the table's link (and its QR code on a
    network)."""
    from simulator import table

    secret = srv.table_site.secret
    if lan:
        addr = lan_address()
        if addr is None:
            sys.stdout.write("serving http://127.0.0.1:%d/ (no local network found: "
                             "this machine only for now)\n" % port)
            table.announce("http://127.0.0.1:%d/%s/" % (port, secret), True, False)
            return
        sys.stdout.write("serving http://%s:%d/\n" % (addr, port))
        _unit_line("127.0.0.1", port)
        table.announce("http://%s:%d/%s/" % (addr, port, secret), True)
        sys.stdout.write("(plain http on a network: a phone's browser will not install the "
                         "table's page there)\n")
    elif host != "127.0.0.1":
        where = host if ":" not in host else "[%s]" % host
        sys.stdout.write("serving http://%s:%d/\n" % (where, port))
        _unit_line(where, port)
        table.announce("http://%s:%d/%s/" % (where, port, secret), True)
        sys.stdout.write("(Ctrl-C stops it)\n")
    else:
        sys.stdout.write("serving http://127.0.0.1:%d/\n" % port)
        table.announce("http://127.0.0.1:%d/%s/" % (port, secret), False)
    sys.stdout.flush()


def _unit_line(where, port):
    sys.stdout.write("the unit: http://%s:%d/ on this machine (it feeds the table%s); the "
                     "phones scan the table's code:\n" % (
                         where, port, ", installs and works offline" if where == "127.0.0.1"
                         else ""))
