"""Where the game lives between power cycles (B17: nothing lost); docs/storage.md has the why,
store/slot.py the files. Every write of `FileStore` is durable when it returns, or raises
OSError and leaves the store as it was, on flash and in RAM."""

import json
import os
import time

from brain.ledger import CARDS, LOUDEST, POT, SETTINGS, apply
import jsonw
from protocol.names import refusal
from store.slot import (CORRUPT, GAME, KEPT_MOST, LINE_MAX, MARK_NAME, MARK_TEXT, NAME_FILES,
                        SLOT_NAMES, UNREADABLE, VALID, VERSION, Landed, Lines, Log, Moved,
                        chunks, crc32, gen_of, kept_game, line, missing, night_head, night_words,
                        no_file_damaged, num, payload, read, rec_payload, write)


GAME_BAD, NAMES_BAD = GAME + "%d unreadable", "a names file unreadable"  # damage, in words


def _id(name):
    n = name[5:]  # game.N's N, a kept game's id: ASCII digits only ('²' is a digit to isdigit)
    return n != "" and n.strip("0123456789") == ""


class OsFS:
    """The real file system, as builtin open and os have it; done(f) returns once f is durable."""

    def __init__(self):
        # The builtins themselves, not methods calling them: a method's code takes heap.
        self.open, self.remove, self.listdir, self.rename = open, os.remove, os.listdir, os.rename
        self.fsync = getattr(os, "fsync", None)  # CPython; on the Pico close() is the sync

    def done(self, f):
        try:
            f.flush()
            if self.fsync is not None:
                self.fsync(f.fileno())
        finally:
            f.close()


