"""The store's rarely read parts: what it keeps besides the game in play, in small files written
with slot.py's `line`: the kept games (B11) and the players' names (NAME / NAMES); and
`snapshot`, everything the store keeps as plain data (BACKUP). FileStore's put_game, get_game,
drop_game, seen, get_names and put_names are these functions; they run a few times a game, so
this module is imported at the first and kept (never at boot: load.py checks the files' lines
with slot.py's reader and leaves their meaning to this module).

A kept game is a dict: id (the seq the game had reached: unique, as seq numbers only grow and
an empty game is never kept), kept (when it was put away: seconds since 1970 UTC, None where
the unit did not know the time), profile, seq, transactions (None: unknown, a game from a store
written before they were counted) and balances (6); with its log, also base (the balances
before the log, index 0 the bank) and log (its last records, at most store.keep, oldest first,
as stored). Its file, `game.<id>`, is a checkpoint in the slot format with no journal
(docs/storage.md): `H {"v", "id", "kept", "profile", "seq", "transactions", "n", "size",
"crc", "base", "bal"}` (size and crc: the log lines' bytes), then its n log lines, so that
slot.py reads it and a restore carries its lines on as they are. Its number (game 1, 2, ...)
is the store's header's (store.numbers), so that a game whose file no longer reads is still
named. A kept game whose file does not read whole is damage: the store lists its id in `bad`
until the banker has seen it reported (`seen`), when it is kept no more.

The names are two files written in turn, `bank.n0` and `bank.n1`, each one line
`<crc32 hex8> <gen> <JSON list of 6 names or nulls>`, the names as UTF-8 (a JSON escape
for a character beyond U+FFFF would not read back on MicroPython); the newest good one counts,
and a write goes to the file the newest good one is not in (a power cut leaves the names of
before). A whole line that does not read is damage (`names_bad`), reported until the banker
has seen it (`seen` removes the file; the next write would replace it too). They are not part
of a game: boot, checkpoints, new games and restores leave them alone.
"""

import json

from brain.ledger import CARDS, POT
import jsonw
from store.slot import (VALID, Slot, accounts, carried, check, chunks, crc32, fold, line,
                        payload, whole, write)

NAME_FILES = ("bank.n0", "bank.n1")
NO_NAMES = (0, (None,) * CARDS)
SEQ_MAX = 0x3FFFFFFF  # above any seq: a game file has no journal for it to cut


def game_pairs(g):
    """A kept game as GAMES shows it (balances as the protocol's object), number and damage
    added by `listing`."""
    return (("id", g["id"]), ("profile", g["profile"]), ("seq", g["seq"]),
            ("transactions", g["transactions"]),
            ("balances", tuple((str(i + 1), b) for i, b in enumerate(g["balances"]))))


def _game_path(store, gid):
    return store.dir + "game.%d" % gid


def _write(store, path, payload):
    write(store.fs, path, "wb", (line(payload),))


def _read(store, path):
    """The payload of a file's first line (None if it is missing or not whole) and whether that
    line is damage: whole, or all but a flipped newline, and its CRC fails. OSError if it
    cannot be closed (the file system is failing: a write would too)."""
    try:
        f = store.fs.open(path, "rb")
    except OSError:
        return None, False
    try:
        raw = f.readline()
    except OSError:
        raw = b""
    finally:
        f.close()
    if raw.endswith(b"\n"):
        p = check(raw)
        return p, p is None
    # A cut write is a prefix of the line; a whole line whose newline reads as something else
    # is a bit flip.
    return None, len(raw) > 10 and payload(raw[:-1]) is not None


