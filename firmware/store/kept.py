"""The store's rarely read parts: what it keeps besides the game in play, in small files of one
line each (slot.py's `line`): the kept games (B11) and the players' names (NAME / NAMES); and
`snapshot`, everything the store keeps as plain data (BACKUP). FileStore's put_game, get_game,
drop_game, get_names and put_names are these functions; they run a few times a game, so this
module is imported at the first and kept (never at boot: load.py only checks that a kept game's
line is whole).

A kept game is a dict: id (the seq the game had reached: unique, as seq numbers only grow and
an empty game is never kept), profile, seq, transactions (None: unknown, a game from a store
written before they were counted) and balances (6). Its file, `game.<id>`, is one line,
`G {"id", "profile", "seq", "transactions", "balances"}`, written before the checkpoint whose
header names it (docs/storage.md).

The names are two files written in turn, `bank.n0` and `bank.n1`, each one line
`<crc32 hex8> <gen> <JSON list of 6 names or nulls>`; the newest whole one counts, and a write
goes to the file the newest one is not in (a power cut leaves the names of before). They are
not part of a game: boot, checkpoints, new games and restores leave them alone.
"""

import json

from brain.ledger import CARDS
import jsonw
from store.slot import check, line, write

NAME_FILES = ("bank.n0", "bank.n1")
NO_NAMES = (0, (None,) * CARDS)


def game_pairs(g):
    """A kept game as the JSON writer's ordered pairs: its file's line and GAMES' entry."""
    return (("id", g["id"]), ("profile", g["profile"]), ("seq", g["seq"]),
            ("transactions", g["transactions"]), ("balances", list(g["balances"])))


def _game_path(store, gid):
    return store.dir + "game.%d" % gid


def _write(store, path, payload):
    write(store.fs, path, "wb", (line(payload),))


def _read(store, path):
    """The payload of a file's one line, or None if it is missing, does not read or is not
    whole; OSError if it cannot be closed (the file system is failing: a write would too)."""
    try:
        f = store.fs.open(path, "rb")
    except OSError:
        return None
    try:
        raw = f.readline()
    except OSError:
        raw = b""
    finally:
        f.close()
    return check(raw) if raw.endswith(b"\n") else None


def put_game(store, g):
    _write(store, _game_path(store, g["id"]), "G " + jsonw.dumps(game_pairs(g)))


def get_game(store, gid):
    if gid not in store.games:
        return None
    try:
        p = _read(store, _game_path(store, gid))
    except OSError:
        return None
    if p is None or not p.startswith("G "):
        return None
    try:
        d = json.loads(p[2:])
        n = d["transactions"]
        g = {"id": int(d["id"]), "profile": str(d["profile"]), "seq": int(d["seq"]),
             "transactions": None if n is None else int(n),
             "balances": [int(x) for x in d["balances"]]}
    except (KeyError, TypeError, ValueError):
        return None
    if g["id"] != gid or len(g["balances"]) != CARDS or min(g["balances"]) < 0:
        return None
    return g


def drop_game(store, gid):
    """A failure only leaves a file nothing reads."""
    try:
        store.fs.remove(_game_path(store, gid))
    except OSError:
        pass


def get_names(store):
    best = NO_NAMES
    for name in NAME_FILES:
        got = _names(_read(store, store.dir + name))
        if got is not None and got[0] > best[0]:
            best = got
    return best


def put_names(store, gen, names):
    _write(store, store.dir + NAME_FILES[gen % 2], "%d %s" % (gen, jsonw.dumps(list(names))))


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
    return {"v": 1, "profile": ledger.profile.name, "seq": ledger.seq, "volume": ledger.volume,
            "base": list(history[0][1:]), "log": [list(r) for r in history[1]],
            "previous": prev, "start": ledger.start, "games": list(store.games)}


def listing(store):
    """GAMES: the kept games, newest first, as the protocol shows them."""
    out = []
    for gid in store.games:
        g = store.get_game(gid)
        if g is None:
            continue  # a kept game that does not read is not offered
        bal = tuple((str(i + 1), b) for i, b in enumerate(g["balances"]))
        out.append(game_pairs(g)[:4] + (("balances", bal),))
    return out
