"""`python -m host_tools` / `bank`: the command line over `Bank`.

Errors are one line on stderr (`bank: ...`) and an exit code (docs/host_tools.md):
0 ok, 1 refused by the unit / a check failed, 2 usage, 3 no unit, 4 port busy,
5 unit went away, 6 no reply in time, 7 unparseable reply, 130 interrupted.
"""

import argparse
import csv
import datetime
import io
import json
import os
import sys
import time

from . import link
from . import script as script_mod
from .bank import Bank, printable, split_keys
from .errors import BankError, CommandError, ProtocolError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

BACKUP_FORMAT = "bank-backup"
BACKUP_VERSION = 1
CARDS = ("1", "2", "3", "4", "5", "6")
HOLD_MS = 3000  # the unit's hold for a new game (B11) and for maintenance mode
VOLUMES = {0: "off", 1: "soft", 2: "loud"}
PROFILES = ("world", "classic", "francs")


class UsageError(Exception):
    """Bad arguments or a bad input file: exit code 2."""


class Failed(Exception):
    """The command ran but what it had to achieve did not hold: exit code 1."""


def money(amount):
    if isinstance(amount, bool) or not isinstance(amount, int):
        return str(amount)
    return "{:,}".format(amount)


def say(text=""):
    print(text, flush=True)


# -- subcommands -----------------------------------------------------------------------------
def cmd_status(bank, args):
    info = bank.hello()
    state = bank.state()
    if args.json:
        say(json.dumps({"hello": info, "state": state}))
        return EXIT_OK
    disp = state.get("display") or {}
    text = disp.get("text", "")
    annun = " ".join(a for a in ("k", "M") if disp.get(a))
    slots = state.get("slots") or {}
    sound = state.get("sound")
    names = _names(bank)
    rows = [
        (
            "unit",
            "%s firmware %s, protocol %s, profile %s, store %s"
            % (
                info.get("device"),
                info.get("firmware"),
                info.get("protocol"),
                info.get("profile"),
                info.get("store"),
            ),
        ),
        ("power", state.get("power")),
        ("display", ("%s %s" % (text, annun)).strip() or "(blank)"),
        ("lights", "red %s, green %s" % (state.get("red"), state.get("green"))),
        ("slots", "L: %s  R: %s" % tuple(_card(slots.get(s), names) for s in ("L", "R"))),
        ("entry", state.get("entry") or "-"),
        ("deal", state.get("deal")),
        ("sound", "%s (%s)" % (sound, VOLUMES.get(sound, "?"))),
        ("error", state.get("error") or "-"),
    ]
    for name, value in rows:
        say("%-8s %s" % (name, value))
    return EXIT_OK


MEM_ROWS = (("firmware", "the firmware took at boot"), ("boot", "in use after boot"),
            ("now", "in use now"), ("free", "free now"))


def cmd_mem(bank, args):
    mem = bank.memory()
    if args.json:
        say(json.dumps(mem))
        return EXIT_OK
    for key, label in MEM_ROWS:
        value = mem.get(key)
        say("%-26s %s" % (label, "-" if not isinstance(value, int) else
                          "%.1f KB (%d bytes)" % (value / 1024, value)))
    if isinstance(mem.get("gc_us"), int):
        say("%-26s %.2f ms" % ("a gc.collect() took", mem["gc_us"] / 1000))
    return EXIT_OK


def _card(card, names=None):
    if card is None or card == "bank":
        return "-" if card is None else "bank"
    name = (names or {}).get(card if isinstance(card, int) else int(card))
    return "%s %s" % (card, name) if name else str(card)


def _names(bank):
    """The names the banker gave the cards, {} from a unit without NAMES."""
    try:
        return {c: n for c, n in bank.names().items() if n}
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
        return {}


