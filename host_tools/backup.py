"""The backup file (docs/host_tools.md, "Backup and restore"): what `bank backup` writes and
`bank restore FILE` reads back.

    {"format": "bank-backup", "version": 1, "taken", "unit" (HELLO), "profile", "volume",
     "balances" {"1"..."6"}, "pot" (the Free Parking pot's money, null while it is off: B22),
     "log" [LOG entries], "names" {card: name} (null from a unit without names), "snapshot"}

Everything but "snapshot" (the unit's own BACKUP record, null when it has none) comes from the
core protocol and NAMES.
"""

import datetime
import json
import sys

from . import rules
from .errors import EXIT_OK, CommandError, Failed, ProtocolError, UsageError
from .out import CARDS, VOLUMES, balances_or_none, money, no_game, note, say
from .rules import name_problem
from .wire import loads, printable

FORMAT = "bank-backup"
VERSION = 1
LOG_ALL = 999  # more than any unit keeps (the firmware keeps 200)
MAX_BYTES = 4 << 20  # many times a backup of the 200 records a unit keeps and its snapshot


READS = 3  # a backup read again while play moves money between its reads, at most this often


def take(bank):
    """The whole state as a backup document, each part read at one moment: the balances and the
    pot read again after the rest, and all of it read again if they moved meanwhile (play goes
    on at the keys), so that a backup never holds money a game never had."""
    info = bank.hello()
    for _ in range(READS):
        state = bank.state()
        balances = balances_or_none(bank)
        if balances is None:
            raise Failed("nothing backed up: " + no_game())  # six zeros would zero every card
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "taken": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "unit": info,
            "profile": info.get("profile"),
            "volume": state.get("sound"),
            "balances": {str(k): v for k, v in sorted(balances.items())},
            "pot": state.get("pot"),
            "log": bank.log(LOG_ALL),
            "names": _names(bank),
            "snapshot": None,
        }
        try:
            doc["snapshot"] = bank.backup()
        except CommandError as exc:
            if exc.code != "unknown-command":
                raise
        if bank.state().get("pot") == doc["pot"] and balances_or_none(bank) == balances:
            return check(doc, "%s's answers" % bank.name, ProtocolError)
    raise Failed("nothing backed up: money moved on the unit while it was read, %d times; "
                 "try again when play pauses" % READS)


def _names(bank):
    """The named cards, {} when none is named: a restore clears the names the unit has then;
    None from a unit without NAMES, whose restore leaves them."""
    try:
        return {str(c): n for c, n in sorted(bank.names().items()) if n}
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
        return None


def write(doc, path):
    """doc into path; "-" is standard output, as for most tools. A document load() would
    refuse as too large is never written (ProtocolError: the unit's reply made it so)."""
    text = json.dumps(doc, indent=1) + "\n"
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise ProtocolError("the unit's backup would be a file of over %d MB, which no backup is "
                            "and restore refuses: nothing written" % (MAX_BYTES >> 20))
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise UsageError("cannot write %s: %s" % (path, exc.strerror)) from None


