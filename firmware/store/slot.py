"""The store's files, format version 1 (docs/storage.md, "Format", has every file and line):
the lines written, and the one reader of them."""

from binascii import crc32
import gc
import json

from brain import profiles
from brain.ledger import (AMOUNT, CARDS, FROM, FROM_AFTER, KINDS, LOUDEST, MOST, POT, TO,
                          TO_AFTER, VIAS, apply)
import jsonw

VERSION = 1
SLOT_NAMES = ("bank.a", "bank.b")
MARK_NAME = "bank.id"
MARK_TEXT = b"bank-unit store v1\n"
NAME_FILES = ("bank.n0", "bank.n1")
GAME = "game."
KEPT_MOST = 253402300799  # a kept game's date, in seconds since 1970: up to the year 9999's end
CUT, CORRUPT, VALID = range(3)  # a slot missing or cut while written is no damage
# What reading a line's JSON may raise when the line is none of ours though its CRC holds:
# a missing key, a wrong type, a number too big for an int (1e400), a nesting deeper than the
# stack (RecursionError, a RuntimeError; MicroPython's own is RuntimeError).
UNREADABLE = (AttributeError, IndexError, KeyError, OverflowError, RuntimeError, TypeError,
              ValueError)
# Longer than any line written (a header is under 1 KB): a longer one is damage, and is never
# read whole into a heap that may not hold it.
LINE_MAX = 2048
CHUNK = 512  # bytes a file is read and a checkpoint written at a time


class Lines:
    """A file's lines, read CHUNK bytes at a time: a file's own readline reads a byte at a time
    (slow over a long slot on a Pico), and readline(LINE_MAX) takes LINE_MAX bytes of heap for
    every line."""

    def __init__(self, f):
        self.f = f
        self.buf = b""
        self.at = 0

    def next(self):
        """The next line with its newline, or the file's last bytes without one (b"" at its
        end), or LINE_MAX bytes of a line longer than that."""
        part = b""
        while True:
            buf, at = self.buf, self.at
            i = buf.find(b"\n", at)
            end = min(len(buf) if i < 0 else i + 1, at + LINE_MAX - len(part))
            part += buf[at:end]
            self.at = end
            if end > i >= 0 or len(part) >= LINE_MAX:
                return part
            self.buf, self.at = self.f.read(CHUNK), 0
            if not self.buf:
                return part

    def rest(self):
        """What is left of the file, a piece at a time."""
        b = self.buf[self.at:]
        while True:
            if b:
                yield b
            b = self.f.read(CHUNK)
            if not b:
                return


def missing(e):
    """Whether an OSError says the file is not there (ENOENT), as against there and unreadable
    (a directory, no permission, the flash failing): damage, never an empty store."""
    return e.args[:1] == (2,)


def no_file_damaged(e):
    """Whether an open's OSError says the process is out of files (ENFILE, EMFILE): raised on,
    since no file is damaged."""
    return e.args[:1] in ((23,), (24,))


def num(word):
    """A number as the store writes it, a JSON int or ASCII digits with a - first for one below
    0; ValueError (or TypeError) for the rest int() reads (1.5, ' 3', '+3', '3_0', and on
    CPython alone '\u0663'): every interpreter reads a line alike."""
    if type(word) is int:
        return word
    digits = word[1:] if word[:1] == "-" else word
    if not digits or digits.strip("0123456789"):
        raise ValueError("number")
    return int(word)


def line(payload):
    b = payload.encode()
    return b"%08x " % (crc32(b) & 0xFFFFFFFF) + b + b"\n"


class Moved(OSError):
    """An append found its file no longer as long as the store left it."""


class Landed(OSError):
    """A write that failed once its file was open: any of its bytes may be down, all of them
    where the sync failed after the data."""


