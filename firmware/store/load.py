"""Reading the store's slot files (store.py's docstring has the format): at boot, the ledger
rebuilt from them (`into`); in play, the log they hold (`history`: LOG, BACKUP and each
checkpoint; `records`: LOG).

Callers reach it through transient.call: its code is on the heap only while it reads.
"""

import json

from brain import profiles
import transient
from brain.ledger import CARDS, FROM, FROM_AFTER, KINDS, TO, TO_AFTER, VIAS, apply
from store import SLOT_NAMES, VERSION, crc32


def into(ledger, profile):
    """The game from ledger.store, at boot (power.boot); returns the store's status: 'ok', 'new'
    (a game is started in profile) or 'damaged'. A damaged store with no good copy leaves the
    ledger not ready: the unit says so and waits for the banker's new game; nothing is
    invented."""
    store = ledger.store
    snap = store.load()
    status = store.status
    if snap is None:
        if status == "new":
            transient.call("brain.games", "start", ledger, profile)
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
        transient.call("brain.games", "reset", ledger, profile)
    return status


def restore(ledger, snap):
    """The ledger from a snapshot (games.snapshot); ValueError and the like if it is not one."""
    prof = profiles.get(snap["profile"])
    if prof is None:
        raise ValueError("profile")
    base = [0] + [int(x) for x in snap["base"]]
    if len(base) != CARDS + 1:
        raise ValueError("base")
    bal = list(base)
    for r in snap["log"]:
        rec = (int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]),
               int(r[7]), str(r[8]))
        if rec[1] not in KINDS or rec[8] not in VIAS or not (0 <= rec[FROM] <= CARDS and
                                                            0 <= rec[TO] <= CARDS):
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

# what a slot file turned out to be
MISSING, INCOMPLETE, CORRUPT, VALID = range(4)


def _bytes(raw):
    """The payload of a stored line as bytes, or None if its CRC does not match."""
    end = len(raw) - 1 if raw.endswith(b"\n") else len(raw)
    if end < 10 or raw[8:9] != b" ":
        return None
    try:
        crc = int(raw[:8], 16)
    except ValueError:
        return None
    b = raw[9:end]
    return b if crc32(b) & 0xFFFFFFFF == crc else None


def check(raw):
    """The payload of a stored line, or None if its CRC does not match."""
    b = _bytes(raw)
    if b is None:
        return None
    try:
        return b.decode()
    except UnicodeError:
        return None


def parse_rec(payload):
    """A record tuple from a 'c'/'r' payload; ValueError if it is not one."""
    w = payload.split(" ")
    if len(w) != 10:
        raise ValueError("record")
    # The kind and via as the constants, not fresh strings: a LOG of 200 records read back
    # holds one copy of each word.
    kind = KINDS[KINDS.index(w[2])]
    via = VIAS[VIAS.index(w[9])]
    frm = int(w[3])
    to = int(w[4])
    if not (0 <= frm <= CARDS and 0 <= to <= CARDS):
        raise ValueError("record")
    return (int(w[1]), kind, frm, to, int(w[5]), int(w[6]), int(w[7]), int(w[8]), via)


class Slot:
    """What boot found in one slot file."""

    def __init__(self, index):
        self.index = index
        self.state = MISSING
        self.head = None  # the header dict
        self.log = []  # records: the checkpoint's, then the journal's
        self.ckpt_ok = True  # every checkpoint line read
        self.bad = False  # some complete line did not read: damage
        self.clean = False  # ends with a whole good line: more may be appended
        self.journal = 0  # journal lines
        self.volume = None  # the last volume line
        self.superseded = 0  # the generation that replaced this slot, 0 if none
        self.seq = 0


def _read(store, index):
    s = Slot(index)
    try:
        f = store.fs.open(store.paths[index], "rb")
    except OSError:
        return s
    try:
        _parse(f, s)
    except MemoryError:
        s.state = CORRUPT  # a file that would not fit in RAM is no slot of ours
    finally:
        f.close()
    return s