def put_game(store, g, with_log):
    """g into game.<id>, durable on return; with_log: with the log of the game in play (g is
    it, put away), as the slot holds it; a log that no longer reads is left behind, as a
    checkpoint leaves it (the balances are kept, the history is what is lost)."""
    got = None
    if with_log:
        try:
            got = store.history(g["seq"], None, True)
        except OSError:
            store.detail = "log unreadable; a game kept with its balances only"
    bal = [0] + list(g["balances"]) + [g.get("pot", 0)]
    base, log = (bal, []) if got is None else got
    # The log lines' size and CRC, in the header: boot checks the file whole in a few reads
    # (load.py), rather than line by line.
    size = 0
    crc = 0
    for r in log:
        b = carried(r)
        size += len(b)
        crc = crc32(b, crc)
    head = (("v", 1), ("id", g["id"]), ("kept", g.get("kept")), ("profile", g["profile"]),
            ("seq", g["seq"]), ("transactions", g["transactions"]), ("n", len(log)),
            ("size", size), ("crc", crc & 0xFFFFFFFF), ("base", base[1:CARDS + 1]),
            ("bal", bal[1:CARDS + 1]))
    if base[POT] or bal[POT]:
        head += (("pot", [base[POT], bal[POT]]),)  # B22: the pot's money, kept with its game
    write(store.fs, _game_path(store, g["id"]), "wb", chunks(head, log))


def get_game(store, gid, with_log=False):
    """The kept game gid (with base and log: with_log), or None: not kept, or its file does not
    read whole (then gid is in store.bad, and the damage is news for the unit to report)."""
    if gid not in store.games:
        return None
    try:
        g = _game(store, gid, store.keep if with_log else 0)
    except OSError:
        return None  # the file system failing is no damage of the game's
    if g is None:
        found(store, gid)
        return None
    if with_log and "log" not in g:
        g["base"] = [0] + list(g["balances"]) + [g["pot"]]
        g["log"] = []
    return g


def found(store, gid):
    """A kept game that does not read: damage, reported until the banker has seen it (B17)."""
    if gid not in store.bad:
        store.bad.append(gid)
        store.news = True
        store.status = "damaged"
        store.detail = "game.%d unreadable" % gid


def _game(store, gid, keep):
    """game.<id> read and checked whole (its lines' size and CRC), or None if it does not read.
    keep: with its log, the last keep records (the older folded into base), read line by line:
    every line's CRC, the seqs rising to the header's, the log adding up to the balances."""
    path = _game_path(store, gid)
    p, _ = _read(store, path)
    if p is None:
        return None
    try:
        if not p.startswith("H "):
            return None
        d = json.loads(p[2:])
        # Whole as boot checks it: a few reads (GAMES lists three games on a Pico).
        f = store.fs.open(path, "rb")
        try:
            f.readline()
            if not whole(f, int(d["size"]), int(d["crc"])):
                return None
        finally:
            f.close()
        n = d["transactions"]
        kept = d["kept"]
        g = {"id": int(d["id"]), "kept": None if kept is None else int(kept),
             "profile": str(d["profile"]), "seq": int(d["seq"]),
             "transactions": None if n is None else int(n),
             "balances": [int(x) for x in d["bal"]], "pot": accounts(d, "bal")[POT]}
        if keep and not _log(store, path, keep, g):
            return None
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if (g["id"] != gid or len(g["balances"]) != CARDS or min(g["balances"]) < 0
            or g["pot"] < 0):
        return None
    return g


def _log(store, path, keep, g):
    """g's base and log (the last keep records) from its file, line by line; False if they do
    not read or do not add up to its balances."""
    f = store.fs.open(path, "rb")
    s = Slot()
    try:
        s.read(f, SEQ_MAX, keep, True)
    finally:
        f.close()
    if s.state != VALID or s.bad or s.broken or s.journal or not s.ckpt_ok:
        return False
    b = list(s.base)
    for r in s.log:
        fold(b, r)
    if s.seq != g["seq"] or b[1:CARDS + 1] != g["balances"] or b[POT] != g["pot"]:
        return False  # a log that does not add up to the game's balances
    g["base"] = s.base
    g["log"] = s.log
    return True


def drop_game(store, gid):
    """A failure only leaves a file nothing reads (boot removes it)."""
    try:
        store.fs.remove(_game_path(store, gid))
    except OSError:
        pass


