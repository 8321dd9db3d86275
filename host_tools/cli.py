"""`python -m host_tools` / `bank`: the command line over `Bank`. This module reads the
arguments, opens the port and turns errors into exit codes; the commands themselves are in
views.py (read-only), keypad.py (keys and cards), settings.py, maintenance.py (restore),
backup.py, script.py (run) and deploy.py.

Errors are one line on stderr (`bank: ...`) and an exit code (docs/host_tools.md):
0 ok, 1 refused by the unit / a check failed, 2 usage, 3 no unit, 4 port busy,
5 unit went away, 6 no reply in time, 7 unparseable reply, 8 the simulator serves the most
hosts it takes, 130 interrupted.
"""

import argparse
import os
import sys

from . import deploy, table
from .backup import cmd_backup
from .bank import Bank
from .cards import cmd_card
from .errors import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    BankError,
    CommandError,
    Failed,
    ProtocolError,
    UsageError,
)
from .keypad import (
    HOLD_MS,
    KEYPAD_ONLY,
    cmd_hold,
    cmd_insert,
    cmd_newgame,
    cmd_press,
    cmd_remove,
)
from .maintenance import cmd_restore
from .out import CARD_COUNT, integer, note, seconds
from .script import cmd_run
from .settings import cmd_name, cmd_set
from .monitor import cmd_monitor
from .night import add_parser as add_night, cmd_night
from .views import cmd_balances, cmd_games, cmd_log, cmd_mem, cmd_status
from .wire import split_keys


def cmd_deploy(args):
    return deploy.main(args)


# -- argument parsing ------------------------------------------------------------------------
CARD_ARG = "CARD (1-%d)" % CARD_COUNT
MAX_TIMEOUT = 3600  # seconds: an hour is more than any reply takes


