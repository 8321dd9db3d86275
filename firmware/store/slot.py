"""The slot format (docs/storage.md), and the one reader of it.

A slot file is a checkpoint followed by a journal, one line each, every line
`<crc32 of the payload, 8 hex digits> <payload>\\n`:

    H {"v": 1, "gen": 7, "profile": ..., "seq": ..., "volume": ..., "n": 3, "base": [...],
       "bal": [...], "start": ..., "games": [ids]}   the header: generation, game, balances,
                                          the seq its count starts from, the kept games
    c <seq> <kind> <from> <to> <amount> <from_after> <to_after> <undoes> <via>   n log lines
    r <seq> ...                           journal: one line appended per transaction
    v <volume>                            journal: a volume change
    p ... | n ... | t ...                 journal: game night's pot setting, count and clock
                                          (B19-B22: store/night.py reads and writes them)
    s <gen>                               this slot is superseded by the checkpoint <gen>

This module writes the lines (`line`, `rec_payload`) and reads them (`Slot.read`), for all
three who read a slot: boot (load.py), the log read back for LOG and BACKUP (`history`,
`records`) and each checkpoint, which carries the log on as it is stored (checkpoint.py).
It stays imported: boot, LOG and every checkpoint use it.
"""

import json

try:
    from binascii import crc32
except ImportError:  # built without deflate: crc.py's bitwise one, same numbers, slower
    from store.crc import bitwise as crc32

from brain.ledger import KINDS, POT, VIAS, apply
import jsonw

VERSION = 1
SLOT_NAMES = ("bank.a", "bank.b")
MARK_NAME = "bank.id"
MARK_TEXT = b"bank-unit store v1\n"

# what a slot file turned out to be
MISSING, INCOMPLETE, CORRUPT, VALID = range(4)

# -- lines ------------------------------------------------------------------------------------


def line(payload):
    """One stored line: the CRC32 of the payload (str, or bytes as stored) in 8 hex digits, a
    space, the payload."""
    b = payload if isinstance(payload, bytes) else payload.encode()
    return b"%08x " % (crc32(b) & 0xFFFFFFFF) + b + b"\n"


def write(fs, path, mode, chunks):
    """Each of chunks (bytes) written to path ("wb": the file anew, "ab": appended) and durable
    when this returns (fs.done); the bytes written. OSError if not, the file closed either way:
    the store's every write (a journal line, a checkpoint, the marker, a game's or the names'
    file) goes through here."""
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


def carried(r):
    """A log record (a line read back as stored, or a record) as a checkpoint's or a kept
    game's line: a stored one keeps its payload, its tag made a checkpoint's ("r ..." ->
    "c ...")."""
    return line(b"c" + r[1:] if isinstance(r, bytes) else rec_payload("c", r))


def chunks(head, log):
    """A checkpoint's or a kept game's file, a few hundred bytes at a time: its header (the
    JSON of head), then its log's lines."""
    chunk = line("H " + jsonw.dumps(head))
    for r in log:
        chunk += carried(r)
        if len(chunk) >= 512:
            yield chunk
            chunk = b""
    if chunk:
        yield chunk


def payload(raw):
    """The payload of a stored line (with or without its newline) as bytes, or None if its CRC
    does not match."""
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
    """The payload of a stored line as text, or None if its CRC does not match."""
    b = payload(raw)
    if b is None:
        return None
    try:
        return b.decode()
    except UnicodeError:
        return None


def parse_rec(payload):
    """A record tuple from a 'c'/'r' payload (str); ValueError if it is not one."""
    w = payload.split(" ")
    if len(w) != 10:
        raise ValueError("record")
    # The kind and via as the constants, not fresh strings: a LOG of 200 records read back
    # holds one copy of each word.
    kind = KINDS[KINDS.index(w[2])]
    via = VIAS[VIAS.index(w[9])]
    frm = int(w[3])
    to = int(w[4])
    if not (0 <= frm <= POT and 0 <= to <= POT):
        raise ValueError("record")
    return (int(w[1]), kind, frm, to, int(w[5]), int(w[6]), int(w[7]), int(w[8]), via)