def load(path):
    """A backup document read back and checked whole by the unit's own rules (rules.py), or
    UsageError saying what is wrong with it: a restore checks the file before its first
    command, so that no file stops it half done."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError("cannot read %s: %s" % (path, exc.strerror)) from None
    if len(raw) > MAX_BYTES:
        raise UsageError("%s is not a bank backup: it is larger than %d MB, and no backup is"
                         % (path, MAX_BYTES >> 20))
    try:
        # utf-8-sig: a file saved again by Windows' Notepad starts with a BOM
        doc = loads(raw.decode("utf-8-sig"), object_pairs_hook=_once, parse_int=_whole)
    except _Twice as exc:
        raise UsageError("%s: %s is given twice: which one is meant?" % (path, exc)) from None
    except _Long as exc:
        raise UsageError("%s is not a bank backup: a number of %s digits, where the largest "
                         "balance has 12" % (path, exc)) from None
    except ValueError as exc:
        raise UsageError("%s is not a JSON file: %s" % (path, exc)) from None
    except RecursionError:
        raise UsageError("%s is not a bank backup: JSON nested too deep" % path) from None
    return check(doc, path)


class _Twice(Exception):
    pass


class _Long(Exception):
    pass


def _whole(text):
    """A JSON integer, refused past 30 digits: Python's own refusal, past 4,300, tells the
    reader to call sys.set_int_max_str_digits()."""
    if len(text.lstrip("-")) > 30:
        raise _Long(len(text.lstrip("-")))
    return int(text)


def _once(pairs):
    """A JSON object whose keys are each given once (json's own takes the last of two: a card
    edited in by hand above its old balance would lose the edit, or keep it, unsaid)."""
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(json.dumps(key))
            seen.add(key)
    return doc


def check(doc, path, bad=UsageError):
    """doc, checked whole by the unit's own rules (rules.py), or bad saying what is wrong with
    it (path: whose words they are). take() checks what it was told by the same rules: a
    backup that restore would refuse is never written."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise bad("%s is not a bank backup (no \"format\": \"bank-backup\")" % path)
    version = doc.get("version", VERSION)
    if isinstance(version, bool) or version != VERSION:
        raise bad("%s is a bank backup of version %s, not %d, the one this tool reads"
                  % (path, printable(json.dumps(version))[:20], VERSION))
    ledger, profiles = rules.need("restoring a backup")
    balances = doc.get("balances")
    if not isinstance(balances, dict) or sorted(balances) != list(CARDS):
        raise bad("%s: \"balances\" must give cards 1-6" % path)
    profile = profiles.get(doc.get("profile"))
    if profile is None:
        raise bad("%s: \"profile\" must be one of %s" % (path, ", ".join(profiles.NAMES)))
    for card in CARDS:
        amount = balances[card]
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise bad("%s: balance of card %s is not a whole amount >= 0" % (path, card))
        if amount > ledger.MOST:
            raise bad("%s: balance of card %s is past %s, the most a balance holds"
                      % (path, card, money(ledger.MOST)))
        if amount % profile.resolution:
            raise bad("%s: balance of card %s is not a multiple of %s, as every amount of the "
                      "%s profile is" % (path, card, money(profile.resolution), profile.name))
    pot = doc.get("pot")
    if pot is not None and (isinstance(pot, bool) or not isinstance(pot, int) or pot < 0
                            or pot % profile.resolution):
        raise bad("%s: \"pot\" is not a whole amount >= 0 of the %s profile" % (
            path, profile.name))
    if pot is not None and pot > ledger.MOST:
        raise bad("%s: \"pot\" is past %s, the most a balance holds" % (path, money(ledger.MOST)))
    volume = doc.get("volume")
    if volume is not None and (type(volume) is not int or volume not in VOLUMES):
        raise bad("%s: \"volume\" must be 0, 1 or 2" % path)
    names = doc.get("names")  # None: a unit without names, whose restore leaves them
    if names is not None and (not isinstance(names, dict) or not set(names) <= set(CARDS)):
        raise bad("%s: \"names\" must map cards 1-6 to names" % path)
    for card, name in sorted((names or {}).items()):
        problem = name_problem(name) if isinstance(name, str) else (
            None if name is None else "a name is text")
        if problem:
            raise bad("%s: the name of card %s: %s" % (path, card, problem))
    doc["names"] = names
    return doc


def cmd_backup(bank, args):
    """The whole state: what the core protocol shows (profile, sound, balances, log), plus the
    unit's own snapshot from the BACKUP extension when it has one."""
    doc = take(bank)
    write(doc, args.file)
    said = "backed up 6 balances and %d log entries (profile %s) to %s%s" % (
        len(doc["log"]), doc["profile"],
        "standard output" if args.file == "-" else args.file,
        "" if doc["snapshot"] is not None else " (this unit has no BACKUP: no snapshot)")
    (note if args.file == "-" else say)(said)  # standard output is the backup's own
    return EXIT_OK
