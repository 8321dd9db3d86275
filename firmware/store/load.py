"""Boot: the game read from the store into the ledger (`into`, from Unit.boot), the newest
good slot chosen (`load`, FileStore.load's) and the damage found reported. The lines themselves
are read by slot.py, the format's one reader.

Boot-only: app.boot drops this module once the unit is up. LOG's `records` is slot.py's
(store.records); the name stays here for the host's callers.
"""

import json

from brain import profiles
from brain.ledger import FROM, FROM_AFTER, KINDS, POT, TO, TO_AFTER, VIAS, apply
from store.slot import CORRUPT, SLOT_NAMES, VALID, Slot, check, payload, whole
from store.slot import records  # noqa: F401 (the host's callers' name for it)


def into(ledger, profile):
    """The game from ledger.store, at boot (Unit.boot); returns the store's status: 'ok', 'new'
    (a game is started in profile) or 'damaged'. A damaged store with no good copy leaves the
    ledger not ready: the unit says so and waits for the banker's new game; nothing is
    invented."""
    store = ledger.store
    snap = store.load()
    status = store.status
    if snap is None:
        if status == "new":
            from brain import games

            games.start(ledger, profile)
            store.save(ledger, ())
            ledger.ready = True
        return status
    try:
        restore(ledger, snap)
    except (KeyError, IndexError, TypeError, ValueError):
        store.status = status = "damaged"
        ledger.ready = False
        return status
    ledger.ready = True
    if profile and profiles.get(profile) is not ledger.profile:
        # B15: starting with another profile starts a new game
        from brain import games

        games.reset(ledger, profile)
    return status


def restore(ledger, snap):
    """The ledger from a snapshot (kept.snapshot); ValueError and the like if it is not one."""
    prof = profiles.get(snap["profile"])
    if prof is None:
        raise ValueError("profile")
    night = snap.get("night")
    if night is not None:
        from store import night as nightlines

        night = nightlines.read(night, {})  # B19-B22: the pot, the count, the clock
    base = [0] + [int(x) for x in snap["base"]] + [0 if night is None else night["pot"]]
    if len(base) != POT + 1:
        raise ValueError("base")
    bal = list(base)
    for r in snap["log"]:
        rec = (int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]),
               int(r[7]), str(r[8]))
        if rec[1] not in KINDS or rec[8] not in VIAS or not (0 <= rec[FROM] <= POT and
                                                            0 <= rec[TO] <= POT):
            raise ValueError("record")
        apply(bal, rec)
        # The after-balances are a check on the fold: a log that does not add up is damaged.
        if (rec[FROM] and bal[rec[FROM]] != rec[FROM_AFTER]) or (
                rec[TO] and bal[rec[TO]] != rec[TO_AFTER]):
            raise ValueError("log does not add up")
    for b in bal:
        if b < 0:
            raise ValueError("negative balance")
    start = snap.get("start")
    ledger.profile = prof
    ledger.bal = bal
    ledger.seq = int(snap["seq"])
    ledger.start = None if start is None else int(start)
    ledger.volume = int(snap.get("volume", 2)) % 3
    if night is not None:
        nightlines.into(ledger, night)


def _read(store, index):
    s = Slot(index)
    try:
        f = store.fs.open(store.paths[index], "rb")
    except OSError:
        return s
    try:
        s.read(f)
    except MemoryError:
        s.state = CORRUPT  # a file that would not fit in RAM is no slot of ours
    finally:
        f.close()
    return s


def load(store):
    """FileStore.load: the newest good slot's snapshot, or None; sets store.status."""
    store.cur = None
    store.appendable = False
    store.games = []
    store.detail = None
    store.scrub = False
    store.bad = []
    store.gone = []
    store.names_bad = False
    store.news = False
    slots = (_read(store, 0), _read(store, 1))
    try:
        store.fs.open(store.mark, "rb").close()
        store.marked = True
    except OSError:  # not there: nothing was ever stored here
        store.marked = False
    best = None
    gen = 0
    damage = []
    for s in slots:
        if s.head is not None:
            try:
                g = int(s.head["gen"])
            except (KeyError, TypeError, ValueError):
                g = 0
                s.state = CORRUPT
            s.gen = g
            if g > gen:
                gen = g
        if s.state == CORRUPT:
            damage.append("%s unreadable" % SLOT_NAMES[s.index])
        elif s.bad:
            damage.append("%s has bad lines" % SLOT_NAMES[s.index])
        if s.state == VALID and (best is None or s.gen > best.gen):
            best = s
    store.gen = gen
    for s in slots:
        if s.superseded and (best is None or s.superseded > best.gen):
            damage.append("checkpoint %d is lost" % s.superseded)
    store.scrub = bool(damage)
    if best is None:
        if store.marked or damage:
            store.status = "damaged"  # B17: it was there; never invent balances
            store.detail = "; ".join(damage) or "store files missing"
        else:
            store.status = "new"
        return None
    store.cur = best.index
    store.journal = best.journal
    snap = _snapshot(best)
    if snap is None:
        store.status = "damaged"
        store.detail = "game night's lines unreadable"
        store.cur = None  # nothing of it is trusted: Err6, rather than a game half read
        return None
    _games(store, best.head)
    for gid in store.games:
        if not _game_reads(store, gid):
            # A kept game that does not read is damage, listed as such by GAMES (its number is
            # the header's) until the banker has seen it reported (kept.seen); the game in play
            # is not touched.
            store.bad.append(gid)
            damage.append("game.%d unreadable" % gid)
    if _names_damaged(store):
        store.names_bad = True  # the good copy is used (kept.get_names)
        damage.append("a names file unreadable")
    if not any(s.state == CORRUPT for s in slots):
        _sweep(store, slots)
    store.appendable = best.clean and not damage and not best.superseded
    if damage:
        store.status = "damaged"
        store.detail = "; ".join(damage)
    else:
        store.status = "ok"
    return snap