class FileStore:
    """Two alternating slot files in `directory` on fs (OsFS by default). journal_max: journal
    lines before the next write is a checkpoint; keep: the records it keeps (LOG's reach; older
    ones fold into the base); wall: the clock (time.time) a game put away is dated by."""

    journal_max = 128
    keep = 200

    def __init__(self, directory, fs=None, journal_max=None, keep=None, wall=None):
        d = directory.rstrip("/")
        self.dir = d + "/" if d else ("/" if directory.startswith("/") else "")
        self.fs = fs if fs is not None else OsFS()
        self.journal_max = self.journal_max if journal_max is None else journal_max
        self.keep = self.keep if keep is None else keep
        self.wall = wall
        self.paths = (self.dir + SLOT_NAMES[0], self.dir + SLOT_NAMES[1])
        self.writes = 0  # durable writes: a body redraws its log when this changes
        self.gen = 0  # the highest generation seen
        self.cur = None  # the slot in use
        self.size = 0  # its length: an append finds it so, or the game goes whole elsewhere
        self.marked = False
        self.scrub = False  # damage was read: drop the other slot after the next checkpoint
        self._fresh()

    def _fresh(self):
        self.detail = None  # why it is damaged, for logs and tests
        self.appendable = False  # False: the next write must be a checkpoint
        self.journal = 0
        self.log = Log(self.keep, None)  # the last keep records, and the balances before them
        self.games = []  # the kept games' ids, newest first
        self.numbers = {}  # a kept game's id -> its number (game 1, 2, ...)
        self.number = 1  # the game in play's number
        self.count = 0  # the highest number a game with transactions got
        self.bad = []  # kept games found damaged, until the banker has seen it
        self.gone = []  # kept games no longer named: their files go after the next checkpoint
        self.names_bad = False  # a names file found damaged, until the banker has seen it
        self.unreported = False  # damage found since boot that the unit has not reported
        self.unseen = False  # damage the banker has not seen reported: checkpoints say so (B17)
        self.flagged = False  # the slot in use's header says so

    def load(self):
        """Boot: (status, seq, game). status: 'new' (nothing was ever stored here), 'ok' or
        'damaged' (B17); seq: the seq the game goes on from; game: the newest good game,
        (profile name, balances, start, volume, game night's or None), which
        Ledger.load puts in play, or None: none, or nothing of it to trust."""
        self._fresh()
        s, damage, past, older = self._find()
        self.scrub = bool(damage)
        got = None
        if s is not None:
            try:
                got = s.night_of()
            except UNREADABLE:
                s = self.cur = None  # nothing of it is trusted: Err6, not a game half read
                damage = ["game night's lines unreadable"]
        if s is None:
            # no mark: nothing was ever stored here, unless a file says so
            if not (self.marked or damage or self._listed(GAME)
                    or [n for n in NAME_FILES if self._listed(n)]):
                return "new", 0, None
            self.detail = "; ".join(damage) or "store files missing"
            self.unseen = True
            return "damaged", self._adopt(0, past, ()), None  # B17: invent no balances
        self._mark()
        h = s.head
        self.flagged = h.get("damaged") is not None
        if self.flagged:
            # Damage found at an earlier boot, that the banker has not seen: a write since
            # (a host's) made a checkpoint, which removed the slot the damage was in.
            damage.append("damage not yet seen")
        self.journal = s.journal
        self.size = s.size
        try:
            ids = [num(i) for i in h["games"]]
            n = len(ids)
            # A header from before kept games had numbers (a unit flashed with a newer image)
            # has none of these three: its games numbered by age, as boot numbers those it finds.
            nums = [num(x) for x in h.get("numbers", range(n, 0, -1))]
            if len(nums) != n:
                raise ValueError("numbers")
            self.games, self.numbers, self.number, self.count = (
                ids, {ids[i]: nums[i] for i in range(n)}, num(h.get("game", n + 1)),
                num(h.get("count", n)))
        except UNREADABLE:
            damage.append("the kept games' list unreadable")  # none kept; the game still reads
            older = ()  # nor is which of the older slot's it pushed out: each file that reads
        seq = self._adopt(s.seq, past, older) if damage else s.seq
        # A kept game that does not read stays named, listed by GAMES as damaged, until the
        # banker has seen it reported (seen); the game in play is not touched.
        self.bad = [i for i in self.games if kept_game(self.fs, self._game(i), i, 0) is None]
        damage += [GAME_BAD % gid for gid in self.bad]
        self.names_bad = bool(self._names()[3])
        if self.names_bad:
            damage.append(NAMES_BAD)  # the good copy is used
        self.appendable = s.clean and not damage and not s.superseded
        self.detail = "; ".join(damage) or None
        self.unseen = bool(damage)
        self.log = s.log
        volume = h.get("volume", LOUDEST) if s.volume is None else s.volume
        game = (h["profile"], list(s.bal), h["start"] + seq - s.seq, volume, got)
        return "damaged" if damage else "ok", seq, game

    def _adopt(self, seq, past, pushed):
        """Kept games' files the game's header does not name, that read whole and are not the
        game in play (at seq) nor pushed out (named by an older header only), stay kept,
        numbered on (docs/storage.md, Err5 and Err6); the seq the game goes on from: the highest
        of past (the slots' lines') and every file's, so that no game put away later takes a
        file's name."""
        ids = sorted((int(n[5:]) for n in self._listed(GAME) if _id(n)), reverse=True)
        found = [i for i in ids if i not in self.games and i not in pushed and i != seq
                 and kept_game(self.fs, self._game(i), i, 0)]
        for i in reversed(found):
            self.count += 1
            self.numbers[i] = self.count
        self.games = sorted(self.games + found, reverse=True)
        self.number = max(self.number, self.count + 1)
        return max([past] + ids)

    def _find(self):
        """(the newest complete Slot or None, the damage found, the highest seq the slots' lines
        may have named: past it the game goes on after damage, lest a host see a seq it was
        told of name another transaction; the kept games an older slot's header names: those
        the newest does not were pushed out)."""
        # The newest slot (of one generation, the first, as the choice below takes it) read
        # whole, its records folded; the other's lines checked by their CRC alone, unless the
        # newest does not read: a long game's boot read and parsed every record of both.
        paths = self.paths
        new = 0 if gen_of(self.fs, paths[0]) >= gen_of(self.fs, paths[1]) else 1
        slots = [None, None]
        slots[new] = self._slot(new, True)
        slots[1 - new] = self._slot(1 - new, slots[new].state != VALID)
        try:
            self.fs.open(self.dir + MARK_NAME, "rb").close()
            self.marked = True
        except OSError as e:
            self.marked = not missing(e)
        best = self.cur = None
        self.gen = max(slots[0].gen, slots[1].gen)
        damage = []
        for i, s in enumerate(slots):
            if s.state == CORRUPT:
                damage.append("%s unreadable" % SLOT_NAMES[i])
            elif s.bad:
                damage.append("%s has bad lines" % SLOT_NAMES[i])
            if s.state == VALID and (best is None or s.gen > best.gen):
                best = s
                self.cur = i
        for s in slots:
            if s.superseded and (best is None or s.superseded > best.gen):
                damage.append("checkpoint %d is lost" % s.superseded)
        past = max(s.past(best, self.journal_max) for s in slots)
        named = older = set()
        try:
            for s in slots:
                if s.state == VALID:
                    ids = {num(i) for i in s.head.get("games", ())}
                    named = named | ids
                    older = older if s is best else ids
        except UNREADABLE:
            return best, damage, past, older  # a header whose games do not read names any file
        if best is None or CORRUPT in (slots[0].state, slots[1].state):
            return best, damage, past, older
        # Game files no header names go (the kept games in docs/storage.md's format): with
        # neither slot unreadable, the headers read are every reference there is.
        for name in self._listed(GAME):
            if _id(name) and int(name[5:]) not in named:
                self._remove(self.dir + name)
        return best, damage, past, older

    def _slot(self, i, fold):
        """Slot i as slot.read finds it (fold False: its records only checked), a kept game's
        file in a slot's place taken for a damaged slot: it names no kept game."""
        s = read(self.fs, self.paths[i], self.keep, fold)
        if s.state == VALID and "start" not in s.head:
            s.state = CORRUPT
        return s

    def _listed(self, prefix):
        """The store's directory's file names that start with prefix ([] if it does not
        list)."""
        d = self.dir
        try:
            found = self.fs.listdir(d[:-1] if len(d) > 1 else (d or "."))
        except (OSError, UnicodeError):  # MicroPython's, for a name that is no UTF-8
            return []
        found = [name[name.rfind("/") + 1:] for name in found]
        return [name for name in found if name.startswith(prefix)]

    def commit(self, ledger, rec):
        """A transaction, durable before the ledger moves its balances."""
        self._note(ledger, rec_payload("r", rec), rec)

    def save(self, ledger, tag):
        """The ledger's setting tag (brain/ledger.py's SETTINGS: "v" the volume, B12; game
        night's "p" the pot on, "n" the count, "t" the clock)."""
        value = getattr(ledger, SETTINGS[tag])
        words = "%d" % int(value) if tag in ("v", "p") else night_words(value)
        self._note(ledger, tag + " " + words)

    def _note(self, ledger, payload, rec=None):
        if self.appendable and self.journal < self.journal_max:
            self.appendable = False  # until the line is known whole
            try:
                n = write(self.fs, self.paths[self.cur], "ab", (line(payload),), self.size)
            except Moved:
                n = 0  # the slot was cut, removed or added to under the unit: the game no more
            if n:
                self.size += n
                self.appendable = True
                self.journal += 1
                self.writes += 1
                if rec is not None:
                    self.log.add(rec)
                return
        log = self.log if rec is None else list(self.log) + [rec]
        self._checkpoint(ledger, None, log, rec)

    def records(self, n=None):
        """The last n records (all it keeps by default), oldest first."""
        return list(self.log) if n is None else self.log.last(n) if n > 0 else []

    def _checkpoint(self, ledger, base=None, log=None, rec=None, kept=None, over=True):
        """The whole game (rec applied, log from base: by default the store's) into the other
        slot; kept: the kept games it names (ids, numbers, the game's number, the count); over:
        written over an old slot that could not be told of it too. Only once it is durable is any
        of it the store's."""
        held = Log(self.keep, list(self.log.base if base is None else base))
        for r in self.log if log is None else log:
            held.add(r)
        log, base = held, held.base
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
            head += (("pot", [base[POT], bal[POT]]),)
        if ledger.pot_on or ledger.count is not None or ledger.clock is not None:
            head += (("night", night_head(ledger)),)
        if self.unseen:
            head += (("damaged", self.detail or "unseen"),)
        new = 0 if self.cur is None else 1 - self.cur
        try:
            size = write(self.fs, self.paths[new], "wb", chunks(head, log))
        except OSError as e:
            if e.args[:1] != (21,) or not self._aside(self.paths[new]):
                raise
            size = write(self.fs, self.paths[new], "wb", chunks(head, log))
        # Durable: the new slot wins at boot from here on. Tell the old one, so a boot that
        # finds the new slot gone knows it is damage rather than a cut checkpoint.
        self.games, self.numbers, self.number, self.count = games, numbers, number, count
        self.log, self.gen = log, gen
        self.flagged = self.unseen
        self.writes += 1
        untold = self.cur is not None and not self.scrub
        if untold and self.appendable:
            try:
                write(self.fs, self.paths[self.cur], "ab", (line("s %d" % gen),))
                untold = False
            except OSError:
                pass
        self.cur = new
        self.size = size
        self.appendable = True
        self.journal = 0
        if self.scrub:
            # The new slot holds all there is; the other held damage (or was the copy read
            # around it): removed, so the next boot does not report it again.
            self._remove(self.paths[1 - new])
            self.scrub = False
        for gid in self.gone:  # kept games the banker saw damaged, named no more
            self._remove(self._game(gid))
        self.gone = []
        self._mark()
        if untold and over:
            # The old slot could not take the note (docs/storage.md's checkpoints): the same
            # checkpoint over it, lest it stand as the game with the new slot lost, nobody told.
            try:
                self._checkpoint(ledger, rec=rec, over=False)
            except OSError:
                # The game is whole in the new slot; the copy may have landed whole too, a
                # generation past it, where the next lines would not be: the next write is a
                # checkpoint that outranks it.
                self.gen += 1
                self.appendable = False

    def _mark(self):
        """From the first durable checkpoint on, or a game read back whose mark was lost, an
        empty store is damage, not new."""
        if not self.marked:
            try:
                write(self.fs, self.dir + MARK_NAME, "wb", (MARK_TEXT,))
                self.marked = True
            except OSError:
                pass  # tried again at the next checkpoint

    def _aside(self, path):
        """A folder where a slot goes (EISDIR: made there over USB, say) renamed to a name the
        store never reads, its files kept: else no checkpoint could be written again, and play
        would stop for good (B17: the last good copy is used, and play goes on). Whether it
        moved."""
        for n in range(4):
            try:
                self.fs.rename(path, path + ".folder" + (str(n) if n else ""))
                return True
            except OSError:
                pass
        return False

    def _remove(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass  # a file nothing names: boot removes a game's

    def _game(self, gid):
        return self.dir + GAME + str(gid)

    def kept(self):
        """The kept games' ids (B11), newest first."""
        return list(self.games)

    def number_of(self, gid):
        return self.numbers.get(gid)

    def game(self, gid, keep=0):
        """The kept game gid (slot.kept_game's), or None: not kept, or damaged (then in `bad`)."""
        if gid not in self.games or self.damaged(gid):
            return None  # found so by a read boot's check skips: its log, on the way back
        try:
            g = kept_game(self.fs, self._game(gid), gid, keep)
        except OSError:
            return None  # the file system failing is no damage of the game's
        if g is None and gid not in self.bad:
            self.bad.append(gid)
            self._found(GAME_BAD % gid)
        return g

    def damaged(self, gid):
        """Whether the kept game gid was found damaged (B17: said until the banker has seen it)."""
        return gid in self.bad

    def put_away(self, ledger):
        """The game in play into a kept game's file (kept once a checkpoint names it); its id."""
        base = self.log.base
        bal = ledger.bal
        size = crc = 0
        for r in self.log:
            b = line(rec_payload("c", r))
            size += len(b)
            crc = crc32(b, crc)
        when = None
        if self.wall is not None:
            when = int(self.wall())
            if time.gmtime(0)[0] == 2000:  # a port whose time counts from 2000
                when += 946684800
            if not 1735689600 <= when <= KEPT_MOST:
                when = None  # a clock no host set: a Pico's starts at 2021 at every power-up
        head = (("v", VERSION), ("id", ledger.seq), ("kept", when),
                ("profile", ledger.profile.name), ("seq", ledger.seq),
                ("transactions", ledger.seq - ledger.start), ("n", len(self.log)),
                ("size", size), ("crc", crc & 0xFFFFFFFF), ("base", base[1:CARDS + 1]),
                ("bal", bal[1:CARDS + 1]))
        if base[POT] or bal[POT]:
            head += (("pot", [base[POT], bal[POT]]),)
        write(self.fs, self._game(ledger.seq), "wb", chunks(head, self.log))
        return ledger.seq

    def new_game(self, ledger, put, most, gid=None, rec=None):
        """The ledger's new game written whole; put (put_away's id, or None) kept as the newest,
        the oldest past most no longer (a damaged one once the banker has seen it). With gid,
        the new game is that kept game brought back, its log and rec after it, and gid kept no
        longer. Its log is read once put is written: RAM holds one besides the store's."""
        base, log = ledger.bal, []
        if gid is not None:
            g = self.game(gid, self.keep)
            if g is None:
                raise OSError("kept game unreadable")
            base, log = g["base"], list(g["log"]) + [rec]
        count = self.count
        ids = [i for i in self.games if i != gid]
        if put is not None:
            count = max(count, self.number)
            ids.insert(0, put)
        # A damaged game past most stays named until the banker has seen it reported (B17).
        kept = ids[:most] + [i for i in ids[most:] if i in self.bad]
        numbers = {i: self.number if i == put else self.numbers.get(i) for i in kept}
        number = self.numbers.get(gid) or count + 1
        self._checkpoint(ledger, base, log, None, (kept, numbers, number, count))
        # Their files go after the next checkpoint: until then the other slot names them (B17).
        self.gone.extend(i for i in ids + [gid] if i is not None and i not in kept)

    def backup(self, ledger):
        """BACKUP: everything the store keeps, as plain data."""
        prev = self.game(self.games[0]) if self.games else None
        if prev is not None:
            prev = {"profile": prev["profile"], "seq": prev["seq"], "balances": prev["balances"]}
        base = self.log.base
        snap = {"v": 1, "profile": ledger.profile.name, "seq": ledger.seq,
                "volume": ledger.volume, "base": base[1:CARDS + 1],
                "log": [list(r) for r in self.log], "previous": prev, "start": ledger.start,
                "games": list(self.games)}
        if base[POT] or ledger.pot_on or ledger.count is not None or ledger.clock is not None:
            snap["night"] = dict(night_head(ledger, base[POT]))  # B19-B22
        return snap

    def _names(self):
        """(gen, names, the file they are in or None, the damaged files): the newest good names.
        Damage is a line whole (but for a flipped newline) that is no names line, or one longer
        than any written; a cut one is none."""
        gen, names, where, bad = 0, (None,) * CARDS, None, []
        for i in (0, 1):
            try:
                f = self.fs.open(self.dir + NAME_FILES[i], "rb")
            except OSError as e:
                if no_file_damaged(e):
                    raise
                if not missing(e):
                    bad.append(i)
                continue
            try:
                raw = Lines(f).next()
            except OSError:
                bad.append(i)  # there, and it does not read
                continue
            finally:
                f.close()
            whole = raw.endswith(b"\n")
            p = payload(raw if whole else raw[:-1])
            try:
                g, got = p.decode().split(" ", 1)
                g, got = num(g), json.loads(got)
                ok = whole and isinstance(got, list) and len(got) == CARDS and not [
                    n for n in got if n is not None and not (  # a name NAME would take
                        isinstance(n, str) and n and refusal(n) is None)]
            except UNREADABLE:
                ok = False
            if not ok:
                if whole or p is not None or len(raw) == LINE_MAX:
                    bad.append(i)
            elif g > gen:
                gen, names, where = g, tuple(got), i
        return gen, names, where, bad

    def names(self):
        """(gen, the six names, whether a names file is damaged): the newest good names."""
        gen, names, _, bad = self._names()
        if bad and not self.names_bad:
            self._found(NAMES_BAD)
        self.names_bad = bool(bad)
        return gen, names, self.names_bad

    def put_names(self, gen, names, ledger=None):
        """names (6) as generation gen, into the file the newest good ones are not in; damage
        they write over told first (tell, ledger's game)."""
        _, _, where, bad = self._names()
        i = 0 if where == 1 else 1
        if bad and ledger is not None:
            self.tell(ledger)
        got = "%d %s" % (gen, jsonw.dumps(list(names), True))
        try:
            write(self.fs, self.dir + NAME_FILES[i], "wb", (line(got),))
        except Landed:
            self._remove(self.dir + NAME_FILES[i])  # refused, whole or not: the older stand
            raise
        if 1 - i in bad:
            self._remove(self.dir + NAME_FILES[1 - i])  # damage the names written supersede
        self.names_bad = False

    def _found(self, why):
        self.unreported = self.unseen = True
        self.detail = why
        self.appendable = False  # the next write is a checkpoint that says it (B17)

    def tell(self, ledger):
        """Damage the banker has not seen, said now in a checkpoint of ledger's game, when what
        shows it may be gone by the next boot (a file written over, a log only a restore reads):
        B17 reports it until the banker's key. OSError: the next write says it."""
        if self.unseen and not self.flagged and ledger.ready:
            self._checkpoint(ledger)

    def refused(self, ledger, e):
        """A write refused with e, which may have landed whole (Landed: a sync that failed once
        the bytes were down): the game as ledger has it written over it now, lest a boot bring
        back what the banker saw refused (B17). The next write is a checkpoint all the same,
        as after any failure."""
        if isinstance(e, Landed) and ledger.ready:
            for _ in range(2):  # a flash that failed once may well take the next write
                try:
                    self._checkpoint(ledger)
                    break
                except OSError:
                    self._landed(ledger)
        elif isinstance(e, Landed) and self.cur is None:
            self._remove(self.paths[0])  # Err6's new game: no game to write back, none invented
        self.appendable = False

    def _landed(self, ledger):
        """After a checkpoint of ledger's game refused: if it is down whole all the same, its
        slot is the store's from now on, lest the next checkpoint go over it, the one copy
        without what was refused."""
        new = 1 - self.cur
        try:
            s = read(self.fs, self.paths[new], self.keep, False)
        except OSError:
            return  # out of files: not read, so not taken for down
        if s.state == VALID and s.gen == self.gen + 1 and s.seq == ledger.seq:
            self.cur, self.gen, self.size = new, s.gen, s.size

    def news(self):
        """Whether damage was found since the unit was last told (B17: reported as boot's)."""
        n = self.unreported
        self.unreported = False
        return n

    def seen(self, ledger):
        """The banker has seen the damage reported (B17): what does not read goes (a kept game
        at the next checkpoint, which no longer names it), and a checkpoint that says the damage
        is unseen is written over now, lest the next boot report it again."""
        self.unseen = False
        if self.bad:
            self.games = [i for i in self.games if i not in self.bad]
            self.gone.extend(self.bad)
            self.bad = []
            self.appendable = False
        if self.names_bad:
            for i in self._names()[3]:
                self._remove(self.dir + NAME_FILES[i])
            self.names_bad = False
        if self.flagged:
            try:
                self._checkpoint(ledger)
            except OSError:
                self.appendable = False  # the next write tries again
