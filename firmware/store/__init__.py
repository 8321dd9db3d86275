"""Where the game lives between power cycles (B17: nothing lost). docs/storage.md has the why.

`FileStore` is the one store, on the Pico's flash, a desktop's folder or a file system in RAM
(desktop/memfs.py), and the only code that reads or writes its state; the brain asks and tells:

    load(ledger, profile)        boot: the game into the ledger; 'ok', 'new' or 'damaged'
    commit(ledger, rec)          a transaction, durable before the ledger moves its balances
    save_settings(ledger)        the volume (B12); save_night(ledger, tag): game night's (B19-B22)
    records(n)                   the log: its last n records (all it keeps), oldest first
    kept(), number_of(gid), game(gid)   the kept games (B11): ids newest first, numbers, one game
    put_away(ledger)             the game in play into a kept game's file
    new_game(ledger, put, most), bring_back(ledger, gid, rec, put, most)   a game written whole
    listing(), backup(ledger)    GAMES, BACKUP
    names(), put_names(gen, names)   the players' names
    news(), seen()               damage found since boot, to report; the banker has seen it

Every write is durable when it returns, or raises OSError and leaves the store as it was, on
flash and in RAM. A transaction is one line appended to the slot in use; every `journal_max`
lines, and for a whole game, a checkpoint is written into the other slot from what the store
holds in RAM (the last `keep` records and the balances before them): it never reads flash back.
"""

from brain.ledger import CARDS, POT, apply
from store.slot import (GAME, MARK_NAME, MARK_TEXT, SLOT_NAMES, VERSION, chunks, line,
                        rec_payload, write)


class OsFS:
    """The real file system: `open(path, mode)`, `remove(path)` and `listdir(dir)` as builtin
    open and os have them; `done(f)` returns once f is durable."""

    def __init__(self):
        import os

        # The builtins themselves, not methods calling them: a method's code takes heap.
        self.open = open
        self.remove = os.remove
        self.listdir = os.listdir
        self.fsync = getattr(os, "fsync", None)  # CPython; on the Pico close() is the sync

    def done(self, f):
        try:
            f.flush()
            if self.fsync is not None:
                self.fsync(f.fileno())
        finally:
            f.close()


