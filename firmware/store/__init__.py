"""Where the ledger lives between power cycles (B17: nothing lost). docs/storage.md has the why.

The ledger hands the store four kinds of change: `commit(ledger, rec)` after one transaction,
`save(ledger, log)` for a whole-game change (new game, restore, profile: the game starts again
from the ledger's balances, its log only `log`), `save_settings(ledger)` for the volume,
`save_night(ledger, tag)` for game night's settings, count and clock (B19-B22). Each
must be durable when it returns, or raise OSError and leave the previous state on disk (B17).
`load()` gives the snapshot dict (see kept.snapshot) or None, and sets `status` to 'ok',
'new' (nothing was ever stored) or 'damaged' (what was stored is unreadable, in part or in
whole). The store is where the log is kept: `history(seq, n, raw)` gives (base, records), the
last n of the `keep` records it holds up to the ledger's seq and, for all of them, the balances
they start from; None before anything is stored (slot.history has the rules). The games kept
for the banker to bring back (B11): `put_game(g, with_log)`, `get_game(gid, with_log)`,
`drop_game(gid)`, their ids in `games` (newest first) and numbers in `numbers`, the game in
play's number in `number` and the highest number a played game got in `count`; the players'
names: `get_names()`, `put_names(gen, names)` (kept.py has both files' format). Damage found
after boot (a kept game's file, a names file) sets `news` for the unit to report (B17); the
banker's key on it calls `seen()`.

FileStore keeps two slot files, `bank.a` and `bank.b`, and a marker `bank.id`; slot.py owns
their format and is their one reader. A transaction is one append of one line to the slot in
use (one open, write, close: one LittleFS commit). Every `journal_max` lines, and for
whole-game changes, a fresh checkpoint is written whole into the *other* slot with the next
generation (checkpoint.py); only once it is closed is the old slot marked superseded. Boot
takes the newest complete slot (load.py): a slot whose checkpoint never finished is a cut write
(ignored); a complete line with a bad CRC, a header that does not read, a broken seq chain or a
superseding checkpoint that is missing is damage ('damaged', the last good state used). A torn
last line is a cut append: that transaction was never acknowledged.

The package's modules import downwards only: this one imports slot.py (and load.py,
checkpoint.py, kept.py where they are used); slot.py imports no module of the package but
crc.py. This module is on the heap for good: it holds what every transaction needs.
"""

from store import slot
from store.slot import MARK_NAME, SLOT_NAMES, line, write
from store.slot import crc32, rec_payload, records  # noqa: F401 (the package's names for them)

# -- the file system underneath -------------------------------------------------------------


class OsFS:
    """The real file system: `open(path, mode)` and `remove(path)` as builtin open and os have
    them; `done(f)` returns once f is durable."""

    def __init__(self):
        import os

        # The builtins themselves, not methods calling them: a method's code takes heap.
        self.open = open
        self.remove = os.remove
        self.listdir = os.listdir  # boot's sweep of game files no header names
        self.fsync = getattr(os, "fsync", None)  # CPython; on the Pico close() is the sync

    def done(self, f):
        try:
            f.flush()
            if self.fsync is not None:
                self.fsync(f.fileno())
        finally:
            f.close()