def _games(store, h):
    """The kept games (B11) the header names, and the games' numbers."""
    store.games = []
    store.numbers = {}
    try:
        store.games = [int(i) for i in h["games"]]
    except (KeyError, TypeError, ValueError):
        store.games = []  # the game itself reads; only the kept ones are lost
    k = len(store.games)
    try:
        nums = [int(x) for x in h["numbers"]]
        store.number = int(h["game"])
        store.count = int(h["count"])
        if len(nums) != k:
            raise ValueError("numbers")
    except (KeyError, TypeError, ValueError):
        # Numbers that do not read: the kept games are 1, 2, ... oldest first, and the game in
        # play the next (only the banker's names for them are guessed; no money is).
        nums = list(range(k, 0, -1))
        store.number = k + 1
        store.count = k
    for i in range(k):
        store.numbers[store.games[i]] = nums[i]


def _game_reads(store, gid):
    """A kept game's file is whole: its header's CRC holds, and the log lines after it have the
    size and CRC it says (what they mean is kept.py's to read, when the banker asks)."""
    try:
        f = store.fs.open(store.dir + "game.%d" % gid, "rb")
    except OSError:
        return False
    try:
        raw = f.readline()
        p = check(raw) if raw.endswith(b"\n") else None
        if p is None or not p.startswith("H "):
            return False
        try:
            h = json.loads(p[2:])
            return whole(f, int(h["size"]), int(h["crc"]))
        except (KeyError, TypeError, ValueError):
            return False
    finally:
        f.close()


def _names_damaged(store):
    """Whether a names file holds a whole line that does not read (a cut write, a line that
    ends early, is not damage: that write was never finished)."""
    for name in ("bank.n0", "bank.n1"):
        try:
            f = store.fs.open(store.dir + name, "rb")
        except OSError:
            continue
        try:
            raw = f.readline()
        finally:
            f.close()
        if raw.endswith(b"\n"):
            if check(raw) is None:
                return True
        elif len(raw) > 10 and payload(raw[:-1]) is not None:
            return True  # a whole line whose newline was flipped
    return False


def _sweep(store, slots):
    """Game files that no readable header names (a kill or a power cut between a game file
    and the checkpoint naming it, or before a game no longer named was removed) go: with
    neither slot unreadable, the headers read are every reference there is."""
    listdir = getattr(store.fs, "listdir", None)
    if listdir is None:
        return
    named = set()
    for s in slots:
        if s.state == VALID:
            try:
                named.update(int(i) for i in s.head.get("games", ()))
            except (KeyError, TypeError, ValueError):
                return  # a header whose games do not read: nothing is known unreferenced
    d = store.dir
    try:
        names = listdir(d[:-1] if len(d) > 1 else (d or "."))
    except OSError:
        return
    for name in names:
        name = name[name.rfind("/") + 1:]
        if name.startswith("game.") and name[5:].isdigit() and int(name[5:]) not in named:
            try:
                store.fs.remove(d + name)
            except OSError:
                pass


def _snapshot(s):
    h = s.head
    base = h["bal"] if not s.ckpt_ok else h["base"]
    volume = h.get("volume", 2) if s.volume is None else s.volume
    snap = {"v": 1, "profile": h["profile"], "seq": s.seq, "volume": volume,
            "base": base, "log": s.log, "start": h.get("start")}
    if s.night or "night" in h or "pot" in h:
        # Game night's (B19-B22): the header's, the lines after it, the pot at the base.
        from store import night

        try:
            got = night.read(h.get("night"), s.night)
            got["pot"] = int((h.get("pot") or (0, 0))[0 if s.ckpt_ok else 1])
        except (KeyError, IndexError, TypeError, ValueError, UnicodeError):
            return None  # lines whose CRC holds but that say nothing this firmware writes
        snap["night"] = got
    return snap
