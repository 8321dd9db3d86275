"""Where the ledger lives between power cycles (B17: nothing lost). docs/storage.md has the why.

The ledger hands the store three kinds of change: `commit(ledger, rec)` after one transaction,
`save(ledger, log)` for a whole-game change (new game, restore, profile: the game starts again
from the ledger's balances, its log only `log`), `save_settings(ledger)` for the volume. Each
must be durable when it returns, or raise OSError and leave the previous state on disk (B17).
`load()` gives the snapshot dict (see games.snapshot) or None, and sets `status` to 'ok', 'new'
(nothing was ever stored) or 'damaged' (what was stored is unreadable, in part or in whole).
The store is where the log is kept: `history(seq, n, raw)` gives (base, records), the last n
of the `keep` records it holds up to the ledger's seq and, for all of them, the balances they
start from; None before anything is stored (storeload.history has the rules).

FileStore keeps two slot files, `bank.a` and `bank.b`, and a marker `bank.id`. A slot is a
checkpoint followed by a journal, one line each, every line `<crc32 hex8> <payload>\\n`:

    H {"v": 1, "gen": 7, "profile": ..., "seq": ..., "volume": ..., "n": 3, "base": [...],
       "bal": [...], "start": ..., "games": [ids]}   the header: generation, game, balances,
                                          the seq its count starts from, the kept games
    c <seq> <kind> <from> <to> <amount> <from_after> <to_after> <undoes> <via>   n log lines
    r <seq> ...                           journal: one line appended per transaction
    v <volume>                            journal: a volume change
    s <gen>                               this slot is superseded by the checkpoint <gen>

A transaction is one append of one line to the slot in use (one open, write, close: one
LittleFS commit). Every `journal_max` lines, and for whole-game changes, a fresh checkpoint is
written whole into the *other* slot with the next generation; only once it is closed is the old
slot marked superseded. Boot takes the newest complete slot: a slot whose checkpoint never
finished is a cut write (ignored); a complete line with a bad CRC, a header that does not read,
a broken seq chain or a superseding checkpoint that is missing is damage ('damaged', the last
good state used). A torn last line is a cut append: that transaction was never acknowledged.
The games kept for the banker to bring back (B11) are files of one line each, `game.<id>`,
written before the checkpoint whose header names them (games.py).
"""

try:
    from binascii import crc32
except ImportError:  # built without deflate: crc.py's bitwise one, same numbers, slower
    from store.crc import bitwise as crc32

import transient

VERSION = 1
SLOT_NAMES = ("bank.a", "bank.b")
MARK_NAME = "bank.id"
MARK_TEXT = b"bank-unit store v1\n"

# -- the file system underneath -------------------------------------------------------------


class OsFS:
    """The real file system: `open(path, mode)` and `remove(path)` as builtin open and os have
    them; `done(f)` returns once f is durable."""

    def __init__(self):
        import os

        # The builtins themselves, not methods calling them: a method's code takes heap.
        self.open = open
        self.remove = os.remove
        self.fsync = getattr(os, "fsync", None)  # CPython; on the Pico close() is the sync

    def done(self, f):
        try:
            f.flush()
            if self.fsync is not None:
                self.fsync(f.fileno())
        finally:
            f.close()


# -- lines ------------------------------------------------------------------------------------


def line(payload):
    """One stored line: the CRC32 of the payload (str, or bytes as stored) in 8 hex digits, a
    space, the payload."""
    b = payload if isinstance(payload, bytes) else payload.encode()
    return b"%08x " % (crc32(b) & 0xFFFFFFFF) + b + b"\n"


def rec_payload(tag, r):
    return "%s %d %s %d %d %d %d %d %d %s" % (tag, r[0], r[1], r[2], r[3], r[4], r[5], r[6],
                                              r[7], r[8])


class FileStore:
    """Two alternating checkpoint+journal slot files in `directory` (module docstring).

    fs: the file system (OsFS by default); tests pass one that fails on cue.
    journal_max: journal lines in a slot before the next write makes a fresh checkpoint.
    keep: log records a checkpoint carries on, and history() gives, at most.
    """

    journal_max = 128
    keep = 200  # LOG reaches this far back; older records fold into the checkpoint's base

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
        self.legacy = None  # a store from before game files: its one kept game (storeload)

    # -- boot ---------------------------------------------------------------------------------

    def load(self):
        # The reading of the slots is storeload.py's, imported by power.boot (storeload.into).
        from store import load as storeload

        return storeload.load(self)

    def history(self, seq, n, raw):
        # Read back from the slot in use (LOG, BACKUP, a checkpoint): a few times a game.
        return transient.call("store.load", "history", self, seq, n, raw)

    # -- writing ------------------------------------------------------------------------------

    def _append(self, payload):
        """One line onto the slot in use, durable on return."""
        data = line(payload)
        fs = self.fs
        self.appendable = False  # until it is known whole
        f = fs.open(self.paths[self.cur], "ab")
        try:
            f.write(data)
        except BaseException:
            f.close()
            raise
        fs.done(f)
        self.appendable = True
        self.journal += 1
        self.writes += 1
        self.bytes_written += len(data)

    # A checkpoint is written every journal_max transactions and for a whole-game change: its
    # code (checkpoint.py) is on the heap only while it runs.

    def save(self, ledger, log):
        transient.call("store.checkpoint", "write", self, ledger, None, list(log))

    def commit(self, ledger, rec):
        if self.appendable and self.journal < self.journal_max:
            self._append(rec_payload("r", rec))
        else:
            transient.call("store.checkpoint", "write", self, ledger, rec, None)

    def save_settings(self, ledger):
        if self.appendable and self.journal < self.journal_max:
            self._append("v %d" % ledger.volume)
        else:
            transient.call("store.checkpoint", "write", self, ledger, None, None)
