"""Power cuts on cue for the store tests (CPython and MicroPython alike).

FaultFS is a file system in RAM that is harsher than LittleFS: every write lands the moment it
is issued (no copy-on-write), `open(..., "wb")` truncates at once, and a file created is there
at once, empty. Every open, write, flush and close is a step; `images` collects, before each
step, what the flash would hold if the power failed right there (and, for a write, with only
part of it landed). `session` is a scripted game of mixed transactions (with night, game
night's writes among them: B19-B22); `state` is what a reboot must find.
"""

from brain import ledger as L
from brain.ledger import Ledger


class PowerCut(Exception):
    pass


class FaultFile:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path
        self.pos = 0

    def write(self, data):
        fs = self.fs
        fs.step("write", self.path, data)
        fs.files[self.path].extend(data)
        return len(data)

    def flush(self):
        self.fs.step("flush", self.path)

    def close(self):
        self.fs.step("close", self.path)

    def readline(self, most=-1):
        buf = self.fs.files[self.path]
        i = self.pos
        j = buf.find(b"\n", i) + 1  # to the line end, or (none) to the end of the file
        if j == 0:
            j = max(i, len(buf))
        if 0 <= most < j - i:
            j = i + most  # as MicroPython's and CPython's files read: at most that many
        self.pos = j
        return bytes(buf[i:j])

    def seek(self, off, whence=0):
        end = len(self.fs.files[self.path])
        self.pos = off + (end if whence == 2 else self.pos if whence else 0)
        return self.pos

    def read(self, n):
        buf = self.fs.files[self.path]
        i = self.pos
        self.pos = min(len(buf), i + n)
        return bytes(buf[i:self.pos])

    def fileno(self):
        return -1


