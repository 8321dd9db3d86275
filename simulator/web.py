"""`python -m simulator --web [PORT]`: the unit in a browser (docs/web.md), served locally.

Builds the static site (web/build.py, as `make web`) and serves that folder on 127.0.0.1 only;
prints 'serving http://127.0.0.1:<port>/' first. PORT 0 (the default is 8000) picks a free one.
"""

import functools
import http.server
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
USAGE = "usage: python -m simulator --web [PORT]\n"


class Handler(http.server.SimpleHTTPRequestHandler):
    # The port's module and binary need their types for a browser to run them.
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm", ".py": "text/plain",
                             ".json": "application/json"})

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt page is seen at a reload
        super().end_headers()

    def log_message(self, format, *args):
        pass  # a page load is ~40 requests: quiet


def server(folder, port=0):
    """A threading HTTP server for folder on 127.0.0.1:port (not started)."""
    handler = functools.partial(Handler, directory=folder)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv):
    if len(argv) > 1 or (argv and not argv[0].isdigit()):
        sys.stderr.write("simulator: --web takes one port number\n" + USAGE)
        return 2
    port = int(argv[0]) if argv else 8000
    if port > 65535:
        sys.stderr.write("simulator: --web takes a port from 0 to 65535\n")
        return 2
    sys.path.insert(0, os.path.join(REPO, "web"))
    import build

    try:
        folder = build.build()
    except build.BuildError as e:
        sys.stderr.write("simulator: %s\n" % e)
        return 1
    srv = server(folder, port)
    sys.stdout.write("serving http://127.0.0.1:%d/\n" % srv.server_address[1])
    sys.stdout.flush()
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
    return 0
