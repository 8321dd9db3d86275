"""The store's files (docs/storage.md): their names, their lines, and the one reader of them.

Every line is `<crc32 of the payload, 8 hex digits> <payload>\\n`. A slot file is a checkpoint
followed by a journal; a kept game's file is a checkpoint with no journal:

    H {"v": 1, "gen": 7, "profile": ..., "seq": ..., "volume": ..., "n": 3, "base": [6],
       "bal": [6], "start": ..., "games": [ids], "numbers": [numbers], "game": n,
       "count": n}                        the header (a kept game's has "id", "kept",
                                          "transactions", "size" and "crc" instead of "gen",
                                          "volume", "start" and the games)
    c <seq> <kind> <from> <to> <amount> <from_after> <to_after> <undoes> <via>   n log lines
    r <seq> ...                           journal: one line appended per transaction
    v <volume>                            journal: a volume change
    p ... | n ... | t ...                 journal: game night's (B19-B22, store/night.py)
    s <gen>                               this slot is superseded by the checkpoint <gen>
"""

import json

try:
    from binascii import crc32
except ImportError:  # built without deflate: crc.py's bitwise one, same numbers, slower
    from store.crc import bitwise as crc32

from brain.ledger import FROM, FROM_AFTER, KINDS, POT, TO, TO_AFTER, VIAS, apply
import jsonw

VERSION = 1
SLOT_NAMES = ("bank.a", "bank.b")
MARK_NAME = "bank.id"
MARK_TEXT = b"bank-unit store v1\n"
NAME_FILES = ("bank.n0", "bank.n1")
GAME = "game."  # a kept game's file: GAME + its id

MISSING, INCOMPLETE, CORRUPT, VALID = range(4)  # what a slot file turned out to be


def line(payload):
    """One stored line of payload (str or bytes)."""
    b = payload if isinstance(payload, bytes) else payload.encode()
    return b"%08x " % (crc32(b) & 0xFFFFFFFF) + b + b"\n"


def write(fs, path, mode, chunks):
    """chunks (bytes) written to path ("wb" anew, "ab" appended), durable on return (fs.done);
    the bytes written. OSError if not, the file closed either way: every write of the store."""
    f = fs.open(path, mode)
    size = 0
    try:
        for chunk in chunks:
            f.write(chunk)
            size += len(chunk)
    except BaseException:
        f.close()
        raise
    fs.done(f)
    return size


def rec_payload(tag, r):
    return "%s %d %s %d %d %d %d %d %d %s" % (tag, r[0], r[1], r[2], r[3], r[4], r[5], r[6],
                                              r[7], r[8])


def chunks(head, log):
    """A checkpoint's or a kept game's file, about 512 bytes at a time: its header (the JSON of
    the pairs head), then its log's lines."""
    chunk = line("H " + jsonw.dumps(head))
    for r in log:
        chunk += line(rec_payload("c", r))
        if len(chunk) >= 512:
            yield chunk
            chunk = b""
    if chunk:
        yield chunk


def payload(raw):
    """The payload (bytes) of a stored line, with or without its newline; None if its CRC does
    not match."""
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
    """The payload of a stored line as text, or None."""
    b = payload(raw)
    try:
        return None if b is None else b.decode()
    except UnicodeError:
        return None


def first_line(fs, path):
    """(the payload of a small file's one line, None if missing or not whole; whether that line
    is damage: whole, or but for a flipped newline, and its CRC fails). A cut write is a prefix
    of its line, never damage."""
    try:
        f = fs.open(path, "rb")
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
    return None, len(raw) > 10 and payload(raw[:-1]) is not None


def parse_rec(b):
    """A record tuple from a 'c'/'r' payload (bytes); ValueError if it is none of ours."""
    w = b.decode().split(" ")
    if len(w) != 10:
        raise ValueError("record")
    # The kind and via as the constants, not fresh strings: 200 records hold one copy of each.
    kind = KINDS[KINDS.index(w[2])]
    via = VIAS[VIAS.index(w[9])]
    frm = int(w[3])
    to = int(w[4])
    if not (0 <= frm <= POT and 0 <= to <= POT):
        raise ValueError("record")
    return (int(w[1]), kind, frm, to, int(w[5]), int(w[6]), int(w[7]), int(w[8]), via)


def accounts(head, key):
    """The balances a header gives as key ("base" or "bal") as the ledger holds them: the
    bank's 0, the cards', the pot's (B22: "pot": [at base, at bal], 0 without it)."""
    pot = head.get("pot") or (0, 0)
    return [0] + [int(x) for x in head[key]] + [int(pot[0 if key == "base" else 1])]


