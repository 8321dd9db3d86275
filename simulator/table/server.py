"""The table's web server: the phones' page and its read-only stream, behind the game's secret
(docs/table.md, "Safe on a café's network").

The standard library's http.server, one thread a request (ThreadingHTTPServer): twenty phones
are twenty threads waiting on their stream, and no package to install or keep up to date. What
it serves, and nothing else:
- `/<secret>/`: the page (page/index.html), and beside it its script, style, words (both
  languages, from desktop/words.py), app manifest, icons and service worker, held in memory;
- `/<secret>/stream`: the game as Server-Sent Events (the whole view first, then one message a
  change, and a ping when nothing moves).
Anything else, and every request without the secret, is 404 with the same few bytes; only GET
and HEAD are answered. No directory is listed, no file is read from disk after start, nothing
a request says reaches the unit: the stream only reads the model (model.py), which the feeds
(follow.py) keep.
"""

import hmac
import http.server
import importlib.util
import os
import secrets
import socket
import sys
import threading
from urllib.parse import urlsplit

from desktop import words
from simulator.lan import Bounded
from simulator.table.model import CLOSED

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PAGE = os.path.join(HERE, "page")
SECRET_FILE = "table.secret"
# The sentences the phones' page says, besides its own (table.*): the window's, not copies.
SHARED_WORDS = ("card", "named", "bank", "txn.undoes", "deal.running", "deal.ending",
                "deal.done", "page.lang", "night.pot", "night.clock", "night.clock.stopped",
                "night.clock.over", "night.count.none", "night.winner", "night.tie",
                "night.and")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".json": "application/json",
         ".webmanifest": "application/manifest+json", ".png": "image/png"}
# The page asks this origin for its own files and its stream, and for nothing else.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
          "connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; "
          "form-action 'none'; frame-ancestors 'none'")
NOT_FOUND = b"not found\n"


def new_secret():
    return secrets.token_urlsafe(16)


def kept_secret(folder):
    """The game's secret: the one kept in folder (the game's state folder) if there is one,
    else a new one, kept there; a new one each time without a folder (or one that cannot be
    written). A server started again on the same game keeps its link, so the phones come back
    by themselves."""
    if folder is None:
        return new_secret()
    path = os.path.join(folder, SECRET_FILE)
    try:
        with open(path) as f:
            got = f.read().strip()
        if len(got) >= 16 and all(c.isalnum() or c in "-_" for c in got):
            return got
    except OSError:
        pass
    got = new_secret()
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(got + "\n")
    except OSError as exc:  # this run's link is still good; the phones need the next one
        sys.stderr.write("the table's link is not kept in %s (%s): each run gives a new one\n"
                         % (folder, exc.strerror))
    return got