class FaultFS:
    """files: path -> bytearray. fail_at: the step number that raises OSError (a full flash);
    fail_done: n, the nth write from now fails its sync once it has landed whole (a tuple of
    such n: each of them)."""

    def __init__(self, files=None):
        self.files = files if files is not None else {}
        self.steps = 0
        self.fsync = None
        self.dead = False
        self.collect = None  # fn(tag, files): called with every image
        self.tag = None  # what the images are tagged with (the op in flight)
        self.fail_at = None
        self.fail_done = 0  # n: the nth write from now lands whole, then fails (EIO)

    def image(self):
        return copy_files(self.files)

    def step(self, kind, path, data=None):
        if self.dead:
            raise PowerCut()
        self.steps += 1
        if self.fail_at == self.steps:
            raise OSError(28)
        collect = self.collect
        if collect is not None:
            self.collect = None  # the check boots on its own FaultFS; no images of those
            collect(self.tag, self.files)
            if data is not None and len(data) > 1:
                for k in (1, len(data) // 2, len(data) - 1):
                    img = self.image()
                    img[path].extend(data[:k])
                    collect(self.tag, img)
            self.collect = collect

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(2)
            return FaultFile(self, path)
        self.step("open", path)
        if "w" in mode or path not in self.files:
            self.files[path] = bytearray()
        return FaultFile(self, path)

    def listdir(self, d):
        if d == "/":
            d = ""  # the root's files are "/name"
        return [k[len(d) + 1:] for k in self.files if k.startswith(d + "/")]

    def remove(self, path):
        self.step("remove", path)
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def done(self, f):
        f.flush()
        f.close()
        due = self.fail_done if type(self.fail_done) is tuple else (self.fail_done,)
        self.fail_done = tuple(n - 1 for n in due if n > 1)
        if 1 in due:
            raise OSError(5)  # the sync failed once every byte was down: landed, refused


def copy_files(files):
    out = {}
    for k in files:
        out[k] = bytearray(files[k])
    return out


def key(files):
    """A short fingerprint of an image (a collision only skips one check)."""
    h = 0
    for k in files:
        h ^= hash(k) ^ (hash(bytes(files[k])) * 31 + len(files[k]))
    return h


class SmallLedger(Ledger):
    """A ledger whose store keeps a shorter log: every checkpoint, and so every test, is
    quicker."""

    def __init__(self, store, profile=None):
        store.keep = 40
        Ledger.__init__(self, store, profile)


def undo(ledger, rec):
    """Reverse rec as the unit's C does (B10)."""
    return ledger.move("undo", rec[L.TO], rec[L.FROM], rec[L.AMOUNT], rec[L.SEQ])


def state(ledger):
    """What a reboot must find: balances, seq, volume, profile, the backup and the log's ends."""
    if not ledger.ready:
        return None
    kept = []  # the kept games (B11), as the banker would see them
    for gid in ledger.store.kept():
        g = ledger.store.game(gid)
        kept.append(None if g is None else (g["id"], g["profile"], g["seq"], g["transactions"],
                                            tuple(g["balances"]), g["pot"]))
    prev = (tuple(kept), ledger.start)
    log = ledger.store.records()
    ends = (len(log), log[0] if log else None, log[-1] if log else None)
    night = (ledger.pot_on, None if ledger.count is None else tuple(ledger.count),
             None if ledger.clock is None else tuple(ledger.clock))
    return (ledger.profile.name, ledger.seq, tuple(ledger.bal), ledger.volume, prev, ends, night)


class Rand:
    """The same numbers on every interpreter."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _night_op(ledger, rnd, card, other, amount):
    """One of game night's writes (B19-B22): a bankruptcy, a move into or out of the pot, the
    pot turned on or off, the count, the game clock."""
    c = rnd.below(6)
    pot = ledger.bal[L.POT]
    if c == 0 and ledger.bal[card]:
        return ledger.move("bankrupt", card, other if rnd.below(2) else 0, ledger.bal[card], 0)
    if c == 1 and ledger.pot_on:
        return ledger.move("pot-in", card, L.POT, amount, 0)
    if c == 2 and pot:
        return ledger.move("pot-out", L.POT, card, pot, 0)
    if c == 3 and not pot:
        return ledger.set("p", not ledger.pot_on)
    if c == 4:
        count = [rnd.below(2)] + [None if rnd.below(3) == 0 else rnd.below(50) * 1000000
                                  for _ in range(6)]
        return ledger.set("n", count)
    if c == 5:
        minutes = 1 + rnd.below(120)
        clock = (minutes, rnd.below(minutes + 1) * 60000, rnd.below(2), rnd.below(2))
        return ledger.set("t", clock)
    return None


def session(ledger, n, seed=7, before=None, after=None, night=False):
    """n mixed operations on a ready ledger: receive, pay, transfer, go, undo, volume, new
    game, restore; with night, game night's writes too (a third of them). before(i)/after(i)
    are called around each op (i from 0). Returns the number of transactions committed."""
    rnd = Rand(seed)
    last = None
    txns = 0
    for i in range(n):
        if before:
            before(i)
        c = rnd.below(100)
        card = 1 + rnd.below(6)
        other = 1 + (card + rnd.below(5)) % 6
        amount = (1 + rnd.below(300)) * 10000
        if night and rnd.below(3) == 0:
            r = _night_op(ledger, rnd, card, other, amount)
        elif c < 25:
            r = ledger.move("receive", 0, card, amount, 0)
        elif c < 45:
            r = ledger.move("pay", card, 0, amount, 0)
        elif c < 75:
            r = ledger.move("transfer", card, other, amount, 0)
        elif c < 85:
            r = ledger.move("go", 0, card, ledger.profile.go, 0)
        elif c < 93:
            r = undo(ledger, last) if last is not None and last[1] != "undo" else None
        elif c < 96:
            r = ledger.set("v", (ledger.volume + 2) % 3)
        elif c < 99:
            r = ledger.reset()
        else:
            r = ledger.restore(None)
            r = r if isinstance(r, str) else None  # a restore is not counted as a move
        if isinstance(r, tuple):
            last = r
            txns += 1
        elif c >= 93:
            last = None
        if after:
            after(i)
    return txns


def recorded(led, ops, seed, night=False):
    """A first run of session() on a freshly loaded ledger: ({op: (state before, state after)},
    transactions), with -1 the first boot's checkpoint. Cut tests check every boot against it."""
    # Every key made now, while the heap is whole: a dict grown late in a long session needs
    # one contiguous block, which MicroPython's fragmented heap may no longer have.
    states = dict.fromkeys(range(-1, ops))
    states[-1] = (None, state(led))
    cur = [None]

    def before(i):
        cur[0] = state(led)

    def after(i):
        states[i] = (cur[0], state(led))

    return states, session(led, ops, seed, before, after, night)