def _parse(f, s):
    raw = f.readline()
    if not raw.endswith(b"\n"):
        s.state = INCOMPLETE  # the checkpoint was cut while it was written
        return
    p = check(raw)
    head = None
    if p is not None and p.startswith("H "):
        try:
            head = json.loads(p[2:])
            if not isinstance(head, dict) or head.get("v") != VERSION:
                head = None  # a future version: a migration would go here
        except ValueError:
            head = None
    if head is None:
        s.state = CORRUPT
        return
    s.head = head
    try:
        n = int(head["n"])
        s.seq = int(head["seq"])
    except (KeyError, TypeError, ValueError):
        s.state = CORRUPT
        return
    log = s.log
    last = 0
    for _ in range(n):
        raw = f.readline()
        if not raw.endswith(b"\n"):
            s.state = INCOMPLETE
            return
        p = check(raw)
        rec = None
        if p is not None and p.startswith("c "):
            try:
                rec = parse_rec(p)
            except ValueError:
                pass
        if rec is None or rec[0] <= last or rec[0] > s.seq:
            s.ckpt_ok = False
        else:
            last = rec[0]
            log.append(rec)
    if not s.ckpt_ok:
        s.bad = True
        s.log = log = []  # the header's balances stand in for the lost history
    s.state = VALID
    s.clean = True
    seq = s.seq
    while True:
        raw = f.readline()
        if not raw:
            return
        whole = raw.endswith(b"\n")
        p = check(raw)
        odd_end = False
        if p is None and not whole:
            # A torn append is a prefix of a line; a whole line whose newline reads as
            # something else is a bit flip: the line stands, the flip is damage.
            p = check(raw[:-1])
            odd_end = p is not None
        ok = p is not None
        if ok:
            tag = p[:2]
            if tag == "r ":
                try:
                    rec = parse_rec(p)
                except ValueError:
                    ok = False
                else:
                    if rec[0] != seq + 1:
                        ok = False  # a gap: what follows cannot be folded
                    else:
                        seq = rec[0]
                        s.seq = seq
                        log.append(rec)
            elif tag == "v ":
                try:
                    s.volume = int(p[2:]) % 3
                except ValueError:
                    ok = False
            elif tag == "s ":
                try:
                    s.superseded = int(p[2:])
                except ValueError:
                    ok = False
            else:
                ok = False
        if ok:
            s.journal += 1
        if not whole:
            s.clean = False  # a torn last line (a cut append): nothing may follow it
            s.bad = odd_end
            return
        if not ok:
            s.bad = True  # a whole line that does not read: damage; stop here
            s.clean = False
            return


def load(store):
    """FileStore.load: the newest good slot's snapshot, or None; sets store.status."""
    store.cur = None
    store.appendable = False
    store.games = []
    store.legacy = None
    store.detail = None
    store.scrub = False
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
    _games(store, best.head)
    for gid in list(store.games):
        if not _game_reads(store, gid):
            # A kept game that does not read is damage; it is offered no more (the next
            # checkpoint no longer names it), the game in play is not touched.
            store.games.remove(gid)
            damage.append("game.%d unreadable" % gid)
    store.appendable = best.clean and not damage and not best.superseded
    if damage:
        store.status = "damaged"
        store.detail = "; ".join(damage)
    else:
        store.status = "ok"
    return _snapshot(best)


def _games(store, h):
    """The kept games (B11) a header names; a header from before game files carries one game
    itself ("previous"), kept as store.legacy until a checkpoint writes its file."""
    store.games = []
    store.legacy = None
    try:
        if "games" in h:
            store.games = [int(i) for i in h["games"]]
            return
        prev = h.get("previous")
        if prev is not None:
            bal = [int(x) for x in prev["balances"]]
            if len(bal) != CARDS:
                raise ValueError("balances")
            store.legacy = {"id": int(prev["seq"]), "profile": str(prev["profile"]),
                            "seq": int(prev["seq"]), "transactions": None, "balances": bal}
            store.games = [store.legacy["id"]]
    except (KeyError, TypeError, ValueError):
        store.games = []  # the game itself reads; only the kept ones are lost


