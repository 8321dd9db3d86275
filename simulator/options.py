"""The simulator's command line (docs/protocol.md, "The simulator's command line"), parsed
without argparse so it runs under the MicroPython unix port too."""

from brain import profiles

TABLE_PORT = 8001  # --table's and `bank table`'s: a phone's link stays the same between runs
USAGE = """usage: python -m simulator [--headless] [--stdio | --pty | --tcp PORT] [--state DIR]
                          [--virtual-clock] [--seed N] [--profile {profiles}]
                          [--pot on|off] [--maintenance] [--terminal] [--lang en|fr]
                          [--table [PORT] [--lan]]
       python -m simulator --web [PORT] [--lan | --host ADDR]
       python -m simulator --pico [IMAGE.uf2] [--rfid] [--lang en|fr]

  (no --headless)   the desktop window; a terminal front end where no display exists
  --headless        no window: serve the serial protocol
  --stdio           on standard input/output (--headless only, its default); exits at EOF
  --pty             on a new pseudo-terminal; prints 'listening pty <path>' first (CPython)
  --tcp PORT        on 127.0.0.1:PORT (0 picks one); prints 'listening tcp 127.0.0.1:<port>'
  --state DIR       where the flash is kept (headless default: $BANK_SIM_STATE, or nothing)
  --virtual-clock   time moves only on ADVANCE and HOLD
  --seed N          reproducible deal timer draws
  --profile NAME    the edition's money; a different one starts a new game
  --pot on|off      the Free Parking pot, a house rule (off by default; kept on flash)
  --maintenance     grant maintenance mode for the run, back after each switch-off (host
                    tools may set balances, restore, profile)
  --terminal        the terminal front end even where a display exists
  --lang en|fr      the language the window and the terminal speak (default: the system's,
                    from LC_ALL, LC_MESSAGES or LANG; F12 in the window, f in the terminal)
  --table [PORT]    every phone at the table follows the game, read-only (docs/table.md):
                    serves it on 127.0.0.1:PORT ({table_port}; 0 picks one) and prints
                    'table http://<addr>:<port>/<secret>/'
  --lan             with --table: serve it on the local network too (0.0.0.0), and print its
                    QR code for the phones; the protocol's TCP port stays on 127.0.0.1

  --web [PORT]      the unit in a browser (docs/web.md): builds the page and serves it on
                    127.0.0.1:PORT (8000; 0 picks one); prints 'serving http://<addr>:<port>/'
  --lan             with --web: serve on the local network too (0.0.0.0), and print the
                    table view's link for the phones there, with its QR code
  --host ADDR       with --web: serve on ADDR, an address of this machine

  --pico [IMAGE]    the window on an emulated RP2040 running IMAGE (default: the unit's own
                    image `make uf2` built), played at its pins (docs/simulator.md)
  --rfid            with --pico: the RFID build, its cards tags on two emulated MFRC522s
""".format(profiles="|".join(profiles.NAMES), table_port=TABLE_PORT)


class Options:
    def __init__(self):
        self.headless = False
        self.mode = None  # "stdio" | "pty" | "tcp"
        self.port = 0
        self.state = None
        self.virtual_clock = False
        self.seed = None
        self.profile = None
        self.pot = None  # True / False: the Free Parking pot turned on or off (B22)
        self.maintenance = False
        self.terminal = False
        self.lang = None  # None: the system's (desktop/words.py, lang_from_env)
        self.help = False
        self.pico = False  # the window on an emulated Pico (simulator/pico/)
        self.rfid = False  # ... of the RFID build (pins.py's SLOTS = "rfid")
        self.pico_image = None  # its .uf2; None: the one `make uf2` built
        self.table = None  # the table view's port (--table), None: no table
        self.state_given = "--state"  # what named the state folder, for its refusals
        self.lan = False  # ... served on the local network too


class UsageError(Exception):
    pass


def refused(why):
    """What a refused command line prints: why, then the synopsis (the whole help would
    scroll the one line that matters away)."""
    return "simulator: %s\n%s\n(python -m simulator --help says what each option does)\n" % (
        printable(str(why)), USAGE.split("\n\n")[0])


def printable(text):
    """text for a terminal: a control character a path or an argument carried (an escape
    sequence would recolour or retitle the user's terminal) written as \\xNN."""
    return "".join("\\x%02x" % ord(c) if c < " " or c == "\x7f" else c for c in text)


