"""`python -m simulator`: parse the command line and start the chosen front end."""

import sys

import simulator  # noqa: F401  (puts firmware/ on sys.path)
from simulator import options


MICROPYTHON = sys.implementation.name == "micropython"
_HELD = []  # /dev/null, open on each standard stream that was closed at start


def _hold_standard_streams():
    """A standard stream closed at start (`>&-`) held by /dev/null: else the first file the
    simulator opens (its state folder's lock, a slot) takes its number, and a line written to
    the stream lands in the game. The numbers held."""
    held = []
    while True:
        try:
            f = open("/dev/null", "r+b")
        except OSError:
            return held
        if f.fileno() > 2:
            f.close()
            return held
        _HELD.append(f)
        held.append(f.fileno())


def main(argv):
    closed = _hold_standard_streams()
    # The page in a browser: a server of files, no unit here.
    if [a for a in argv if a == "--web" or a.startswith("--web=")]:
        if MICROPYTHON:
            sys.stderr.write("simulator: --web needs CPython (its web server)\n")
            return 2
        from simulator import web

        return web.main(argv)
    try:
        opts = options.parse(argv)
    except options.UsageError as e:
        sys.stderr.write(options.refused(e))
        return 2
    if opts.help:
        sys.stdout.write(options.USAGE)
        return 0
    if 1 in closed and opts.headless and opts.mode in (None, "stdio"):
        sys.stderr.write("simulator: standard output is closed: the protocol on stdio has "
                         "nowhere to answer\n")
        return 2
    if MICROPYTHON and not opts.headless:
        # The window, the terminal and the emulated Pico are CPython's (Tk, curses, rp2040py).
        sys.stderr.write("simulator: %s needs CPython; under MicroPython, --headless (with "
                         "--state DIR to keep the game) serves the protocol\n"
                         % ("--pico" if opts.pico else "--terminal" if opts.terminal
                            else "the window"))
        return 2
    if opts.pico:
        return _pico(opts)
    from simulator.host import Host, StartError

    # Whatever stops the start (a state folder in use or not writable, a port taken) is one
    # line saying what to do, and exit status 2: never a traceback.
    if opts.headless and opts.state is None:
        opts.state = _state_from_env()
        opts.state_given = "BANK_SIM_STATE"
    try:
        if opts.table is not None and MICROPYTHON:
            raise StartError("--table needs CPython (its web server's threads)")
        if opts.mode == "tcp":
            from simulator import headless

            headless.take_port(opts.port)
        host = Host(opts)
        _stop_on_sigterm()
        if opts.headless:
            from simulator import served

            return served.serve(host, opts)
        return _interactive(host, opts)
    except (ValueError, StartError) as e:
        sys.stderr.write("simulator: %s\n" % options.printable(str(e)))
        return 2
    except KeyboardInterrupt:
        return 0


def _state_from_env():
    """BANK_SIM_STATE's folder, the same as --state DIR; None when unset or none."""
    from simulator.xdg import state_env

    return state_env() or None


def _stop_on_sigterm():
    """SIGTERM stops the simulator as Ctrl-C does: exit status 0, the game already kept (the
    window sets its own). SIGINT too where it was ignored when the simulator started (a shell
    script's background job): CPython keeps that, and the simulator could then not be
    stopped as the protocol says, where the unix port stops."""
    try:
        import signal
    except ImportError:
        return  # the unix port has none: SIGTERM ends it as it ends any process
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # Ctrl-C's: KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _pico(opts):
    """The window on an emulated Pico; a line saying why not where it cannot open."""
    from simulator.host import StartError
    from simulator.pico.session import NoImage

    try:
        from simulator.pico import window as pico
        from simulator.window import app as window
    except ImportError:
        sys.stderr.write("simulator: --pico needs Tk (python3-tk)\n")
        return 2
    if not window.available():
        sys.stderr.write("simulator: --pico needs a display for its window\n")
        return 2
    try:
        return pico.run(opts)
    except (NoImage, StartError) as e:
        sys.stderr.write("simulator: %s\n" % options.printable(str(e)))
        return 2
    except KeyboardInterrupt:
        return 0


def _interactive(host, opts):
    """The desktop window where a display exists, the terminal front end elsewhere."""
    import os

    from desktop import words

    words.set_lang(opts.lang or words.lang_from_env(os.environ))
    try:
        from simulator.window import app as window
    except ImportError:
        window = None
    if window is not None and not opts.terminal and window.available():
        return window.run(host, opts)
    try:
        from simulator import terminal
    except ImportError:
        terminal = None
    if terminal is not None:
        return terminal.run(host, opts)
    from simulator import headless

    sys.stderr.write("simulator: no display; type protocol commands (HELLO, KEY 1 5 0 K +, ...)\n")
    return headless.run_stdio(host)
