"""`python -m simulator --web [PORT] [--lan | --host ADDR]`: the unit in a browser (docs/web.md).

Builds the static site (web/build.py, as `make web`) and serves that folder's files (no folder
is listed); prints 'serving http://<address>:<port>/' first. By default on 127.0.0.1 only:
nothing on the network sees it unless asked. `--lan` serves on every address of the machine
(0.0.0.0) and prints the address a phone on the same network opens, with its QR code drawn in
the terminal; `--host ADDR` serves on that one address. PORT 0 (the default is 8000) picks a
free one. A port in use, an address not this machine's: one line, exit status 2.
"""

import errno
import functools
import http.server
import io
import os
import socket
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = "usage: python -m simulator --web [PORT] [--lan | --host ADDR]\n"
ANY = "0.0.0.0"


class WebUsageError(Exception):
    pass


class Handler(http.server.SimpleHTTPRequestHandler):
    # The port's module and binary need their types for a browser to run them.
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm", ".py": "text/plain",
                             ".json": "application/json",
                             ".webmanifest": "application/manifest+json"})

    # Files only: a folder's listing would show what the site holds, and the page needs none.
    # The site's root is the page itself (index.html); any other folder is not found.
    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and os.path.normpath(path) != os.path.normpath(self.directory):
            self.send_error(404, "Not found")
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404, "Not found")  # the root without its index.html
        return None

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt page is seen at a reload
        super().end_headers()

    def log_message(self, format, *args):
        pass  # a page load is ~40 requests: quiet


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A phone that closes its tab, or a browser gone, while a file is on its way: nothing
        # wrong here, and no traceback in the terminal that serves it.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def server(folder, port=0, host="127.0.0.1"):
    """A threading HTTP server for folder on host:port (not started)."""
    handler = functools.partial(Handler, directory=folder)
    return Server((host, port), handler)


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


def lan_address():
    """This machine's address on its local network, as a phone there would reach it: the one
    its route out would leave from. A UDP socket's connect sends nothing; it only picks the
    route. None without a network."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        addr = s.getsockname()[0]
    except OSError:
        addr = None
    finally:
        s.close()
    if addr and not addr.startswith("127.") and addr != ANY:
        return addr
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not info[4][0].startswith("127."):
                return info[4][0]
    except OSError:
        pass
    return None


def qr_block(url):
    """The URL's QR code as text, two modules a character, for a phone's camera to read off
    the terminal (segno: pure Python, no other dependency)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True)
    return out.getvalue()


def main(argv):
    try:
        port, host, lan, want_help = parse(argv)
    except WebUsageError as e:
        sys.stderr.write("simulator: %s\n%s" % (e, USAGE))
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
        srv = server(folder, port, host)
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
        if lan:
            addr = lan_address()
            if addr is None:
                sys.stdout.write("serving http://127.0.0.1:%d/ (no local network found: "
                                 "this machine only for now)\n" % port)
            else:
                url = "http://%s:%d/" % (addr, port)
                sys.stdout.write("serving %s\nopen it on a phone on this local network, or "
                                 "scan this:\n%s" % (url, qr_block(url)))
                sys.stdout.write("(plain http on a network: the browser will neither install "
                                 "the page nor keep it offline there; on this machine, "
                                 "http://127.0.0.1:%d/ does both)\n" % port)
        elif host != "127.0.0.1":
            url = "http://%s:%d/" % (host if ":" not in host else "[%s]" % host, port)
            sys.stdout.write("serving %s\nopen it on a phone that reaches that address, or "
                             "scan this:\n%s" % (url, qr_block(url)))
            sys.stdout.write("(Ctrl-C stops it)\n")
        else:
            sys.stdout.write("serving http://127.0.0.1:%d/\n" % port)
        sys.stdout.flush()
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0