def build_parser():
    p = argparse.ArgumentParser(
        prog="bank",
        description="Talk to a bank unit (or its simulator) over serial protocol 1.",
    )
    p.add_argument(
        "-p",
        "--port",
        help="device path, pyserial URL (socket://127.0.0.1:PORT), a simulator's TCP port "
        "(PORT or HOST:PORT) or nothing: find the Pico by USB id ($BANK_PORT is used when set)",
    )
    p.add_argument(
        "-t", "--timeout", type=seconds, default=2.0, help="seconds to wait for a reply (2)"
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser("status", help="what the unit shows and its settings")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("balances", help="the six balances")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("log", help="the transaction log, oldest first")
    s.add_argument("-n", type=integer, default=None,
                   help="last N entries (the unit's default: 20)")
    fmt = s.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true")
    fmt.add_argument("--json", action="store_true")
    s = sub.add_parser("press", help="press keys: bank press 1 5 0 K +  (or 150K+, DEAL)")
    s.add_argument("keys", nargs="+")
    s.add_argument("--no-wake", action="store_true", help="send the keys even if switched off")
    s.add_argument("--onto-entry", action="store_true", help="add the keys to an entry left "
                   "typed on the unit (without it, that is refused: bank press C clears it)")
    s = sub.add_parser("hold", help="hold one key down: bank hold C 3000")
    s.add_argument("key", help="C (3 s: a new game), DEAL (maintenance: the unit's own keypad "
                   "only), or game night's +, - or K")
    s.add_argument("ms", type=integer, help="how long it is held, in ms (3000: 3 s)")
    s.add_argument("--no-wake", action="store_true", help="hold it even if switched off (it "
                   "only wakes the unit then)")
    s = sub.add_parser("insert", help="insert a card: bank insert L 3")
    s.add_argument("slot", type=str.upper, choices=("L", "R"))
    s.add_argument("card", type=integer, choices=range(1, CARD_COUNT + 1), metavar=CARD_ARG)
    s = sub.add_parser("remove", help="take a card out: bank remove L")
    s.add_argument("slot", type=str.upper, choices=("L", "R"))
    s = sub.add_parser("name", help="name a card: bank name 1 Ann (no name: clears it)")
    s.add_argument("card", type=integer, choices=range(1, CARD_COUNT + 1), metavar=CARD_ARG)
    s.add_argument("text", nargs="*", metavar="NAME")
    s = sub.add_parser("mem", help="a unit's heap: what the firmware took, in use, free")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("run", help="run a script of commands and expected replies")
    s.add_argument("script")
    s.add_argument("--no-wake", action="store_true", help="send the first line even if the "
                   "unit is switched off (its first key then only wakes it)")
    s.add_argument("-v", "--verbose", action="store_true", help="show every line exchanged")
    s.add_argument("-x", "--fail-fast", action="store_true", help="stop at the first failure")
    s = sub.add_parser("monitor", help="show events live (Ctrl-C stops)")
    s.add_argument("--count", type=integer, help="stop after N events")
    s.add_argument("--seconds", type=seconds, help="stop after S seconds")
    s.add_argument("--json", action="store_true", help="one JSON object per event")
    s = sub.add_parser("backup", help="save the whole state to a JSON file")
    s.add_argument("file", help="the JSON file to write (-: standard output)")
    s = sub.add_parser("games", help="the games the unit keeps, newest first")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("restore", help="put a kept game (bank restore GAME, the number bank "
                       "games lists) or a backup file back (maintenance mode)")
    s.add_argument("file", nargs="?", help="a kept game's number, or a backup file (-: standard "
                   "input)")
    s.add_argument("--id", type=integer, help="the kept game of that protocol id (bank games "
                   "--json)")
    s.add_argument("--previous", action="store_true", help="the game before the last new game")
    sub.add_parser("newgame", help="start a new game (as holding C for 3 s)")
    s = sub.add_parser("set", help="bank set sound 0|1|2, bank set profile NAME")
    s.add_argument("what", choices=("sound", "profile"))
    s.add_argument("value", help="sound: 0 (off), 1 (soft) or 2 (loud); profile: the name of "
                   "one the unit has (bank status names its own; maintenance mode: a new game)")
    s = sub.add_parser("card", help="the RFID build: bank card write L 3 numbers the tag on a "
                       "reader (maintenance mode)")
    s.add_argument("action", choices=("write",))
    s.add_argument("slot", type=str.upper, choices=("L", "R"))
    s.add_argument("card", type=integer, choices=range(1, CARD_COUNT + 1), metavar=CARD_ARG)
    add_night(sub)
    s = sub.add_parser("deploy", help="copy firmware/ onto a Pico with mpremote")
    s.add_argument("--dry-run", action="store_true",
                   help="print the mpremote commands, copy nothing")
    s.add_argument("--firmware", help="the firmware directory (default: the repo's firmware/)")
    s.add_argument("--no-reset", action="store_true", help="do not reset the board after")
    s.add_argument("--mpy", action="store_true", help="compile with mpy-cross first "
                   "(without it: when the board imports what mpy-cross writes)")
    table.add_parser(sub)
    # -p and -t after the command too (bank status -p PORT), as people type them.
    for s in set(sub.choices.values()):
        s.add_argument("-p", "--port", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        s.add_argument("-t", "--timeout", type=seconds, default=argparse.SUPPRESS,
                       help=argparse.SUPPRESS)
    return p



COMMANDS = {
    "status": cmd_status,
    "balances": cmd_balances,
    "log": cmd_log,
    "press": cmd_press,
    "hold": cmd_hold,
    "insert": cmd_insert,
    "remove": cmd_remove,
    "mem": cmd_mem,
    "name": cmd_name,
    "run": cmd_run,
    "monitor": cmd_monitor,
    "backup": cmd_backup,
    "games": cmd_games,
    "restore": cmd_restore,
    "newgame": cmd_newgame,
    "set": cmd_set,
    "card": cmd_card,
    "table": table.cmd_table,
    "night": cmd_night,
}


def _check_keys(keys):
    """Refuse a typo before touching the unit."""
    try:
        split_keys(keys)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def error(text):
    """One line on stderr; what the unit said in it (a refusal's message, a name) visible."""
    note(text)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)  # exits 2 with argparse's own message on bad usage
    try:
        if args.command in ("press", "hold"):
            _check_keys(args.keys if args.command == "press" else [args.key])
        if not 0 < args.timeout <= MAX_TIMEOUT:  # NaN too; inf overflowed the port's clock
            raise UsageError("--timeout is seconds to wait for a reply: more than 0, at most %d"
                             % MAX_TIMEOUT)
        if args.command == "hold" and args.key.upper() == "DEAL" and args.ms >= HOLD_MS:
            raise UsageError(KEYPAD_ONLY)  # checked before anything is sent
        if args.command == "hold" and args.ms < 0:
            raise UsageError("hold takes how long in ms: 0 or more")
        if args.command == "log" and args.n is not None and args.n < 1:
            raise UsageError("-n takes how many entries: 1 or more")
        if args.command == "deploy":
            return cmd_deploy(args)
        if args.port == "":  # an empty $VAR given as -p "$VAR": no search of the USB unasked
            raise UsageError("--port needs a device path or a simulator's TCP port; without "
                             "--port the Pico is found by its USB id")
        with Bank.open(args.port, timeout=args.timeout) as bank:
            return COMMANDS[args.command](bank, args)
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    except Failed as exc:
        error(str(exc))
        return EXIT_FAILED
    except ProtocolError as exc:
        error(str(exc))
        return exc.exit_code
    except CommandError as exc:
        error(str(exc))
        # An argument the unit found out of its range (a hold past its longest, a profile it
        # has not): the user's arguments, as a usage error found before sending is.
        return EXIT_USAGE if exc.code == "bad-argument" else exc.exit_code
    except BankError as exc:
        error(str(exc))
        return exc.exit_code
    except KeyboardInterrupt:
        error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `bank log | head`
        try:
            sys.stdout = open(os.devnull, "w")  # silence the flush at exit
        except OSError:
            pass
        return EXIT_OK