def _icons():
    """The page's icons, drawn as the unit's page draws its own (web/icons.py)."""
    spec = importlib.util.spec_from_file_location("bank_web_icons",
                                                  os.path.join(REPO, "web", "icons.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {"icon-%d.png" % n: mod.png(n) for n in (192, 512)}


def page_words():
    """{lang: {sentence id: text}}: what the phones' page says, in both languages."""
    return {lang: words.sentences(("table.",), SHARED_WORDS, lang) for lang in words.LANGS}


_FILES = []


def page_files():
    """{name: (bytes, type)}: everything the page is, read once."""
    if _FILES:
        return _FILES[0]
    import json

    files = {}
    for name in sorted(os.listdir(PAGE)):
        with open(os.path.join(PAGE, name), "rb") as f:
            files[name] = (f.read(), TYPES[os.path.splitext(name)[1]])
    files["words.json"] = (json.dumps(page_words(), ensure_ascii=False).encode(),
                           TYPES[".json"])
    for name, data in _icons().items():
        files[name] = (data, TYPES[".png"])
    _FILES.append(files)
    return files


class Site:
    """The table of one game behind its secret: `answer(handler)` serves a request whose path
    starts with the secret (`owns`) and says True; the server's own handler and `--web`'s
    (simulator/web.py) both use it."""

    def __init__(self, table, secret):
        self.table = table
        self.secret = secret
        self.files = page_files()

    def owns(self, raw):
        """raw (a request's path) begins with /<secret>: compared in constant time."""
        if not raw.startswith("/"):
            return False
        first = urlsplit(raw).path[1:].split("/", 1)[0]
        return hmac.compare_digest(first.encode("utf-8", "replace"), self.secret.encode())

    def answer(self, h):
        """Serve h's request (GET or HEAD) if it is the table's; False when it is not."""
        if not self.owns(h.path):
            return False
        path = urlsplit(h.path).path
        rest = path[len(self.secret) + 1:]
        if rest == "":
            h.send_response(301)
            h.send_header("Location", "/%s/" % self.secret)
            h.send_header("Content-Length", "0")
            guard(h)  # the secret is in its Location: no Referer says it on
            h.end_headers()
            return True
        name = rest[1:] or "index.html"
        if name == "stream" and h.command == "GET":
            self.stream(h)
            return True
        got = self.files.get(name)
        if got is None:
            not_found(h)
            return True
        data, kind = got
        h.send_response(200)
        h.send_header("Content-Type", kind)
        h.send_header("Content-Length", str(len(data)))
        h.send_header("Cache-Control", "no-cache")
        guard(h)
        h.end_headers()
        if h.command == "GET":
            h.wfile.write(data)
        return True

    def stream(self, h):
        """The game as Server-Sent Events until the phone goes or the server stops."""
        sub = self.table.subscribe()
        if sub is None:
            h.send_response(503)
            h.send_header("Retry-After", "5")
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        try:
            # Each change goes at once, not after the last one's acknowledgement (Nagle's
            # wait, some 40 ms a message when changes come fast).
            h.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            h.send_response(200)
            h.send_header("Content-Type", "text/event-stream")
            h.send_header("Cache-Control", "no-store")
            h.send_header("X-Accel-Buffering", "no")
            guard(h)
            h.end_headers()
            h.wfile.write(b"retry: 1000\n\n")

            ping = self.table.ping_ms / 1000.0
            while True:
                msg = sub.get(ping)
                if msg is CLOSED:
                    break
                if msg is None:
                    h.wfile.write(b"event: ping\ndata: %d\n\n" % self.table.v)
                    continue
                out, closed = _batch(sub, msg)
                h.wfile.write(out)
                if closed:
                    break
        except OSError:
            pass  # the phone went (asleep, out of reach): it asks again when it comes back
        finally:
            self.table.unsubscribe(sub)
            h.close_connection = True


def _batch(sub, msg):
    """msg and the messages waiting behind it, as one write (a phone back from a slow link gets
    its backlog at once): (bytes, whether the stream ends after them)."""
    out = []
    size = 0
    while msg is not None and size < 65536:
        if msg is CLOSED:
            return b"".join(out), True
        kind, v, text = msg
        out.append(b"event: %s\nid: %d\ndata: %s\n\n" % (kind.encode(), v, text.encode()))
        size += len(out[-1])
        msg = sub.get(0) if size < 65536 else None
    return b"".join(out), False


def guard(h):
    h.send_header("Content-Security-Policy", POLICY)
    h.send_header("X-Content-Type-Options", "nosniff")
    h.send_header("Referrer-Policy", "no-referrer")


def not_found(h):
    h.send_response(404)
    h.send_header("Content-Type", "text/plain; charset=utf-8")
    h.send_header("Content-Length", str(len(NOT_FOUND)))
    guard(h)
    h.end_headers()
    if h.command != "HEAD":
        h.wfile.write(NOT_FOUND)


def refuse(h, code):
    """http.server's own refusals (a method it has no do_ for, a request line it cannot read, a
    URL or a header too long), and not found: the table's plain bytes and headers, never
    http.server's page. Only GET and HEAD are answered: another method is not found."""
    if code in (404, 405, 501):
        not_found(h)
        return
    body = b"%d\n" % code
    h.send_response(code)
    h.send_header("Content-Type", "text/plain; charset=utf-8")
    h.send_header("Content-Length", str(len(body)))
    h.send_header("Connection", "close")
    guard(h)
    h.end_headers()
    h.close_connection = True
    if h.command != "HEAD":
        h.wfile.write(body)


class Handler(http.server.BaseHTTPRequestHandler):
    # A connection that says nothing, or a phone that takes nothing, for this long is let go
    # (its thread with it); a phone's stream hears at least a ping every ping_ms.
    timeout = 30

    def version_string(self):
        return "bank-table"  # which Python serves it is nobody's business on a café's network

    def do_GET(self):
        if not self.server.site.answer(self):
            not_found(self)

    do_HEAD = do_GET

    def send_error(self, code, message=None, explain=None):
        refuse(self, code)

    def _refuse(self):
        not_found(self)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def log_message(self, format, *args):
        pass  # a phone's every request is no news for the terminal


class TableServer(Bounded, http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # as simulator/web.py's: every phone reconnecting at once

    def __init__(self, site, host, port):
        self.site = site
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.address_family = family
        http.server.ThreadingHTTPServer.__init__(self, (host, port), Handler)
        self.thread = None

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # a phone gone mid-answer
        http.server.ThreadingHTTPServer.handle_error(self, request, client_address)

    def start(self):
        self.thread = threading.Thread(target=self.serve_forever, name="table-server",
                                       daemon=True)
        self.thread.start()
        return self

    def stop(self):
        """Stop serving: every phone's stream ends, the port is let go."""
        self.site.table.close()
        if self.thread is not None:
            self.shutdown()
        self.server_close()

    @property
    def port(self):
        return self.server_address[1]