class Log:
    """The last `keep` records, oldest first, and base, the balances before the first: a record
    no longer kept is folded into base. In lists of 32: the 200 of a long game in one list are
    more than the 64 entries of the collector's mark stack on rp2, and its overflow doubled a
    collection's time (docs/performance.md)."""

    def __init__(self, keep, base):
        self.keep = keep
        self.base = base
        self.parts = []
        self.n = 0

    def add(self, rec):
        parts = self.parts
        if not parts or len(parts[-1]) == 32:
            parts.append([])
        parts[-1].append(rec)
        if self.n < self.keep:
            self.n += 1
            return
        apply(self.base, parts[0].pop(0))
        if not parts[0]:
            parts.pop(0)

    def __len__(self):
        return self.n

    def __iter__(self):
        for part in self.parts:
            yield from part

    def last(self, n):
        """The last n records (n > 0), oldest first."""
        got = []
        for part in reversed(self.parts):
            got[:0] = part
            if len(got) >= n:
                break
        return got[-n:]


def write(fs, path, mode, chunks, at=None):
    """Every write of the store: durable on return (the bytes written), or OSError: Landed
    once the file was open; with at, an append to a file at bytes long, or Moved and nothing
    written."""
    f = fs.open(path, mode)
    size = 0
    try:
        if at is not None and f.seek(0, 2) != at:
            raise Moved()
        for chunk in chunks:
            f.write(chunk)
            size += len(chunk)
        fs.done(f)
    except Moved:
        f.close()
        raise
    except OSError as e:
        try:
            f.close()  # done's may have closed it: a second close does nothing
        except OSError:
            pass
        raise Landed(*e.args) from None  # its errno kept; MicroPython warns of a cause
    except BaseException:
        f.close()
        raise
    return size


def rec_payload(tag, r):
    return "%s %d %s %d %d %d %d %d %d %s" % ((tag,) + tuple(r))


def chunks(head, log):
    """A checkpoint's lines, head (JSON pairs) then log's, about CHUNK bytes at a time."""
    chunk = line("H " + jsonw.dumps(head))
    for r in log:
        chunk += line(rec_payload("c", r))
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = b""
    if chunk:
        yield chunk


def night_words(value):
    """The count's or the clock's words in a night line: - for none, and for a card not in."""
    return "-" if value is None else " ".join("-" if v is None else "%d" % v for v in value)


def night_head(ledger, pot=None):
    """The header's "night" entry; BACKUP's has the pot's money at its base too."""
    pairs = (("pot_on", ledger.pot_on), ("count", ledger.count),
             ("clock", None if ledger.clock is None else list(ledger.clock)))
    return pairs if pot is None else pairs + (("pot", pot),)


def payload(raw):
    """A stored line's payload (bytes, text only once decoded), with or without its newline;
    None if its CRC does not read."""
    end = len(raw) - 1 if raw.endswith(b"\n") else len(raw)
    if end < 10 or raw[8:9] != b" ":
        return None
    try:
        b = raw[9:end]
        return b if crc32(b) & 0xFFFFFFFF == int(raw[:8], 16) else None
    except ValueError:
        return None


# 0 the bank, c a card, p the pot: a kind's (from, to); an undo's are any it reverses, a set's
# one balance set from the bank or back to it.
SIDES = {"receive": ("0c",), "go": ("0c",), "pay": ("c0",), "transfer": ("cc",),
         "bankrupt": ("c0", "cc"), "pot-in": ("cp",), "pot-out": ("pc",), "restore": ("00",),
         "set": ("0c", "c0", "0p", "p0")}
SIDE = (0,) + (1,) * CARDS + (2,)  # an account's side, by its number: 0, c or p below
PAIRS = ("00", "0c", "0p", "c0", "cc", "cp", "p0", "pc", "pp")  # by from's side * 3 + to's
# A record is read from its bytes, never a str made while reading: a str's words are looked up
# among the interned names first, and on a Pico that ran deployed files that made a long game's
# boot slow (docs/performance.md, "A long game").
KIND_WORDS = tuple(k.encode() for k in KINDS)
VIA_WORDS = tuple(v.encode() for v in VIAS)