def seen(store):
    """The banker has seen the damage reported (B17: a key pressed): the kept games that do not
    read are kept no more (the next write is a checkpoint that no longer names them, and removes
    their files), and a names file that does not read goes."""
    if store.bad:
        store.games = [i for i in store.games if i not in store.bad]
        store.gone.extend(store.bad)
        store.bad = []
        store.appendable = False
    if store.names_bad:
        for name in NAME_FILES:
            if _read(store, store.dir + name)[1]:
                try:
                    store.fs.remove(store.dir + name)
                except OSError:
                    pass
        store.names_bad = False


def _names_scan(store):
    """(best (gen, names), the index of its file or None, whether a names file is damaged)."""
    best = NO_NAMES
    where = None
    bad = False
    for i in range(2):
        p, broken = _read(store, store.dir + NAME_FILES[i])
        got = _names(p)
        if got is None:
            # a line that reads but is no names line is damage too
            bad = bad or broken or p is not None
        elif got[0] > best[0]:
            best = got
            where = i
    return best, where, bad


def get_names(store):
    best, _, bad = _names_scan(store)
    if bad and not store.names_bad:
        store.news = True
        store.status = "damaged"
        store.detail = "a names file unreadable"
    store.names_bad = bad
    return best


def put_names(store, gen, names):
    _, where, bad = _names_scan(store)
    # Into the file the newest good names are not in: a cut write leaves them.
    i = 0 if where == 1 else 1
    _write(store, store.dir + NAME_FILES[i], "%d %s" % (gen, jsonw.dumps(list(names), True)))
    if bad:
        other = store.dir + NAME_FILES[1 - i]
        if _read(store, other)[1]:
            try:
                store.fs.remove(other)  # damage, now superseded by the names just written
            except OSError:
                pass
        store.names_bad = False


def _names(p):
    """(gen, names) from a names file's payload, or None."""
    if p is None:
        return None
    try:
        gen, body = p.split(" ", 1)
        names = json.loads(body)
        gen = int(gen)
    except ValueError:  # a foreign line
        return None
    if not isinstance(names, list) or len(names) != CARDS:
        return None
    for n in names:
        if n is not None and not isinstance(n, str):
            return None
    return gen, tuple(names)


def snapshot(ledger, history=None):
    """Everything the store keeps, as plain data (BACKUP, MemoryStore; what load.restore reads).
    history: (base, records), the ledger's by default (OSError if the store cannot read them
    back)."""
    store = ledger.store
    if history is None:
        history = store.history(ledger.seq, None, False)
    if history is None:
        history = (ledger.bal, [])  # nothing stored yet: the game is its balances
    prev = store.get_game(store.games[0]) if store.games else None
    if prev is not None:
        prev = {"profile": prev["profile"], "seq": prev["seq"], "balances": prev["balances"]}
    snap = {"v": 1, "profile": ledger.profile.name, "seq": ledger.seq,
            "volume": ledger.volume, "base": list(history[0][1:CARDS + 1]),
            "log": [list(r) for r in history[1]], "previous": prev, "start": ledger.start,
            "games": list(store.games)}
    pot = history[0][POT] if len(history[0]) > POT else 0
    if pot or ledger.pot_on or ledger.count is not None or ledger.clock is not None:
        from store import night

        snap["night"] = dict(night.plain(ledger, pot))  # B19-B22
    return snap


def listing(store):
    """GAMES: the kept games, newest first, as the protocol shows them: each with its number
    (game 1, 2, ... in the order they were started), when it was put away and whether it is
    damaged (a damaged one with what is still known of it: its id and number)."""
    out = []
    numbers = store.numbers
    for gid in store.games:
        g = store.get_game(gid)
        if g is None:
            pairs = (("id", gid), ("profile", None), ("seq", gid), ("transactions", None),
                     ("balances", None))
            kept = None
        else:
            pairs = game_pairs(g)
            kept = g.get("kept")
        out.append(pairs + (("number", numbers.get(gid)), ("kept", kept),
                            ("damaged", g is None)))
    return out