def cmd_name(bank, args):
    text = " ".join(args.text)
    if len(text) > 12 or not (text.isascii() and text.isprintable()):
        raise UsageError("a name is 1-12 printable ASCII characters")
    try:
        names = bank.set_name(args.card, text)
    except CommandError as exc:
        if exc.code == "unknown-command":
            raise Failed("this unit's firmware has no player names (NAME)") from None
        raise
    say("card %d: %s" % (args.card, names.get(args.card) or "(no name)"))
    return EXIT_OK


def cmd_balances(bank, args):
    balances = bank.balances()
    if args.json:
        say(json.dumps({str(k): v for k, v in sorted(balances.items())}))
        return EXIT_OK
    names = _names(bank)
    if not names:
        say("card     balance")
        for card, amount in sorted(balances.items()):
            say("%4d %11s" % (card, money(amount)))
        return EXIT_OK
    say("card  name              balance")
    for card, amount in sorted(balances.items()):
        say("%4d  %-12s %11s" % (card, names.get(card, ""), money(amount)))
    return EXIT_OK


LOG_COLUMNS = ("seq", "kind", "from", "to", "amount", "undoes", "via")


def cmd_log(bank, args):
    entries = bank.log(args.n)
    if args.json:
        say(json.dumps(entries))
        return EXIT_OK
    extra = []
    for entry in entries:
        for key in entry:
            if key not in LOG_COLUMNS and key not in extra:
                extra.append(key)
    columns = list(LOG_COLUMNS) + extra
    rows = [[_cell(e.get(c)) for c in columns] for e in entries]
    names = _names(bank)
    if args.csv:
        # One column per card's balance after the move (blank where the card did not move),
        # so a spreadsheet reads them without unpacking JSON.
        flat = [c for c in columns if c != "balances"]
        head = flat + ["balance_" + card for card in CARDS]
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        if names:
            head += ["from_name", "to_name"]
        writer.writerow(head)
        for e in entries:
            after = e.get("balances") if isinstance(e.get("balances"), dict) else {}
            row = [_cell(e.get(c)) for c in flat] + [_cell(after.get(card)) for card in CARDS]
            if names:
                row += [names.get(e.get(c), "") if isinstance(e.get(c), int) else ""
                        for c in ("from", "to")]
            writer.writerow(row)
        sys.stdout.write(buf.getvalue())
        return EXIT_OK
    if not entries:
        say("(no transactions)")
        return EXIT_OK
    # the table: drop optional columns no entry has
    keep = [i for i, c in enumerate(columns) if c in ("seq", "kind", "from", "to", "amount")
            or any(r[i] for r in rows)]
    shown = [[columns[i] for i in keep]] + [
        [_table_cell(columns[i], e.get(columns[i]), r[i], names) for i in keep]
        for e, r in zip(entries, rows, strict=True)
    ]
    widths = [max(len(row[i]) for row in shown) for i in range(len(keep))]
    for n, row in enumerate(shown):
        cells = []
        for i, cell in enumerate(row):
            right = shown[0][i] in ("seq", "amount", "undoes")
            cells.append(cell.rjust(widths[i]) if right else cell.ljust(widths[i]))
        say("  ".join(cells).rstrip())
        if n == 0:
            say("  ".join("-" * w for w in widths))
    return EXIT_OK


def _table_cell(column, value, text, names=None):
    if column == "amount":
        return money(value)
    if column in ("from", "to") and isinstance(value, int) and (names or {}).get(value):
        return "%d %s" % (value, names[value])
    if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
        return " ".join("%s=%s" % (k, money(v)) for k, v in value.items())  # after-balances
    return text


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def _report_state(state):
    """Print the display after a keypad action; a refusal the unit reports is exit code 1."""
    disp = state.get("display") or {}
    annun = " ".join(a for a in ("k", "M") if disp.get(a))
    say(("display %s %s" % (disp.get("text", ""), annun)).rstrip())
    if state.get("error"):
        raise Failed("the unit refused it: %s" % state["error"])
    return EXIT_OK


def cmd_press(bank, args):
    if not args.no_wake:
        bank.wake()
    return _report_state(bank.press(*args.keys))