def parse_rec(p):
    """A 'c' or 'r' payload's record; ValueError if it is none of ours: a line whose CRC reads
    but whose kind and accounts disagree, as the firmware writes them, is never money."""
    w = p.split(b" ")
    if len(w) != 10:
        raise ValueError("record")
    # The kind and via as the constants, not fresh strings: 200 records hold one copy of each.
    kind, via = KINDS[KIND_WORDS.index(w[2])], VIAS[VIA_WORDS.index(w[9])]
    if not (w[1] + b"".join(w[3:9])).isdigit():  # as num() reads them: no sign, space or _
        raise ValueError("number")
    seq, frm, to, amount = int(w[1]), int(w[3]), int(w[4]), int(w[5])
    frm_after, to_after, undoes = int(w[6]), int(w[7]), int(w[8])
    if not (frm <= POT and to <= POT):
        raise ValueError("record")
    sides = PAIRS[SIDE[frm] * 3 + SIDE[to]]
    if sides not in SIDES.get(kind, sides) or (frm == to and kind != "restore") or (
            kind == "undo") != (0 < undoes < seq):
        raise ValueError("record")
    return (seq, kind, frm, to, amount, frm_after, to_after, undoes, via)


def accounts(head, key):
    """A header's "base" or "bal" as the ledger holds balances, the bank's 0 first and the pot's
    last; ValueError unless each is a whole number from 0 to MOST (no 1.5 read as 1)."""
    pot = head.get("pot") or (0, 0)
    out = [0] + list(head[key]) + [pot[0 if key == "base" else 1]]
    if len(out) != POT + 1 or len(pot) != 2:
        raise ValueError("accounts")
    for x in out:
        if type(x) is not int or not 0 <= x <= MOST:
            raise ValueError("balance")
    return out


def read(fs, path, keep, fold=True):
    """The Slot in path: CUT if there is no such file; CORRUPT if it is there and does not open,
    is too big for RAM or the flash failed. fold False: its records' lines checked by their CRC
    alone, neither read nor kept (boot's look at a slot it may not need)."""
    s = Slot(keep, fold)
    try:
        f = fs.open(path, "rb")
    except OSError as e:
        if no_file_damaged(e):
            raise
        s.state = CUT if missing(e) else CORRUPT
        return s
    try:
        s.read(Lines(f))
        s.size = f.seek(0, 2)
    except (MemoryError, OSError):
        s.state = CORRUPT
    finally:
        f.close()
    return s


def gen_of(fs, path):
    """The generation a slot's first line names, or 0: which slot boot reads first."""
    try:
        f = fs.open(path, "rb")
        try:
            p = payload(Lines(f).next())
        finally:
            f.close()
        return num(json.loads(p[2:].decode())["gen"])
    except (MemoryError, OSError) + UNREADABLE:
        return 0


def kept_game(fs, path, gid, keep):
    """The kept game gid in path (id, kept, profile, seq, transactions, balances (6), pot; with
    keep, also base and log: its last keep records), or None if it does not read whole."""
    s = read(fs, path, keep)
    d = s.head
    if s.state == CORRUPT:
        return one_line_game(fs, path, gid, keep)
    if s.state != VALID or s.bad or not s.clean or s.journal:
        return None
    try:
        bal = accounts(d, "bal")
        g = {"id": num(d["id"]), "kept": None if d["kept"] is None else num(d["kept"]),
             "profile": str(d["profile"]), "seq": num(d["seq"]),
             "transactions": num(d["transactions"]), "balances": bal[1:POT], "pot": bal[POT]}
    except UNREADABLE:
        return None
    if g["id"] != gid or not 0 <= g["transactions"] <= g["seq"] or not (
            g["kept"] is None or 0 <= g["kept"] <= KEPT_MOST):
        return None
    if keep:  # the log leads from base to the header's seq and balances: Slot.read held it so
        g["base"], g["log"] = s.log.base, s.log
    return g


def one_line_game(fs, path, gid, keep):
    """A kept game as firmware before kept games had logs wrote it (a unit flashed with a newer
    image): one line, `G {"id", "profile", "seq", "transactions", "balances"}` (transactions
    null, from firmware older still, read as 0); no log, so it comes back from its balances.
    None if the file is no such game."""
    try:
        f = fs.open(path, "rb")
        try:
            lines = Lines(f)
            raw, more = lines.next(), lines.next()
        finally:
            f.close()
        p = payload(raw) if raw.endswith(b"\n") and not more else None
        d = json.loads(p[2:].decode()) if p is not None and p[:2] == b"G " else None
        bal = [num(x) for x in d["balances"]]
        n = d["transactions"]
        g = {"id": num(d["id"]), "kept": None, "profile": str(d["profile"]), "seq": num(d["seq"]),
             "transactions": 0 if n is None else num(n), "balances": bal, "pot": 0}
    except (MemoryError, OSError) + UNREADABLE:
        return None
    if g["id"] != gid or len(bal) != CARDS or [b for b in bal if not 0 <= b <= MOST] or (
            profiles.get(g["profile"]) is None) or not 0 <= g["transactions"] <= g["seq"]:
        return None
    if keep:
        g["base"], g["log"] = [0] + bal + [0], ()
    return g