class FileStore:
    """Two alternating checkpoint+journal slot files in `directory` on fs (OsFS by default).
    journal_max: journal lines before the next write is a checkpoint; keep: the records it
    keeps (LOG's reach; older ones fold into the base); wall: a clock (time.time) a game put
    away is dated by, where the unit may know the time."""

    journal_max = 128
    keep = 200

    def __init__(self, directory, fs=None, journal_max=None, keep=None, wall=None):
        d = directory.rstrip("/")
        self.dir = d + "/" if d else ("/" if directory.startswith("/") else "")
        self.fs = fs if fs is not None else OsFS()
        if journal_max is not None:
            self.journal_max = journal_max
        if keep is not None:
            self.keep = keep
        self.wall = wall
        self.paths = (self.dir + SLOT_NAMES[0], self.dir + SLOT_NAMES[1])
        self.writes = 0  # durable writes: a body redraws its log when this changes
        self.bytes_written = 0
        self.gen = 0  # the highest generation seen
        self.cur = None  # the slot in use
        self.marked = False
        self.scrub = False  # damage was read: drop the other slot after the next checkpoint
        self._fresh()

    def _fresh(self):
        """What the store holds before boot reads it."""
        self.status = "new"
        self.detail = None  # why it is damaged, for logs and tests
        self.appendable = False  # False: the next write must be a checkpoint
        self.journal = 0
        self.base = None  # the balances before log[0]
        self.log = []  # the last keep records, oldest first
        self.games = []  # the kept games' ids, newest first
        self.numbers = {}  # a kept game's id -> its number (game 1, 2, ...)
        self.number = 1  # the game in play's number
        self.count = 0  # the highest number a game with transactions got
        self.bad = []  # kept games found damaged, until the banker has seen it
        self.gone = []  # kept games no longer named: their files go after the next checkpoint
        self.names_bad = False  # a names file found damaged, until the banker has seen it
        self.unreported = False  # damage found since boot that the unit has not reported

    # -- boot -----------------------------------------------------------------------------

    def load(self, ledger, profile=None):
        """The newest good game into the ledger (a new one in profile for a new store; B15: in
        profile when it is another); the status. Damage with no good copy leaves the ledger
        not ready: nothing is invented."""
        from store import load  # boot-only: app.boot drops it

        self._fresh()
        s, self.cur, self.gen, damage, self.marked = load.find(self.fs, self.dir, self.keep)
        self.scrub = bool(damage)
        got = None
        if s is not None:
            try:
                got = load.night(s)
            except (KeyError, IndexError, TypeError, ValueError, UnicodeError):
                s = self.cur = None  # nothing of it is trusted: Err6, not a game half read
                damage = ["game night's lines unreadable"]
        if s is None:
            if not (self.marked or damage):
                from brain import games

                games.start(ledger, profile)
                self._checkpoint(ledger, ledger.bal, [])
                ledger.ready = True
                return "new"
            self.status = "damaged"  # B17: it was there; never invent balances
            self.detail = "; ".join(damage) or "store files missing"
            return self.status
        self.journal = s.journal
        kept = load.numbers(s.head)
        if kept is None:
            damage.append("the kept games' list unreadable")
            kept = [], {}, 1, 0
        self.games, self.numbers, self.number, self.count = kept
        # A kept game that does not read stays named, listed by GAMES as damaged, until the
        # banker has seen it reported (seen); the game in play is not touched.
        self.bad, self.names_bad = load.unreadable(self.fs, self.dir, self.games)
        damage += ["game.%d unreadable" % gid for gid in self.bad]
        if self.names_bad:
            damage.append("a names file unreadable")  # the good copy is used
        self.appendable = s.clean and not damage and not s.superseded
        self.status = "damaged" if damage else "ok"
        self.detail = "; ".join(damage) or None
        try:
            load.into(ledger, s, got)
        except (KeyError, IndexError, TypeError, ValueError):
            self.status = "damaged"
            return self.status
        self.base = s.base
        self.log = s.log
        ledger.ready = True
        from brain import profiles

        if profile and profiles.get(profile) is not ledger.profile:
            from brain import games

            games.reset(ledger, profile)
        return self.status

    # -- the game in play -----------------------------------------------------------------

    def commit(self, ledger, rec):
        if self.appendable and self.journal < self.journal_max:
            self._append(rec_payload("r", rec))
            log = self.log
            log.append(rec)
            if len(log) > self.keep:
                apply(self.base, log.pop(0))
        else:
            self._checkpoint(ledger, self.base, self.log + [rec], rec)

    def save_settings(self, ledger):
        self._note(ledger, "v %d" % ledger.volume)

    def save_night(self, ledger, tag):
        """Game night's tag ("p" the pot on, "n" the count, "t" the clock) as the ledger has
        it now (store/night.py has the lines)."""
        from store import night

        self._note(ledger, night.payload(ledger, tag))

    def _note(self, ledger, payload):
        if self.appendable and self.journal < self.journal_max:
            self._append(payload)
        else:
            self._checkpoint(ledger, self.base, self.log)

    def records(self, n=None):
        """The last n records committed (all it keeps by default), oldest first."""
        log = self.log
        return list(log) if n is None else log[-n:] if n > 0 else []

    def _append(self, payload):
        """One line onto the slot in use, durable on return."""
        self.appendable = False  # until it is known whole
        size = write(self.fs, self.paths[self.cur], "ab", (line(payload),))
        self.appendable = True
        self.journal += 1
        self.writes += 1
        self.bytes_written += size

    def _checkpoint(self, ledger, base, log, rec=None, kept=None):
        """The whole game (rec applied, the log from base) into the other slot as the next
        generation; kept: the kept games it names (ids, numbers, the game's number, the
        count), the store's own by default. Only once it is durable is any of it the store's."""
        base = list(base)
        drop = len(log) - self.keep
        if drop > 0:
            for r in log[:drop]:
                apply(base, r)
            log = log[drop:]
        bal = list(ledger.bal)
        seq = ledger.seq
        if rec is not None:
            apply(bal, rec)
            seq = rec[0]
        games, numbers, number, count = kept or (self.games, self.numbers, self.number,
                                                 self.count)
        gen = self.gen + 1
        head = (("v", VERSION), ("gen", gen), ("profile", ledger.profile.name), ("seq", seq),
                ("volume", ledger.volume), ("n", len(log)), ("base", base[1:CARDS + 1]),
                ("bal", bal[1:CARDS + 1]), ("start", ledger.start), ("games", list(games)),
                ("numbers", [numbers.get(i) for i in games]), ("game", number),
                ("count", count))
        if base[POT] or bal[POT]:
            head += (("pot", [base[POT], bal[POT]]),)  # B22: the pot's money
        if ledger.pot_on or ledger.count is not None or ledger.clock is not None:
            from store import night

            head += (("night", night.plain(ledger)),)
        new = 0 if self.cur is None else 1 - self.cur
        fs = self.fs
        size = write(fs, self.paths[new], "wb", chunks(head, log))
        # Durable: the new slot wins at boot from here on. Tell the old one, so a boot that
        # finds the new slot gone knows it is damage rather than a cut checkpoint.
        self.games, self.numbers, self.number, self.count = games, numbers, number, count
        self.base = base
        self.log = log
        self.gen = gen
        self.writes += 1
        self.bytes_written += size
        if self.cur is not None and self.appendable:
            try:
                self._append("s %d" % gen)
                self.writes -= 1  # the note is part of this write, not a write of its own
            except OSError:
                pass  # the new slot is whole; the note only sharpens damage reports
        self.cur = new
        self.appendable = True
        self.journal = 0
        if self.scrub:
            # The new slot holds all there is; the other held damage (or was the copy read
            # around it): removed, so the next boot does not report it again.
            self._remove(self.paths[1 - new])
            self.scrub = False
        for gid in self.gone:  # kept games the banker saw damaged, named no more
            self._remove(self.dir + GAME + str(gid))
        self.gone = []
        if not self.marked:
            # From the first durable checkpoint on, an empty store is damage, not new.
            try:
                write(fs, self.dir + MARK_NAME, "wb", (MARK_TEXT,))
                self.marked = True
            except OSError:
                pass  # tried again at the next checkpoint

    def _remove(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass  # a file nothing names: boot removes a game's

    # -- the kept games (B11): a few times a game, store/kept.py ----------------------------

    def kept(self):
        return list(self.games)

    def number_of(self, gid):
        return self.numbers.get(gid)

    def game(self, gid, keep=0):
        """The kept game gid (kept.py has its dict; keep: with its last keep records), or None:
        not kept, or its file does not read (damage, in `bad` and news until seen)."""
        if gid not in self.games:
            return None
        from store import kept

        try:
            g = kept.get(self.fs, self.dir + GAME + str(gid), gid, keep)
        except OSError:
            return None  # the file system failing is no damage of the game's
        if g is None and gid not in self.bad:
            self.bad.append(gid)
            self._found("game.%d unreadable" % gid)
        return g

    def put_away(self, ledger):
        """The game in play into its kept game's file, durable on return; named (kept) once a
        whole game's checkpoint names it (new_game, bring_back). Its id."""
        from store import kept

        kept.put(self.fs, self.dir + GAME + str(ledger.seq), ledger, self.base, self.log,
                 self.wall)
        return ledger.seq

    def new_game(self, ledger, put, most):
        """The new game in the ledger written whole; put (an id from put_away, or None) kept
        as the newest, the oldest past most no longer."""
        self._whole(ledger, put, None, ledger.bal, [], most)

    def bring_back(self, ledger, gid, rec, put, most):
        """The kept game gid, put in the ledger, written whole with its log and rec after it;
        put kept as the newest, gid no longer. Its log is read once put is written: one game's
        log besides the store's in RAM."""
        g = self.game(gid, self.keep)
        if g is None:
            raise OSError("kept game unreadable")
        self._whole(ledger, put, gid, g["base"], g["log"] + [rec], most)

    def _whole(self, ledger, put, gid, base, log, most):
        count = self.count
        ids = [i for i in self.games if i != gid]
        if put is not None:
            count = max(count, self.number)
            ids.insert(0, put)
        numbers = {}
        for i in ids[:most]:
            numbers[i] = self.number if i == put else self.numbers.get(i)
        number = self.numbers.get(gid) or count + 1
        self._checkpoint(ledger, base, log, None, (ids[:most], numbers, number, count))
        for i in ids[most:] + [gid]:
            if i is not None:
                self._remove(self.dir + GAME + str(i))

    def listing(self):
        """GAMES: the kept games, newest first, each with its number, when it was put away and
        whether it is damaged (then with what is still known of it: its id and number)."""
        from store import kept

        out = []
        for gid in self.games:
            g = self.game(gid)
            out.append(kept.pairs(gid, g) + (("number", self.numbers.get(gid)),
                                             ("kept", None if g is None else g["kept"]),
                                             ("damaged", g is None)))
        return out

    def backup(self, ledger):
        """BACKUP: everything the store keeps, as plain data."""
        prev = self.game(self.games[0]) if self.games else None
        if prev is not None:
            prev = {"profile": prev["profile"], "seq": prev["seq"], "balances": prev["balances"]}
        base = self.base
        snap = {"v": 1, "profile": ledger.profile.name, "seq": ledger.seq,
                "volume": ledger.volume, "base": base[1:CARDS + 1],
                "log": [list(r) for r in self.log], "previous": prev, "start": ledger.start,
                "games": list(self.games)}
        if base[POT] or ledger.pot_on or ledger.count is not None or ledger.clock is not None:
            from store import night

            snap["night"] = dict(night.plain(ledger, base[POT]))  # B19-B22
        return snap

    # -- the players' names, and damage found since boot ----------------------------------

    def names(self):
        """(gen, the six names, whether a names file is damaged): the newest good names."""
        from store import kept

        best, _, bad = kept.names(self.fs, self.dir)
        if bad and not self.names_bad:
            self._found("a names file unreadable")
        self.names_bad = bad
        return best[0], best[1], bad

    def put_names(self, gen, names):
        """names (6) kept as generation gen, durable on return; OSError leaves the old ones."""
        from store import kept

        _, where, _ = kept.names(self.fs, self.dir)
        kept.put_names(self.fs, self.dir, gen, names, where)
        self.names_bad = False

    def _found(self, why):
        self.unreported = True
        self.status = "damaged"
        self.detail = why

    def news(self):
        """Whether damage was found since the unit was last told (B17: reported as boot's)."""
        n = self.unreported
        self.unreported = False
        return n

    def seen(self):
        """The banker has seen the damage reported (B17): what does not read is kept no more
        (the next write is a checkpoint that no longer names it), a bad names file goes."""
        if self.bad:
            self.games = [i for i in self.games if i not in self.bad]
            self.gone.extend(self.bad)
            self.bad = []
            self.appendable = False
        if self.names_bad:
            from store import kept

            kept.drop_bad_names(self.fs, self.dir)
            self.names_bad = False
