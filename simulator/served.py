"""The headless simulator's protocol where the options say (`--stdio`, `--pty`, `--tcp`), the
table view beside it if asked: for `--headless`, and for the front ends run with no terminal."""

import sys

from simulator import headless


def serve(host, opts):
    """The protocol where opts say (stdio by default), the table view beside it if asked."""
    table = None
    if opts.table is not None:
        from simulator import table as tables

        # On stdio the protocol is stdout: the table's line goes to stderr.
        table = tables.starter(host, opts, sys.stderr if opts.mode in (None, "stdio") else None)
    if opts.mode == "pty":
        return headless.run_pty(host, table)
    if opts.mode == "tcp":
        return headless.run_tcp(host, opts.port, table)
    return headless.run_stdio(host, table)