KEYPAD_ONLY = (
    "maintenance mode is entered on the unit's own keypad (hold DEAL there for 3 seconds): "
    "a DEAL held over serial is only a DEAL press, and would start the deal timer (B13). "
    "To press DEAL, use `bank press DEAL`"
)


def cmd_hold(bank, args):
    if not args.no_wake:
        bank.wake()
    return _report_state(bank.hold(args.key, args.ms))


def cmd_insert(bank, args):
    state = bank.insert(args.slot, args.card)
    # B3: the unit shows the card's number for a second, then its balance; say both.
    balance = bank.balances().get(args.card)
    say("card %s in %s: balance %s" % (_card(args.card, _names(bank)), args.slot,
                                       money(balance)))
    return _report_state(state)


def cmd_remove(bank, args):
    return _report_state(bank.remove(args.slot))


def cmd_run(bank, args):
    try:
        with open(args.script, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as exc:
        raise UsageError("cannot read %s: %s" % (args.script, exc.strerror)) from None
    try:
        steps = script_mod.parse(text, args.script)
    except script_mod.ScriptSyntaxError as exc:
        raise UsageError(str(exc)) from None
    if not args.no_wake:
        bank.wake()  # B16: a switched-off unit would swallow the script's first key
    failed = script_mod.run(
        bank, steps, args.script, out=say, verbose=args.verbose, fail_fast=args.fail_fast
    )
    ran = len(steps)
    if failed:
        say("%s: %d of %d commands did not get the expected reply" % (args.script, failed, ran))
        return EXIT_FAILED
    say("%s: all %d commands got the expected reply" % (args.script, ran))
    return EXIT_OK


def cmd_monitor(bank, args):
    bank.events.clear()  # only what happens from now on
    bank.events_on()
    sys.stderr.write("monitoring %s, Ctrl-C to stop\n" % bank.name)
    sys.stderr.flush()
    count = 0
    stop_at = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while args.count is None or count < args.count:
            wait = 0.5
            if stop_at is not None:
                wait = min(wait, stop_at - time.monotonic())
                if wait <= 0:
                    break
            event = bank.wait_event(wait)
            if event is None:
                continue
            count += 1
            stamp = datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]
            if args.json:
                say(json.dumps({"time": stamp, "type": event.type, "data": event.data}))
            else:
                data = "" if event.data is None else json.dumps(event.data)
                say(("%s  %-12s %s" % (stamp, event.type, data)).rstrip())
    except KeyboardInterrupt:
        pass
    try:
        bank.timeout = min(bank.timeout, 1.0)
        bank.events_off()
    except (BankError, KeyboardInterrupt):
        pass  # the unit may be gone; we are leaving anyway
    sys.stderr.write("stopped after %d event%s\n" % (count, "" if count == 1 else "s"))
    return EXIT_OK


LOG_ALL = 999  # more than any unit keeps (the firmware keeps 200)


