"""What the store keeps besides the game in play, in small files of slot.py's lines: the kept
games (B11) and the players' names. Run a few times a game: FileStore imports this module at
the first and keeps it (boot checks these files with slot.py alone).

A kept game's file, `game.<id>` (the id is the seq the game had reached: seq numbers only grow
and an empty game is never kept), is a checkpoint with no journal: `H {"v", "id", "kept",
"profile", "seq", "transactions", "n", "size", "crc", "base", "bal"}` (kept: when it was put
away, seconds since 1970 UTC, or null; size and crc: its log lines' bytes), then its n log
lines. As a dict: id, kept, profile, seq, transactions, balances (6) and pot (B22); with its
log, also base (the balances before the log, index 0 the bank) and log.

The names are two files written in turn, each one line `<crc32> <gen> <JSON list of 6 names or
nulls>`, the names as UTF-8 (a JSON escape beyond U+FFFF would not read back on MicroPython);
the newest good one counts, and a write goes to the file it is not in.
"""

import json

from brain.ledger import CARDS, POT
import jsonw
from store.slot import (NAME_FILES, VALID, Slot, accounts, chunks, crc32, first_line,
                        game_head, line, rec_payload, write)

NO_NAMES = (0, (None,) * CARDS)


def put(fs, path, ledger, base, log, wall):
    """The game in play (ledger, its log from base) into path, durable on return."""
    size = 0
    crc = 0
    for r in log:  # the log lines' size and CRC, for boot's check in a few reads
        b = line(rec_payload("c", r))
        size += len(b)
        crc = crc32(b, crc)
    bal = ledger.bal
    head = (("v", 1), ("id", ledger.seq), ("kept", None if wall is None else _when(wall)),
            ("profile", ledger.profile.name), ("seq", ledger.seq),
            ("transactions", ledger.seq - ledger.start), ("n", len(log)), ("size", size),
            ("crc", crc & 0xFFFFFFFF), ("base", base[1:CARDS + 1]), ("bal", bal[1:CARDS + 1]))
    if base[POT] or bal[POT]:
        head += (("pot", [base[POT], bal[POT]]),)  # B22: the pot's money, kept with its game
    write(fs, path, "wb", chunks(head, log))


def _when(wall):
    """Seconds since 1970 UTC from the clock wall (time.time), or None if it was never set: a
    Pico's clock starts again at 2021-01-01 at every power-up, until a host sets it."""
    import time

    t = int(wall())
    if time.gmtime(0)[0] == 2000:  # a port whose time counts from 2000
        t += 946684800
    return t if t >= 1735689600 else None  # before 2025: this firmware did not exist


def get(fs, path, gid, keep):
    """The kept game in path (with base and its last keep records: keep), or None if it does
    not read whole, or its log does not add up to its balances."""
    d = game_head(fs, path)
    if d is None:
        return None
    try:
        kept = d["kept"]
        g = {"id": int(d["id"]), "kept": None if kept is None else int(kept),
             "profile": str(d["profile"]), "seq": int(d["seq"]),
             "transactions": int(d["transactions"]), "balances": [int(x) for x in d["bal"]],
             "pot": accounts(d, "bal")[POT]}
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if (g["id"] != gid or len(g["balances"]) != CARDS or min(g["balances"]) < 0
            or g["pot"] < 0):
        return None
    if keep:
        s = Slot(keep)
        f = fs.open(path, "rb")
        try:
            s.read(f)
        finally:
            f.close()
        if (s.state != VALID or s.bad or s.journal or not s.adds_up or s.seq != g["seq"]
                or s.bal[1:CARDS + 1] != g["balances"] or s.bal[POT] != g["pot"]):
            return None
        g["base"] = s.base
        g["log"] = s.log
    return g


def pairs(gid, g):
    """The kept game gid (g, or None when it does not read) as GAMES shows it, but for its
    number, date and damage."""
    if g is None:
        return (("id", gid), ("profile", None), ("seq", gid), ("transactions", None),
                ("balances", None))
    return (("id", g["id"]), ("profile", g["profile"]), ("seq", g["seq"]),
            ("transactions", g["transactions"]),
            ("balances", tuple((str(i + 1), b) for i, b in enumerate(g["balances"]))))


def names(fs, d):
    """(the newest good names (gen, names), the index of its file or None, whether a names
    file is damaged: a whole line that does not read, or reads as no names line)."""
    best = NO_NAMES
    where = None
    bad = False
    for i in range(2):
        p, broken = first_line(fs, d + NAME_FILES[i])
        got = _names(p)
        if got is None:
            bad = bad or broken or p is not None
        elif got[0] > best[0]:
            best = got
            where = i
    return best, where, bad


def put_names(fs, d, gen, got, where):
    """got (6 names) as generation gen into the file the newest good names are not in (a cut
    write leaves them), durable on return."""
    i = 0 if where == 1 else 1
    payload = "%d %s" % (gen, jsonw.dumps(list(got), True))
    write(fs, d + NAME_FILES[i], "wb", (line(payload),))
    drop_bad_names(fs, d, (NAME_FILES[1 - i],))  # damage, superseded by the names written


def drop_bad_names(fs, d, files=NAME_FILES):
    for name in files:
        if first_line(fs, d + name)[1]:
            remove(fs, d + name)


def remove(fs, path):
    """A file no longer named goes; a failure only leaves a file nothing reads (boot removes a
    game's)."""
    try:
        fs.remove(path)
    except OSError:
        pass


def _names(p):
    """(gen, names) from a names file's payload, or None."""
    if p is None:
        return None
    try:
        gen, body = p.split(" ", 1)
        got = json.loads(body)
        gen = int(gen)
    except ValueError:  # a foreign line
        return None
    if not isinstance(got, list) or len(got) != CARDS:
        return None
    for n in got:
        if n is not None and not isinstance(n, str):
            return None
    return gen, tuple(got)