def _game_reads(store, gid):
    """A kept game's file (games.py writes it) is whole: its one line's CRC holds."""
    if store.legacy is not None and store.legacy["id"] == gid:
        return True  # in the header itself
    try:
        f = store.fs.open(store.dir + "game.%d" % gid, "rb")
    except OSError:
        return False
    try:
        raw = f.readline()
    finally:
        f.close()
    p = check(raw) if raw.endswith(b"\n") else None
    return p is not None and p.startswith("G ")


def _snapshot(s):
    h = s.head
    base = h["bal"] if not s.ckpt_ok else h["base"]
    volume = h.get("volume", 2) if s.volume is None else s.volume
    return {"v": 1, "profile": h["profile"], "seq": s.seq, "volume": volume,
            "base": base, "log": s.log, "start": h.get("start")}


def fold(bal, payload):
    """Apply the move of a stored record line (its payload, as bytes) to bal: only its from, to
    and amount are read."""
    w = payload.split(b" ")
    apply(bal, (0, 0, int(w[3]), int(w[4]), int(w[5])))


def history(store, seq, n=None, raw=False):
    """(base, records): the last n records the slot in use keeps (all of them by default, at
    most store.keep), oldest first, and the balances before the first (index 0, the bank,
    unused); None before anything is stored. Records are tuples, or with raw their stored
    payloads (bytes), which a checkpoint carries on as they are.

    Only records up to seq, the ledger's: a write that failed may have landed its line.
    Boot checked the slot, and it has changed only by appends since, so each line's CRC and
    seq are checked but only the records returned are parsed. All of them (n None) is what a
    checkpoint carries on: a line that does not read, or a log that stops short of seq, is
    OSError, never a shorter log. The last n (LOG) stop at such a line, as boot did.
    """
    if store.cur is None:
        return None
    want = store.keep if n is None or n > store.keep else n
    f = store.fs.open(store.paths[store.cur], "rb")
    try:
        p = check(f.readline())
        head = json.loads(p[2:]) if p is not None and p.startswith("H ") else None
        if not isinstance(head, dict):
            raise OSError("slot unreadable")
        at = int(head["seq"])  # the seq the slot has reached
        base = [0] + [int(x) for x in head["base"]] if n is None else None
        kept = []
        last = 0  # the last checkpoint record's seq
        while True:
            raw_line = f.readline()
            whole = raw_line.endswith(b"\n")
            b = _bytes(raw_line)
            if b is None and not whole:
                b = _bytes(raw_line[:-1])  # as boot reads a last line (_parse)
                if b is None:
                    break  # the end, or a torn append: that write was never acknowledged
            tag = b[:2] if b is not None else None
            if tag == b"c " or tag == b"r ":
                sp = b.find(b" ", 2)
                r_seq = int(b[2:sp]) if sp > 2 else -1  # -1: no record of ours
                if tag == b"c " and last < r_seq <= at:
                    last = r_seq
                elif tag == b"r " and r_seq == at + 1 <= seq:
                    at = r_seq
                elif tag == b"r " and r_seq > seq:
                    break  # a line a failed write landed: never taken
                else:
                    b = None
                if b is not None:
                    kept.append(b)
                    if len(kept) > want:
                        gone = kept.pop(0)
                        if base is not None:
                            fold(base, gone)
            elif tag != b"v " and tag != b"s ":
                b = None
            if b is None:
                if n is None:
                    raise OSError("slot unreadable")
                break
            if not whole:
                break
    except (KeyError, IndexError, TypeError, ValueError):
        raise OSError("slot unreadable") from None
    finally:
        f.close()
    if n is None and at != seq:
        raise OSError("log short of the ledger")
    if not raw:
        kept = [parse_rec(b.decode()) for b in kept]
    return base, kept


def records(ledger, n=None):
    """The last n records the ledger committed (all the store keeps by default), oldest first:
    LOG and the simulator's log view; OSError if the store cannot read them back. Whatever its
    store (FileStore's slot, through history above, or extra.MemoryStore)."""
    store = ledger.store
    if n is not None and n <= 0:
        return []
    # A number, even for all: LOG shows what reads, as boot did; only a checkpoint or a
    # backup needs the whole log or nothing (history with n None).
    got = store.history(ledger.seq, store.keep if n is None else n, False)
    return [] if got is None else got[1]