class FileStore:
    """Two alternating checkpoint+journal slot files in `directory` (module docstring).

    fs: the file system (OsFS by default); tests pass one that fails on cue.
    journal_max: journal lines in a slot before the next write makes a fresh checkpoint.
    keep: log records a checkpoint carries on, and history() gives, at most.
    """

    journal_max = 128
    keep = 200  # LOG reaches this far back; older records fold into the checkpoint's base
    wall = None  # a function giving the time (time.time) where the unit may know it

    def __init__(self, directory, fs=None, journal_max=None, keep=None):
        self.status = "new"
        self.writes = 0
        d = directory.rstrip("/")
        self.dir = d + "/" if d else ("/" if directory.startswith("/") else "")
        self.fs = fs if fs is not None else OsFS()
        if journal_max is not None:
            self.journal_max = journal_max
        if keep is not None:
            self.keep = keep
        self.paths = (self.dir + SLOT_NAMES[0], self.dir + SLOT_NAMES[1])
        self.mark = self.dir + MARK_NAME
        self.cur = None  # index of the slot in use
        self.gen = 0  # the highest generation seen
        self.appendable = False  # False: the next write must be a fresh checkpoint
        self.journal = 0
        self.marked = False
        self.detail = None  # why the store is damaged, for logs and tests
        self.scrub = False  # damage was read: drop the old slot after the next checkpoint
        self.bytes_written = 0
        self.games = []  # the kept games' ids, newest first (B11; games.py reads them)
        self.numbers = {}  # a kept game's id -> its number (game 1, 2, ...)
        self.number = 1  # the game in play's number
        self.count = 0  # the highest number a game with transactions got
        self.bad = []  # kept games found damaged, until the banker has seen it (kept.seen)
        self.gone = []  # kept games no longer named: their files go after the next checkpoint
        self.names_bad = False  # a names file found damaged, until the banker has seen it
        self.news = False  # damage found since boot that the unit has not reported yet

    # -- reading ------------------------------------------------------------------------------

    def load(self):
        # Boot-only: app.boot drops load.py once the unit is up.
        from store import load

        return load.load(self)

    def history(self, seq, n, raw):
        # Read back from the slot in use (LOG, BACKUP, a checkpoint): slot.py's reader.
        return slot.history(self, seq, n, raw)

    # -- writing ------------------------------------------------------------------------------

    def _append(self, payload):
        """One line onto the slot in use, durable on return."""
        self.appendable = False  # until it is known whole
        size = write(self.fs, self.paths[self.cur], "ab", (line(payload),))
        self.appendable = True
        self.journal += 1
        self.writes += 1
        self.bytes_written += size

    # A checkpoint is written every journal_max transactions and for a whole-game change
    # (checkpoint.py, imported at the first and kept).

    def save(self, ledger, log, base=None):
        from store import checkpoint

        checkpoint.write(self, ledger, None, list(log), base)

    def commit(self, ledger, rec):
        if self.appendable and self.journal < self.journal_max:
            self._append(rec_payload("r", rec))
        else:
            from store import checkpoint

            checkpoint.write(self, ledger, rec, None)

    def save_settings(self, ledger):
        if self.appendable and self.journal < self.journal_max:
            self._append("v %d" % ledger.volume)
        else:
            from store import checkpoint

            checkpoint.write(self, ledger, None, None)

    def save_night(self, ledger, tag):
        """Game night's tag ("p" the pot on, "n" the count, "t" the clock: B19-B22) as the
        ledger has it now, durable on return: one line (store/night.py has them)."""
        if self.appendable and self.journal < self.journal_max:
            from store import night

            self._append(night.payload(ledger, tag))
        else:
            from store import checkpoint

            checkpoint.write(self, ledger, None, None)

    # -- what else it keeps: the kept games (B11) and the players' names ---------------------
    # Run a few times a game: kept.py, imported at the first and kept.

    def put_game(self, g, with_log=False):
        """A kept game onto the store, durable on return (OSError if not); with_log: g is the
        game in play, put away with its log."""
        from store import kept

        kept.put_game(self, g, with_log)

    def get_game(self, gid, with_log=False):
        """The kept game gid as a dict (with its base and log: with_log), or None if the store
        names no such game or it does not read (then it is in `bad`)."""
        from store import kept

        return kept.get_game(self, gid, with_log)

    def seen(self):
        """The banker has seen the damage reported (B17): what does not read is kept no more."""
        if self.bad or self.names_bad:
            from store import kept

            kept.seen(self)

    def drop_game(self, gid):
        """A kept game no longer named by the store's header: its file goes."""
        from store import kept

        kept.drop_game(self, gid)

    def get_names(self):
        """(gen, the six names): the newest names kept; kept.NO_NAMES if none are."""
        from store import kept

        return kept.get_names(self)

    def put_names(self, gen, names):
        """names (6) kept as generation gen, durable on return; OSError leaves the old ones."""
        from store import kept

        kept.put_names(self, gen, names)