def cmd_backup(bank, args):
    """The whole state: what the core protocol shows (profile, sound, balances, log), plus the
    unit's own snapshot from the BACKUP extension when it has one."""
    info = bank.hello()
    state = bank.state()
    doc = {
        "format": BACKUP_FORMAT,
        "version": BACKUP_VERSION,
        "taken": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "unit": info,
        "profile": info.get("profile"),
        "volume": state.get("sound"),
        "balances": {str(k): v for k, v in sorted(bank.balances().items())},
        "log": bank.log(LOG_ALL),
        "names": {str(c): n for c, n in sorted(_names(bank).items())},
        "snapshot": None,
    }
    try:
        doc["snapshot"] = bank.backup()
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
    try:
        with open(args.file, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    except OSError as exc:
        raise UsageError("cannot write %s: %s" % (args.file, exc.strerror)) from None
    say(
        "backed up 6 balances and %d log entries (profile %s) to %s%s"
        % (
            len(doc["log"]),
            doc["profile"],
            args.file,
            "" if doc["snapshot"] is not None else " (this unit has no BACKUP: no snapshot)",
        )
    )
    return EXIT_OK


def _load_backup(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise UsageError("cannot read %s: %s" % (path, exc.strerror)) from None
    except ValueError as exc:
        raise UsageError("%s is not a JSON file: %s" % (path, exc)) from None
    if not isinstance(doc, dict) or doc.get("format") != BACKUP_FORMAT:
        raise UsageError("%s is not a bank backup (no \"format\": \"bank-backup\")" % path)
    balances = doc.get("balances")
    if not isinstance(balances, dict) or sorted(balances) != list(CARDS):
        raise UsageError("%s: \"balances\" must give cards 1-6" % path)
    for card, amount in balances.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise UsageError("%s: balance of card %s is not a whole amount >= 0" % (path, card))
    profile = doc.get("profile")
    if not isinstance(profile, str) or not profile.isalnum():
        raise UsageError("%s: \"profile\" must be a profile name" % path)
    volume = doc.get("volume")
    if volume is not None and volume not in VOLUMES:
        raise UsageError("%s: \"volume\" must be 0, 1 or 2" % path)
    return doc


MAINT_HINT = (
    "the unit is not in maintenance mode: hold DEAL for 3 seconds on the unit's own keypad "
    "(it cannot be done over serial; the simulator: --maintenance, or hold DEAL in its "
    "window), then try again"
)


def _need_maintenance(bank):
    try:
        ok = bank.maintenance()
    except CommandError as exc:
        if exc.code == "unknown-command":
            raise Failed("this unit's firmware has no maintenance mode (MAINT)") from None
        raise
    if not ok:
        raise Failed(MAINT_HINT)


def _maint_errors(fn):
    try:
        return fn()
    except CommandError as exc:
        if exc.code == "maintenance-required":
            raise Failed(MAINT_HINT) from None
        raise


def cmd_games(bank, args):
    games = bank.games()
    if args.json:
        say(json.dumps(games))
        return EXIT_OK
    if not games:
        say("no games kept (a game is kept when a new game or a restore replaces it, if it "
            "had transactions)")
        return EXIT_OK
    say("%6s %-8s %6s %6s  %s" % ("id", "profile", "seq", "txns", "balances 1-6"))
    for g in games:
        bal = g.get("balances") or {}
        n = g.get("transactions")
        # The banker's name for it (game 1, 2, ...) and when it was put away, where the unit
        # says (firmware from before numbers says neither).
        note = "" if g.get("number") is None else "  game %s" % g["number"]
        if isinstance(g.get("kept"), int):
            note += ", put away " + datetime.datetime.fromtimestamp(g["kept"]).strftime(
                "%Y-%m-%d %H:%M")
        if g.get("damaged"):
            say("%6s %-8s %6s %6s  %s" % (g.get("id"), "-", g.get("seq"), "?",
                                           "DAMAGED: cannot be brought back" + note))
            continue
        say("%6s %-8s %6s %6s  %s" % (g.get("id"), g.get("profile"), g.get("seq"),
                                       "?" if n is None else n,
                                       " ".join(money(bal.get(c)) for c in CARDS) + note))
    say("bring one back with: bank restore <id>  (maintenance mode)")
    return EXIT_OK


def cmd_restore(bank, args):
    if args.file is not None and args.file.isdigit():
        # A number is a kept game's id (bank games); a backup file so named is ./<number>.
        _need_maintenance(bank)
        try:
            _maint_errors(lambda: bank.restore_game(int(args.file)))
        except CommandError as exc:
            if exc.code == "no-backup":
                raise Failed("the unit keeps no game %s (see bank games)" % args.file) from None
            raise
        say("restored game %s" % args.file)
        return EXIT_OK
    if args.previous:
        _need_maintenance(bank)
        _maint_errors(bank.restore_previous)
        say("restored the previous game")
        return EXIT_OK
    if not args.file:
        raise UsageError("restore needs a FILE, a game ID (bank games) or --previous")
    doc = _load_backup(args.file)
    _need_maintenance(bank)  # checked before anything changes: no half-done restore
    _maint_errors(lambda: bank.set_profile(doc["profile"]))  # starts a new game (B15, B11)
    now = bank.balances()
    for card in CARDS:  # only the ones that differ: each SET is a logged transaction
        if now.get(int(card)) != doc["balances"][card]:
            _maint_errors(lambda c=card: bank.set_balance(int(c), doc["balances"][c]))
    if doc.get("volume") is not None:
        _set_sound(bank, doc["volume"])
    _restore_names(bank, doc.get("names"))
    got = {str(k): v for k, v in bank.balances().items()}
    if got != {c: doc["balances"][c] for c in CARDS}:
        raise Failed("restore did not hold: the unit now has %s" % json.dumps(got))
    say("restored profile %s and 6 balances from %s" % (doc["profile"], args.file))
    return EXIT_OK


def _restore_names(bank, names):
    """The players' names of a backup, when it has them and the unit keeps names (NAME)."""
    if not isinstance(names, dict) or not names:
        return
    try:
        have = bank.names()
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
        say("(this unit keeps no player names: the backup's names were not restored)")
        return
    for card in CARDS:
        want = names.get(card)
        if not isinstance(want, str) or len(want) > 12 or not want.isprintable():
            want = None
        if have.get(int(card)) != want:
            bank.set_name(int(card), want or "")


def cmd_newgame(bank, args):
    bank.wake()
    bank.new_game()
    balances = bank.balances()
    if len(set(balances.values())) != 1:
        raise Failed("no new game: balances are %s" % json.dumps(balances))
    start = next(iter(balances.values()))
    say("new game: every account at %s" % money(start))
    return EXIT_OK


def _set_sound(bank, level):
    """Volume by the keypad when it can be (B12: `.` with no card and no entry cycles
    2 -> 1 -> 0 -> 2), else by the SET SOUND extension."""
    state = bank.wake()
    slots = state.get("slots") or {}
    if state.get("sound") == level:
        return
    if not any(slots.values()) and not state.get("entry"):
        presses = (state.get("sound", 2) - level) % 3
        state = bank.press(*(["."] * presses))
    else:
        try:
            bank.set_sound(level)
        except CommandError as exc:
            if exc.code != "unknown-command":
                raise
            raise Failed(
                "cannot set the sound with a card inserted or an entry typed: take the cards "
                "out and clear the entry first"
            ) from None
        state = bank.state()
    if state.get("sound") != level:
        raise Failed("the sound is %s, not %s" % (state.get("sound"), level))


def cmd_set(bank, args):
    if args.what == "sound":
        try:
            level = int(args.value)
        except ValueError:
            level = -1
        if level not in VOLUMES:
            raise UsageError("sound must be 0 (off), 1 (soft) or 2 (loud)")
        _set_sound(bank, level)
        say("sound %d (%s)" % (level, VOLUMES[level]))
        return EXIT_OK
    name = args.value.lower()
    if not name.isalnum():
        raise UsageError("not a profile name: '%s'" % printable(args.value))
    _maint_errors(lambda: bank.set_profile(name))
    info = bank.hello()
    if info.get("profile") != name:
        raise Failed("the unit's profile is %s, not %s" % (info.get("profile"), name))
    say("profile %s: a new game has started" % name)
    return EXIT_OK


def cmd_deploy(args):
    from . import deploy

    return deploy.main(args)


# -- argument parsing ------------------------------------------------------------------------
def build_parser():
    p = argparse.ArgumentParser(
        prog="bank",
        description="Talk to a bank unit (or its simulator) over serial protocol 1.",
    )
    p.add_argument(
        "-p",
        "--port",
        help="device path, pyserial URL (socket://127.0.0.1:PORT) or nothing: find the Pico "
        "by USB id ($BANK_PORT is used when set)",
    )
    p.add_argument(
        "-t", "--timeout", type=float, default=2.0, help="seconds to wait for a reply (2)"
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser("status", help="what the unit shows and its settings")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("balances", help="the six balances")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("log", help="the transaction log, oldest first")
    s.add_argument("-n", type=int, default=None, help="last N entries (the unit's default: 20)")
    fmt = s.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true")
    fmt.add_argument("--json", action="store_true")
    s = sub.add_parser("press", help="press keys: bank press 1 5 0 K +  (or 150K+, DEAL)")
    s.add_argument("keys", nargs="+")
    s.add_argument("--no-wake", action="store_true", help="send the keys even if switched off")
    s = sub.add_parser("hold", help="hold one key down: bank hold C 3000")
    s.add_argument("key")
    s.add_argument("ms", type=int)
    s.add_argument("--no-wake", action="store_true")
    s = sub.add_parser("insert", help="insert a card: bank insert L 3")
    s.add_argument("slot", type=str.upper, choices=("L", "R"))
    s.add_argument("card", type=int, choices=range(1, 7), metavar="CARD (1-6)")
    s = sub.add_parser("remove", help="take a card out: bank remove L")
    s.add_argument("slot", type=str.upper, choices=("L", "R"))
    s = sub.add_parser("name", help="name a card: bank name 1 Ann (no name: clears it)")
    s.add_argument("card", type=int, choices=range(1, 7), metavar="CARD (1-6)")
    s.add_argument("text", nargs="*", metavar="NAME")
    s = sub.add_parser("mem", help="a unit's heap: what the firmware took, in use, free")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("run", help="run a script of commands and expected replies")
    s.add_argument("script")
    s.add_argument("--no-wake", action="store_true", help="send the first line even if the "
                   "unit is switched off (its first key then only wakes it, B16)")
    s.add_argument("-v", "--verbose", action="store_true", help="show every line exchanged")
    s.add_argument("-x", "--fail-fast", action="store_true", help="stop at the first failure")
    s = sub.add_parser("monitor", help="show events live (Ctrl-C stops)")
    s.add_argument("--count", type=int, help="stop after N events")
    s.add_argument("--seconds", type=float, help="stop after S seconds")
    s.add_argument("--json", action="store_true", help="one JSON object per event")
    s = sub.add_parser("backup", help="save the whole state to a JSON file")
    s.add_argument("file")
    s = sub.add_parser("games", help="the games the unit keeps (B11), newest first")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("restore", help="put a kept game (bank restore ID, see bank games) or a "
                       "backup file back (maintenance mode)")
    s.add_argument("file", nargs="?", help="a kept game's id, or a backup file")
    s.add_argument("--previous", action="store_true", help="the game before the last new game")
    sub.add_parser("newgame", help="start a new game (as holding C for 3 s)")
    s = sub.add_parser("set", help="bank set sound 0|1|2, bank set profile NAME")
    s.add_argument("what", choices=("sound", "profile"))
    s.add_argument("value")
    s = sub.add_parser("deploy", help="copy firmware/ onto a Pico with mpremote")
    s.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    s.add_argument("--firmware", help="the firmware directory (default: the repo's firmware/)")
    s.add_argument("--no-reset", action="store_true", help="do not reset the board after")
    s.add_argument("--mpy", action="store_true", help="compile with mpy-cross first "
                   "(tools/deploy.py only)")
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
}


def _check_keys(keys):
    """Refuse a typo before touching the unit."""
    try:
        split_keys(keys)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def error(text):
    sys.stderr.write("bank: %s\n" % text)
    sys.stderr.flush()


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)  # exits 2 with argparse's own message on bad usage
    try:
        if args.command in ("press", "hold"):
            _check_keys(args.keys if args.command == "press" else [args.key])
        if args.timeout <= 0:
            raise UsageError("--timeout must be more than 0")
        if args.command == "hold" and args.key.upper() == "DEAL" and args.ms >= HOLD_MS:
            raise UsageError(KEYPAD_ONLY)  # checked before anything is sent
        if args.command == "deploy":
            return cmd_deploy(args)
        port = args.port or os.environ.get("BANK_PORT")
        if port:
            note = link.understood(port)[1]
            if note:
                error(note)
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