def game_head(fs, path):
    """A kept game's header (dict) if its file reads whole: the header's CRC, and the size and
    CRC of the log lines after it (a few reads of 512 bytes); else None."""
    try:
        f = fs.open(path, "rb")
    except OSError:
        return None
    try:
        p = check(f.readline())
        if p is None or not p.startswith("H "):
            return None
        h = json.loads(p[2:])
        size = int(h["size"])
        crc = 0
        while True:
            b = f.read(512)
            if not b:
                break
            size -= len(b)
            crc = crc32(b, crc)
        return h if size == 0 and crc & 0xFFFFFFFF == int(h["crc"]) else None
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    finally:
        f.close()


class Slot:
    """A slot file (or a kept game's) read line by line: what it holds and how it ends."""

    def __init__(self, keep):
        self.state = MISSING
        self.head = None  # the header dict
        self.gen = 0
        self.seq = 0  # the seq it has reached
        self.base = None  # the balances before log[0]
        self.bal = None  # the balances after the whole log
        self.log = []  # the last keep records, oldest first; older ones folded into base
        self.adds_up = True  # every record's balances after are the fold's
        self.ckpt_ok = True  # every checkpoint line read
        self.bad = False  # damage: a whole line did not read
        self.clean = False  # ends with a whole good line: more may be appended
        self.journal = 0  # journal lines
        self.volume = None  # the last volume line's
        self.night = {}  # game night's last lines, {tag: payload after it} (store/night.py)
        self.superseded = 0  # the generation that replaced this slot, 0 if none
        self.keep = keep

    def _take(self, rec):
        """rec onto the log, checked against the fold."""
        self.seq = rec[0]
        bal = self.bal
        apply(bal, rec)
        if (rec[FROM] and bal[rec[FROM]] != rec[FROM_AFTER]) or (
                rec[TO] and bal[rec[TO]] != rec[TO_AFTER]):
            self.adds_up = False
        log = self.log
        log.append(rec)
        if len(log) > self.keep:
            apply(self.base, log.pop(0))

    def read(self, f):
        """f read from its start. A checkpoint line that does not read costs the checkpoint's
        log (the header's balances stand in); a journal line that does not read ends the slot
        (damage); a torn last line was a cut append: not taken."""
        raw = f.readline()
        if not raw.endswith(b"\n"):
            self.state = INCOMPLETE  # the checkpoint was cut while it was written
            return
        p = check(raw)
        try:
            head = json.loads(p[2:]) if p is not None and p.startswith("H ") else None
            if head.get("v") != VERSION:
                head = None  # a future version: a migration would go here
            n = int(head["n"])
            seq = int(head["seq"])
            self.base = accounts(head, "base")
            self.bal = list(self.base)
        except (KeyError, TypeError, ValueError, AttributeError):
            self.state = CORRUPT
            return
        self.head = head
        last = 0
        for _ in range(n):
            raw = f.readline()
            if not raw.endswith(b"\n"):
                self.state = INCOMPLETE
                return
            b = payload(raw)
            try:
                rec = parse_rec(b) if b is not None and b[:2] == b"c " else None
            except (ValueError, UnicodeError):
                rec = None
            if rec is None or not last < rec[0] <= seq:
                self.ckpt_ok = False
            elif self.ckpt_ok:
                last = rec[0]
                self._take(rec)
        if not self.ckpt_ok:
            self.bad = True
            self.log = []  # the header's balances stand in for the lost history
            self.base = accounts(head, "bal")
            self.bal = list(self.base)
        self.seq = seq
        self.state = VALID
        self.clean = True
        self._journal(f)

    def _journal(self, f):
        while True:
            raw = f.readline()
            if not raw:
                return
            whole = raw.endswith(b"\n")
            # A line is committed only once its "\n" is on flash: a last line without it is a
            # cut append, never acknowledged, even when all but the "\n" landed (a short write
            # to a full flash) and its CRC reads; unless the newline reads as another byte (a
            # bit flip): then the line stands and the flip is damage.
            b = payload(raw if whole else raw[:-1])
            if b is None and not whole:
                self.clean = False  # nothing may follow a cut line
                return
            ok = b is not None and self._line(b)
            if ok:
                self.journal += 1
            if not (ok and whole):
                self.bad = True
                self.clean = False
                return

    def _line(self, b):
        """One whole journal line's payload taken; False if it does not read."""
        tag = b[:2]
        try:
            if tag == b"r ":
                rec = parse_rec(b)
                if rec[0] != self.seq + 1:
                    return False  # a gap: what follows cannot be folded
                self._take(rec)
            elif tag == b"v ":
                self.volume = int(b[2:]) % 3
            elif tag in (b"p ", b"n ", b"t "):
                self.night[tag[:1].decode()] = b[2:]
            elif tag == b"s ":
                self.superseded = int(b[2:])
            else:
                return False
        except (ValueError, UnicodeError):
            return False
        return True


def read(fs, path, keep):
    """The Slot in path (MISSING if there is none); a file too big for RAM is no slot of ours."""
    s = Slot(keep)
    try:
        f = fs.open(path, "rb")
    except OSError:
        return s
    try:
        s.read(f)
    except MemoryError:
        s.state = CORRUPT
    finally:
        f.close()
    return s
