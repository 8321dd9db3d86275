"""The stores and file systems of the simulator, the tests and the bench; the Pico never imports
this module (main.py uses store.FileStore on the real file system), so it costs the unit no heap.
"""

import json

from brain import ledger as L
import jsonw
from store import OsFS
from store.kept import NO_NAMES, snapshot


class MemoryStore:
    """A store in RAM, for tests and for a simulator run without --state. It holds the game as
    the JSON a snapshot writes, so nothing it keeps is shared with the ledger's objects."""

    keep = 200  # as FileStore: the log it keeps at most
    wall = None  # as FileStore: the clock a game put away is dated by, if any

    def __init__(self):
        self.data = None
        self.status = "new"
        self.writes = 0
        self.games = []  # as FileStore: the kept games' ids, newest first (store/kept.py)
        self.numbers = {}  # as FileStore: their numbers, the game in play's, the highest
        self.number = 1
        self.count = 0
        self.bad = []  # as FileStore; nothing in RAM is ever damaged
        self.names_bad = False
        self.news = False
        self.kept = {}  # id -> the game with its base and log, as JSON
        self.names = NO_NAMES  # (gen, the players' names), as FileStore.get_names gives them

    # The kept games (B11), as FileStore keeps them in files.

    def put_game(self, g, with_log=False):
        g = dict(g)
        got = self.history(g["seq"], None, False) if with_log else None
        base, log = ([0] + list(g["balances"]) + [g["pot"]], []) if got is None else got
        g["base"] = list(base)
        g["log"] = [list(r) for r in log]
        self.kept[g["id"]] = json.dumps(g)

    def get_game(self, gid, with_log=False):
        data = self.kept.get(gid) if gid in self.games else None
        if data is None:
            return None
        g = json.loads(data)
        g.setdefault("kept", None)
        g.setdefault("pot", 0)
        if with_log:
            g["log"] = [tuple(r) for r in g.get("log", [])]
            g.setdefault("base", [0] + g["balances"] + [g["pot"]])
        else:
            g.pop("log", None)
            g.pop("base", None)
        return g

    def seen(self):
        pass

    def drop_game(self, gid):
        self.kept.pop(gid, None)

    def get_names(self):
        return self.names

    def put_names(self, gen, names):
        self.names = (gen, tuple(names))

    def load(self):
        if self.data is None:
            self.status = "new"
            return None
        self.status = "ok"
        return json.loads(self.data)

    def history(self, seq, n, raw):
        """As FileStore.history; records are always tuples here (raw is a slot file's)."""
        if self.data is None:
            return None
        snap = json.loads(self.data)
        log = [tuple(r) for r in snap["log"] if r[0] <= seq]
        if n is None:
            return [0] + snap["base"] + [snap.get("night", {}).get("pot", 0)], log
        return None, log[-n:] if n < len(log) else log

    def _write(self, snap):
        self.data = jsonw.dumps(snap)
        self.writes += 1

    def save(self, ledger, log, base=None):
        base = list(ledger.bal if base is None else base)
        log = list(log)
        while len(log) > self.keep:
            L.apply(base, log.pop(0))
        self._write(snapshot(ledger, (base, log)))

    def commit(self, ledger, rec):
        base, log = ledger.store.history(ledger.seq, None, False) or (list(ledger.bal), [])
        log.append(rec)
        while len(log) > self.keep:
            L.apply(base, log.pop(0))
        snap = snapshot(ledger, (base, log))
        snap["seq"] = rec[0]
        self._write(snap)

    def save_settings(self, ledger):
        self._write(snapshot(ledger))

    def save_night(self, ledger, tag):
        self._write(snapshot(ledger))


class VfsFS(OsFS):
    """A file system object that is not mounted (vfs.VfsLfs2(bdev)): tests and the bench."""

    def __init__(self, vfs):
        self.open = vfs.open
        self.remove = vfs.remove
        self.listdir = lambda d: [e[0] for e in vfs.ilistdir(d)]
        self.fsync = None
