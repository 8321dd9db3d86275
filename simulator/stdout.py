"""What a server writes on standard output for whoever started it (the port it listens on, the
table's link): its reader may take the first line and go (`| head -1`), or the output may take
nothing (a full disk); neither stops a unit that serves."""

import sys

_told = []


def line(text):
    """text and a newline on standard output, now; if it cannot be written, said once on
    standard error and the server goes on."""
    if sys.stdout is None:  # CPython's, for a stream closed at start
        return
    try:
        sys.stdout.write(text + "\n")
        flush = getattr(sys.stdout, "flush", None)  # the unix port's stdout may have none
        if flush:
            flush()
    except OSError as e:
        gone(e)


def gone(e):
    """Standard output took no more (e): said once; what is written to it from here on goes
    nowhere, so that the interpreter's last flush raises nothing either."""
    if _told:
        return
    _told.append(e)
    from simulator.host import _why

    sys.stderr.write("simulator: standard output cannot be written (%s); serving on\n"
                     % _why(e))
    try:
        import os

        null = os.open("/dev/null", os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except (ImportError, AttributeError, OSError):
        pass  # the unix port's os has no dup2: its stdout writes fail as before