def fold(bal, payload):
    """Apply the move of a stored record line (its payload, as bytes) to bal: only its from, to
    and amount are read."""
    w = payload.split(b" ")
    apply(bal, (0, 0, int(w[3]), int(w[4]), int(w[5])))


def _seq(b):
    """The seq of a record's payload (bytes, tagged 'c' or 'r'), or -1 if it has none."""
    sp = b.find(b" ", 2)
    if sp <= 2:
        return -1
    try:
        return int(b[2:sp])
    except ValueError:
        return -1


def _record(b, back):
    """A record from its payload (bytes), or None if it is no record of ours: read back, the
    payload itself, kept as stored (only its seq is read, by _seq); at boot, parsed whole."""
    if back:
        return b if _seq(b) >= 0 else None
    try:
        return parse_rec(b.decode())
    except (ValueError, UnicodeError):
        return None


def accounts(head, key):
    """The balances a header (a slot's, a kept game's) gives as key ("base" or "bal"), as the
    ledger holds them: the bank's 0, the cards', and the pot's (B22: "pot", [base, bal], in a
    header whose pot has money; 0 without it)."""
    pot = head.get("pot") or (0, 0)
    return [0] + [int(x) for x in head[key]] + [int(pot[0 if key == "base" else 1])]


def whole(f, size, want):
    """Whether the rest of file f is size bytes whose CRC32 is want: a kept game's log lines,
    checked in a few reads (boot, and before kept.py reads them line by line)."""
    crc = 0
    while True:
        b = f.read(512)
        if not b:
            break
        size -= len(b)
        crc = crc32(b, crc)
    return size == 0 and crc & 0xFFFFFFFF == want


# -- the reader -------------------------------------------------------------------------------


class Slot:
    """One slot file read line by line (`read`): what it holds and how it ends."""

    def __init__(self, index=0):
        self.index = index
        self.state = MISSING
        self.head = None  # the header dict
        self.gen = 0
        self.seq = 0  # the seq the slot has reached
        self.log = []  # records, oldest first: the checkpoint's, then the journal's
        self.base = None  # read back whole: the balances before log[0]
        self.ckpt_ok = True  # every checkpoint line read
        self.bad = False  # damage: some complete line did not read
        self.broken = False  # the reading stopped at a line that does not read
        self.clean = False  # ends with a whole good line: more may be appended
        self.journal = 0  # journal lines
        self.volume = None  # the last volume line
        self.night = {}  # game night's last lines, {tag: payload after it} (store/night.py)
        self.superseded = 0  # the generation that replaced this slot, 0 if none

    def read(self, f, upto=None, keep=None, base=False):
        """Read the slot file f from its start.

        At boot (upto None) every record is parsed and checked; a checkpoint line that does not
        read costs the checkpoint's log (the header's balances stand in), a journal line that
        does not read ends the slot (damage); a torn last line was a cut append: not taken.

        Read back (upto, the ledger's seq: LOG, BACKUP, a checkpoint) the slot is one boot
        checked and has changed only by appends since: each line's CRC and seq are checked but
        the records are kept as their stored payloads (bytes), the reading stops at the first
        line that does not read (`broken`), and a record past upto is a line a failed write
        landed: never taken. keep: only the last keep records are kept, older ones folded into
        `base` (the header's, with base True).
        """
        back = upto is not None
        raw = f.readline()
        if not raw.endswith(b"\n"):
            self.state = INCOMPLETE  # the checkpoint was cut while it was written
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
            self.state = CORRUPT
            return
        self.head = head
        try:
            n = int(head["n"])
            self.seq = int(head["seq"])
            if base:
                self.base = accounts(head, "base")
        except (KeyError, TypeError, ValueError):
            self.state = CORRUPT
            return
        last = 0
        for _ in range(n):
            raw = f.readline()
            if not raw.endswith(b"\n"):
                self.state = INCOMPLETE
                return
            b = payload(raw)
            rec = _record(b, back) if b is not None and b[:2] == b"c " else None
            seq = -1 if rec is None else _seq(rec) if back else rec[0]
            if seq <= last or seq > self.seq:
                self.ckpt_ok = False
                if back:
                    self.broken = True
                    return
            else:
                last = seq
                log = self.log
                log.append(rec)
                if keep is not None and len(log) > keep:
                    self._drop()
        if not self.ckpt_ok:
            self.bad = True
            self.log = []  # the header's balances stand in for the lost history
        self.state = VALID
        self.clean = True
        self._journal(f, upto, keep, back)

    def _journal(self, f, upto, keep, back):
        while True:
            raw = f.readline()
            if not raw:
                return
            whole = raw.endswith(b"\n")
            if whole:
                b = payload(raw)
            else:
                # A line is committed only once its "\n" is on flash: a last line without it
                # is a cut append, never acknowledged, even when all but the "\n" landed (a
                # short write to a full flash) and its CRC reads. Unless it is a whole line
                # whose newline reads as something else: a bit flip, so the line stands and
                # the flip is damage.
                b = payload(raw[:-1])
                if b is None:
                    self.clean = False  # nothing may follow a cut line
                    return
            ok = b is not None
            if ok:
                tag = b[:2]
                if tag == b"r ":
                    rec = _record(b, back)
                    seq = -1 if rec is None else _seq(rec) if back else rec[0]
                    if seq < 0:
                        ok = False
                    elif back and seq > upto:
                        return  # a line a failed write landed: never taken
                    elif seq != self.seq + 1:
                        ok = False  # a gap: what follows cannot be folded
                    else:
                        self.seq = seq
                        log = self.log
                        log.append(rec)
                        if keep is not None and len(log) > keep:
                            self._drop()
                elif tag == b"v ":
                    try:
                        self.volume = int(b[2:]) % 3
                    except ValueError:
                        ok = False
                elif tag in (b"p ", b"n ", b"t "):
                    self.night[tag[:1].decode()] = b[2:]
                elif tag == b"s ":
                    try:
                        self.superseded = int(b[2:])
                    except ValueError:
                        ok = False
                else:
                    ok = False
            if ok:
                self.journal += 1
            else:
                self.broken = True
            if not whole:
                self.clean = False  # the flipped newline: nothing may follow it
                self.bad = True
                return
            if not ok:
                self.bad = True  # a whole line that does not read: damage; stop here
                self.clean = False
                return

    def _drop(self):
        """The oldest record kept no more: folded into base, if base is kept."""
        gone = self.log.pop(0)
        if self.base is not None:
            fold(self.base, gone)


