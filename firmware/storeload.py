"""Boot's reading of the store's slot files (store.py's docstring has the format).

FileStore.load imports this module; main.boot drops it from sys.modules once the game is
loaded, since a unit in play never reads its slots again: the code is on the heap during boot
only. A test or a host that loads again just imports it again.
"""

from crc import crc32
import json

from ledger import KINDS
from store import SLOT_NAMES, VERSION

# what a slot file turned out to be
MISSING, INCOMPLETE, CORRUPT, VALID = range(4)


def check(raw):
    """The payload of a stored line, or None if its CRC does not match."""
    end = len(raw) - 1 if raw.endswith(b"\n") else len(raw)
    if end < 10 or raw[8:9] != b" ":
        return None
    try:
        crc = int(raw[:8], 16)
    except ValueError:
        return None
    b = raw[9:end]
    if crc32(b) & 0xFFFFFFFF != crc:
        return None
    try:
        return b.decode()
    except UnicodeError:
        return None


def parse_rec(payload):
    """A record tuple from a 'c'/'r' payload; ValueError if it is not one."""
    w = payload.split(" ")
    if len(w) != 10 or w[2] not in KINDS:
        raise ValueError("record")
    return (int(w[1]), w[2], int(w[3]), int(w[4]), int(w[5]), int(w[6]), int(w[7]), int(w[8]),
            w[9])


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
    store.detail = None
    store.scrub = False
    slots = (_read(store, 0), _read(store, 1))
    store.marked = store.fs.exists(store.mark)
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
    store.appendable = best.clean and not damage and not best.superseded
    if damage:
        store.status = "damaged"
        store.detail = "; ".join(damage)
    else:
        store.status = "ok"
    return _snapshot(best)


def _snapshot(s):
    h = s.head
    base = h["bal"] if not s.ckpt_ok else h["base"]
    volume = h.get("volume", 2) if s.volume is None else s.volume
    return {"v": 1, "profile": h["profile"], "seq": s.seq, "volume": volume,
            "base": base, "log": s.log, "previous": h.get("previous")}