def parse(argv):
    o = Options()
    args = list(argv)
    i = 0

    def value(flag):
        if i + 1 >= len(args):
            raise UsageError(flag + " needs a value")
        return args[i + 1]

    while i < len(args):
        a = args[i]
        if "=" in a and a.startswith("--"):
            a, v = a.split("=", 1)
            args[i:i + 1] = [a, v]
        if a == "--headless":
            o.headless = True
        elif a in ("--stdio", "--pty"):
            if o.mode and o.mode != a[2:]:
                raise UsageError("choose one of --stdio, --pty, --tcp")
            o.mode = a[2:]
        elif a == "--tcp":
            if o.mode and o.mode != "tcp":
                raise UsageError("choose one of --stdio, --pty, --tcp")
            o.mode = "tcp"
            o.port = _num(value(a), a, 0, 65535)
            i += 1
        elif a == "--state":
            o.state = value(a)
            if not o.state:  # an empty name would quietly keep nothing: a game lost (B17)
                raise UsageError("--state needs a folder, not an empty name")
            if o.state.startswith("-"):  # the folder forgotten: the next option taken for it
                raise UsageError("--state needs a folder, not the option %s (a folder so "
                                 "named: ./%s)" % (o.state, o.state))
            i += 1
        elif a == "--virtual-clock":
            o.virtual_clock = True
        elif a == "--seed":
            o.seed = _num(value(a), a, 0, (1 << 63) - 1)
            i += 1
        elif a == "--profile":
            o.profile = value(a).lower()
            i += 1
        elif a == "--pot":
            v = value(a).lower()
            if v not in ("on", "off"):
                raise UsageError("--pot is on or off, not %s" % v)
            o.pot = v == "on"
            i += 1
        elif a == "--lang":
            o.lang = value(a).lower()
            if o.lang not in ("en", "fr"):
                raise UsageError("--lang is en or fr, not %s" % o.lang)
            i += 1
        elif a == "--maintenance":
            o.maintenance = True
        elif a == "--terminal":
            o.terminal = True
        elif a == "--pico":
            o.pico = True
            if i + 1 < len(args) and not args[i + 1].startswith("-"):
                o.pico_image = args[i + 1]
                i += 1
        elif a == "--rfid":
            o.rfid = True
        elif a == "--table":
            o.table = TABLE_PORT
            if i + 1 < len(args) and args[i + 1].isdigit():
                o.table = _num(args[i + 1], a, 0, 65535)
                i += 1
        elif a == "--lan":
            o.lan = True
        elif a in ("-h", "--help"):
            o.help = True
        else:
            raise UsageError("unknown option " + a)
        i += 1
    if o.pico and (o.headless or o.mode or o.state or o.virtual_clock or o.seed is not None
                   or o.profile or o.pot is not None or o.maintenance or o.terminal
                   or o.table is not None):
        raise UsageError("--pico takes an image, --rfid and --lang only: the emulated chip is "
                         "the unit")
    if o.mode == "stdio" and not o.headless:
        raise UsageError("--stdio goes with --headless: the window and the terminal serve the "
                         "protocol on --tcp PORT or --pty")
    if o.terminal and o.headless:
        raise UsageError("--terminal and --headless: the terminal front end, or no front end")
    if o.rfid and not o.pico:
        raise UsageError("--rfid goes with --pico: the RFID build on the emulated RP2040")
    if o.lan and o.table is None:
        raise UsageError("--lan goes with --table (or --web): it serves the table view to the "
                         "phones on the local network")
    if o.mode == "tcp" and o.table == o.port != 0:
        raise UsageError("--tcp and --table listen on two ports: %d is given to both" % o.port)
    return o


def _num(s, flag, lo, hi):
    # ASCII digits, a - first for one below 0: CPython's int() also reads every script's
    # digits ('١' is 1), spaces, a + and _ between digits, which MicroPython's does not all read
    digits = s[1:] if s[:1] == "-" else s
    n = int(s) if digits and not digits.strip("0123456789") else None
    if n is None:
        raise UsageError(flag + " takes a whole number") from None
    if not lo <= n <= hi:
        raise UsageError("%s takes a number from %d to %d" % (flag, lo, hi))
    return n