# -- the log read back ------------------------------------------------------------------------


def history(store, seq, n=None, raw=False):
    """FileStore.history: (base, records), the last n records the slot in use keeps (all of
    them by default, at most store.keep), oldest first, and with all of them the balances before
    the first (index 0, the bank, unused; None otherwise); None before anything is stored.
    Records are tuples, or with raw their stored payloads (bytes), which a checkpoint carries
    on as they are.

    Only records up to seq, the ledger's: a write that failed may have landed its line. All of
    them (n None) is what a checkpoint carries on: a line that does not read, or a log that
    stops short of seq, is OSError, never a shorter log. The last n (LOG) stop at such a line,
    as boot did.
    """
    if store.cur is None:
        return None
    whole = n is None
    s = Slot(store.cur)
    f = store.fs.open(store.paths[store.cur], "rb")
    try:
        s.read(f, seq, store.keep if whole or n > store.keep else n, whole)
    finally:
        f.close()
    if s.head is None:
        raise OSError("slot unreadable")
    if whole and (s.state != VALID or s.broken or s.seq != seq):
        raise OSError("log short of the ledger")
    log = s.log
    if not raw:
        try:
            log = [parse_rec(b.decode()) for b in log]
        except (ValueError, UnicodeError):
            raise OSError("slot unreadable") from None
    return s.base, log


def records(ledger, n=None):
    """The last n records the ledger committed (all the store keeps by default), oldest first:
    LOG and the simulator's log view; OSError if the store cannot read them back. Whatever its
    store (FileStore's slot, through history above, or desktop.memstore.MemoryStore)."""
    store = ledger.store
    if n is not None and n <= 0:
        return []
    # A number, even for all: LOG shows what reads, as boot did; only a checkpoint or a
    # backup needs the whole log or nothing (history with n None).
    got = store.history(ledger.seq, store.keep if n is None else n, False)
    return [] if got is None else got[1]