class Slot:
    """A slot file, or a kept game's (keep 0: checked whole, its log not read), read: what it
    holds and how it ends."""

    state = CUT
    head = volume = bal = None  # bal: the balances after the log
    gen = seq = journal = superseded = size = 0
    lost = 0  # lines not read: each may have been a transaction, its seq never to be given again
    bad = False  # damage: a whole line did not read
    clean = False  # ends with a whole good line: more may be appended

    def __init__(self, keep, fold=True):
        self.keep = keep
        self.fold = fold
        self.log = Log(keep, None)
        self.night = {}  # {tag: what follows it} of game night's last line of each

    def read(self, f):
        self._read(f)
        if self.state == CORRUPT or self.bad:
            self.lost += sum(b.count(b"\n") for b in f.rest())

    def _read(self, f):
        """A checkpoint line that does not read costs the checkpoint's log (the header's
        balances stand in); a journal line that does not read ends the slot (damage)."""
        raw = f.next()
        if not raw.endswith(b"\n"):
            if len(raw) == LINE_MAX:
                self.state = CORRUPT
            return  # the checkpoint was cut while it was written
        p = payload(raw)
        try:
            head = json.loads(p[2:].decode()) if p is not None and p[:2] == b"H " else None
            if type(head.get("v")) is not int or head["v"] != VERSION:  # 1.0 and true are not 1
                raise ValueError("a future version: a migration would go here")
            n, seq, gen = num(head["n"]), num(head["seq"]), num(head.get("gen", 0))
            if n < 0:
                raise ValueError("n")
            base = accounts(head, "base")
            after = accounts(head, "bal")
            want = None if self.keep else (num(head["size"]), num(head["crc"]))
            volume = head.get("volume", LOUDEST)  # a kept game's has neither
            start = head.get("start", 0)
            if (type(volume) is not int or not 0 <= volume <= LOUDEST or type(start) is not int
                    or not 0 <= start <= seq or profiles.get(head["profile"]) is None):
                raise ValueError("nothing this firmware writes")
        except UNREADABLE:
            self.state = CORRUPT
            return
        self.head, self.gen = head, gen
        self.log, self.bal = Log(self.keep, base), list(base)
        if want is not None:
            # A kept game's lines, but only their size and CRC, a block at a time: boot checks
            # every kept game, and a line at a time would be the slow part of boot.
            size = crc = lines = 0
            for b in f.rest():
                size += len(b)
                crc = crc32(b, crc)
                lines += b.count(b"\n")
            self.state = VALID if (size, crc & 0xFFFFFFFF, lines) == want + (n,) else CORRUPT
            self.clean = True
            return
        good = True
        for _ in range(n):
            raw = f.next()
            if not raw.endswith(b"\n"):
                if len(raw) == LINE_MAX:
                    self.state = CORRUPT
                return
            if good and not self.fold:
                p = payload(raw)
                good = p is not None and p[:2] == b"c "
            elif good:
                p = payload(raw)
                try:
                    rec = parse_rec(p) if p is not None and p[:2] == b"c " else None
                except ValueError:
                    rec = None
                good = rec is not None and self.seq < rec[0] <= seq and self._take(rec)
        if not good:
            self.bad = True
            self.log, self.bal = Log(self.keep, after), list(after)  # the header's
        elif not self.fold:
            self.bal = after
        elif self.bal != after:
            self.state = CORRUPT  # its log and its header disagree: neither is trusted
            return
        self.seq, self.state, self.clean = seq, VALID, True
        raw = f.next()
        while raw:
            whole = raw.endswith(b"\n")
            # A line is committed only once its "\n" is on flash (boot, in docs/storage.md's
            # format): a last line without it is a cut append, even when its CRC reads.
            p = payload(raw if whole else raw[:-1])
            if p is None and not whole and len(raw) < LINE_MAX:
                self.clean = False  # nothing may follow a cut line
                return
            ok = p is not None and self._line(p)
            self.journal += ok
            if not (ok and whole):
                self.bad, self.clean, self.lost = True, False, 0 if ok else 1
                return
            raw = f.next()

    def _line(self, p):
        tag = p[:2]
        try:
            if tag == b"r ":
                if not self.fold:
                    return True
                rec = parse_rec(p)  # a gap, or balances the fold does not give: damage
                return rec[0] == self.seq + 1 and self._take(rec)
            rest = p[2:].decode()
            if tag == b"v ":
                if not 0 <= num(rest) <= LOUDEST:
                    return False
                self.volume = num(rest)
            elif tag in (b"p ", b"n ", b"t "):
                self.night[chr(p[0])] = rest  # read at boot's end: one that does not read is Err6
            elif tag == b"s ":
                self.superseded = num(rest)
            else:
                return False
        except ValueError:
            return False
        return True

    def _take(self, rec):
        """rec folded in; False, and nothing changed, if the balances after it that it names
        are not the fold's, or one would be below 0."""
        bal = self.bal
        frm, to, amount = rec[FROM], rec[TO], rec[AMOUNT]
        if amount < 0 or (frm and (bal[frm] - amount != rec[FROM_AFTER] or rec[FROM_AFTER] < 0)):
            return False
        if to and (bal[to] + amount != rec[TO_AFTER] or rec[TO_AFTER] > MOST):
            return False
        self.seq = rec[0]
        apply(bal, rec)
        if not self.seq % 64:
            # Between collections the lines' garbage moves the heap's next free room on, and
            # each record kept lands further up: a whole slot's would lie across the heap, and
            # every collection after boot would sweep it all (docs/performance.md, "A long
            # game").
            gc.collect()
        self.log.add(rec)
        return True

    def past(self, best, most):
        """The highest seq its lines may have named, beside best, the slot the game comes from
        (or None): 0 if it is older than best. Each line not read is taken for a transaction;
        and where damage may have taken lines as well (a cut, zeros over them), a slot's
        checkpoint may have been followed by up to most journal lines, a lost newer slot's
        begun a transaction past best's last."""
        if self.state == VALID:
            h = num(self.head["seq"]) + most if self.bad and self is best else 0
            return max(self.seq + self.lost, h)
        if best is None:
            return (0 if self.head is None else num(self.head["seq"]) + most) + self.lost
        if self.head is None:  # newer only if best was told of a checkpoint it does not hold
            return best.seq + max(self.lost, 1 + most) if best.superseded > best.gen else 0
        return num(self.head["seq"]) + max(self.lost, most) if self.gen >= best.gen else 0

    def night_of(self):
        """(pot on, count, clock) as the header and the lines after it leave them, or None;
        ValueError (or the like) if they say nothing this firmware writes."""
        entry = self.head.get("night")
        if not self.night and entry is None:
            return None
        entry = entry or {}
        lines = {"p": "1" if entry.get("pot_on") else "0", "n": night_words(entry.get("count")),
                 "t": night_words(entry.get("clock"))}  # read as the lines that follow are
        lines.update(self.night)
        if lines["p"] not in ("0", "1"):
            raise ValueError("pot")
        count = clock = None
        if lines["n"] != "-":
            count = [None if a == "-" else num(a) for a in lines["n"].split(" ")]
            if len(count) != CARDS + 1 or count[0] not in (0, 1) or [
                    a for a in count[1:] if a is not None and a < 0]:
                raise ValueError("count")
        if lines["t"] != "-":
            clock = tuple(num(a) for a in lines["t"].split(" "))
            if (len(clock) != 4 or not 1 <= clock[0] <= 999
                    or not 0 <= clock[1] <= clock[0] * 60000 or clock[2] not in (0, 1)
                    or clock[3] not in (0, 1)):
                raise ValueError("clock")
        return lines["p"] == "1", count, clock
