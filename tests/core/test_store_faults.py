"""B17 under fault injection: the power fails at every write, flush and close of a scripted
session (receive, pay, transfer, go, undo, volume, new game, restore; and game night's writes,
B19-B22: a bankruptcy, the pot's moves and setting, the count, the game clock); each time the
next boot finds the state just before or just after the operation in flight, never a mixture,
never a reset. FaultFS (storerig.py) lands every write at once, so a cut leaves torn files."""

from storerig import FaultFS, SmallLedger, copy_files, key, recorded, session, state
from store import FileStore


def _boot(files, journal_max):
    fs = FaultFS(copy_files(files))
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=journal_max))
    status = led.load(None)
    return led, status, fs


def _states(ops, journal_max, seed, night):
    """A first run: the state before and after each op (-1: the first boot's checkpoint)."""
    led = SmallLedger(FileStore("/bank", fs=FaultFS(), journal_max=journal_max))
    assert led.load(None) == "new"
    return recorded(led, ops, seed, night)


def _cut_everywhere(ops, journal_max, seed, night=False):
    """The same run again; at every step, boot what a cut there would leave and check it."""
    states, txns = _states(ops, journal_max, seed, night)
    seen = {}
    checked = [0]

    def check(tag, img):
        k = key(img)
        if k in seen:
            return
        if len(seen) > 200:
            seen.clear()  # a small heap (MicroPython): most repeats are neighbours anyway
        seen[k] = 1
        led2, status, fs2 = _boot(img, journal_max)
        got = state(led2)
        ok = states[tag]
        if tag == -1 and status == "new":
            got = None  # the very first checkpoint was cut: nothing was ever acknowledged
        else:
            assert status == "ok", (tag, status, led2.store.detail)
        assert got in ok, (tag, got, ok)
        if got is not None:
            assert sum(got[2]) == sum((ok[0] if got == ok[0] else ok[1])[2])  # money conserved
        # The unit goes on after the cut: one more transaction, then another boot finds it.
        if checked[0] % 5 == 0 and got is not None:
            rec = led2.move("go", 0, 1, led2.profile.go, 0)
            assert isinstance(rec, tuple)
            want = state(led2)
            led3, status3, _ = _boot(fs2.files, journal_max)
            assert status3 == "ok" and state(led3) == want, (tag, status3, led3.store.detail)
        checked[0] += 1

    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=journal_max))
    fs.collect = check
    fs.tag = -1
    led.load(None)

    def before(i):
        fs.tag = i

    session(led, ops, seed, before, None, night)
    fs.collect = None
    check(ops - 1, fs.files)
    assert states[ops - 1][1] == state(led)
    return txns, checked[0], len(states)


def test_cut_at_every_step_of_a_long_session():
    txns, checked, ops = _cut_everywhere(230, 16, 7)
    assert txns >= 200, txns
    assert checked > 1000, checked


def test_cut_at_every_step_of_a_game_night_session_b19_b20_b21_b22():
    # Every new kind of write: a bankruptcy and the pot's moves (one journal line each, like a
    # transfer), the pot's setting, the count and the clock (a line each), across checkpoints
    # that carry them in their header.
    led = SmallLedger(FileStore("/bank", fs=FaultFS(), journal_max=8))
    led.load(None)
    kinds = {}

    def after(i):
        last = led.store.records(1)
        if last:
            kinds[last[0][1]] = 1
        kinds["pot on"] = kinds.get("pot on") or led.pot_on
        kinds["count"] = kinds.get("count") or led.count is not None
        kinds["clock"] = kinds.get("clock") or led.clock is not None

    session(led, 150, 5, None, after, True)
    for kind in ("bankrupt", "pot-in", "pot-out", "pot on", "count", "clock"):
        assert kinds.get(kind), kinds
    txns, checked, _ = _cut_everywhere(150, 8, 5, True)
    assert checked > 600, checked


def test_cut_at_every_step_with_a_checkpoint_each_few_transactions():
    txns, checked, _ = _cut_everywhere(60, 3, 11)
    assert checked > 300


def test_a_failed_write_changes_nothing_in_ram_nor_on_flash_after_a_reboot_b17():
    """A write that fails (OSError: flash full, a failed sync) leaves the ledger as it was, and
    a reboot finds the state before it even where the write landed whole before it failed:
    the banker saw it refused. The next good write keeps flash and RAM agreeing."""
    for at in range(1, 40):
        fs = FaultFS()
        led = SmallLedger(FileStore("/bank", fs=fs, journal_max=4))
        led.load(None)
        session(led, 12, 3)
        want = state(led)
        fs.fail_at = fs.steps + at
        r = led.move("transfer", 1, 2, 10000, 0)
        fs.fail_at = None
        if isinstance(r, str):
            assert r == "store-failed" and state(led) == want
            led2, status, _ = _boot(fs.files, 4)
            got = state(led2)
            assert status == "ok" and got == want, (at, led2.store.detail)
        assert isinstance(led.move("go", 0, 3, led.profile.go, 0), tuple)
        led2, status, _ = _boot(fs.files, 4)
        assert status == "ok" and state(led2) == state(led), (at, led2.store.detail)


class FullFS(FaultFS):
    """A flash that fills up under an append (`full`): the write lands all but its last byte,
    the line's "\\n" (a short write at a page boundary), and fails with ENOSPC."""

    full = False

    def __init__(self):
        FaultFS.__init__(self)
        self.landed = []  # what each append landed before it failed

    def open(self, path, mode):
        f = FaultFS.open(self, path, mode)
        if self.full and "a" in mode:
            def write(data):
                self.files[path].extend(data[:-1])
                self.landed.append(bytes(data[:-1]))
                raise OSError(28)

            f.write = write
        return f


def test_an_append_refused_on_a_full_flash_is_not_there_after_a_restart():
    # B17: what the unit answered (store-failed, the balances of before) is what boot finds,
    # though all of the line but its "\n" landed.
    import json

    from harness import Rig
    from protocol import Protocol

    def booted(files):
        r = Rig(store=FileStore("/bank", fs=FaultFS(copy_files(files))))
        return Protocol(r.unit, r.clock)

    def answer(p, line):
        out = p.handle(line)[-1]
        assert out.startswith("OK "), (line, out)
        return json.loads(out[3:])

    fs = FullFS()
    r = Rig(store=FileStore("/bank", fs=fs))
    p = Protocol(r.unit, r.clock)
    answer(p, "INSERT L 1")
    answer(p, "KEY 1 M +")
    before = answer(p, "BALANCES")
    log = answer(p, "LOG")
    fs.full = True
    assert answer(p, "KEY 5 0 K +")["error"] == "store-failed"
    fs.full = False
    assert fs.landed[0].endswith(b" 50000 0 16050000 0 serial")  # all but its end
    assert answer(p, "BALANCES") == before
    p2 = booted(fs.files)
    assert answer(p2, "HELLO")["store"] == "ok"
    assert answer(p2, "BALANCES") == before and answer(p2, "LOG") == log
    # The unit goes on: the next transaction counts, the refused one never does.
    answer(p, "KEY C 2 0 K +")  # C: the refused entry is still typed (B2)
    p2 = booted(fs.files)
    assert answer(p2, "HELLO")["store"] == "ok"
    assert answer(p2, "BALANCES")["1"] == before["1"] + 20000
    assert [t["amount"] for t in answer(p2, "LOG")] == [1000000, 20000]


def test_a_refused_write_whose_undoing_also_landed_and_failed_never_comes_back_b17():
    # The refused append is written over by a checkpoint of the game as it stands; that
    # checkpoint's own sync failing once it was down left the store writing the next one over
    # it, the one copy without the refused line: a cut there booted the refused money, ok.
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=50))
    led.load(None)
    session(led, 6, 5)
    want = state(led)
    fs.fail_done = (1, 2)  # the append, then the checkpoint over it: each lands, then fails
    assert led.move("receive", 0, 2, 990000, 0) == "store-failed" and state(led) == want
    images = []
    fs.collect = lambda tag, img: images.append(copy_files(img))
    assert isinstance(led.move("go", 0, 3, led.profile.go, 0), tuple)
    fs.collect = None
    assert images
    for img in images + [fs.files]:  # a cut at every step of the next move, and none
        led2, status, _ = _boot(img, 50)
        assert status == "ok" and state(led2) in (want, state(led)), led2.store.detail


def test_a_new_game_refused_at_err6_after_it_landed_is_not_there_after_a_reboot_b17():
    # With no good copy (Err6) the new game's checkpoint landed and its sync failed: the unit
    # said store-failed and stayed at Err6, and the next boot had the new game in play.
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=50))
    led.load(None)
    session(led, 3, 5)
    files = copy_files(fs.files)
    assert "/bank/bank.b" not in files
    files["/bank/bank.a"][20] ^= 1  # the one slot's header
    led, status, fs = _boot(files, 50)
    assert status == "damaged" and not led.ready
    fs.fail_done = 1
    assert led.reset() == "store-failed" and not led.ready
    led2, status, _ = _boot(fs.files, 50)
    assert status == "damaged" and not led2.ready


def test_a_refused_write_whose_undoing_failed_once_is_undone_by_a_second_try_b17():
    # The checkpoint over a refused append that landed failed at one step of its own: the
    # refused line stood in the slot in use, and a reboot brought back the money refused.
    for k in range(1, 14):  # the fault at every step of the append and of the checkpoint
        fs = FaultFS()
        led = SmallLedger(FileStore("/bank", fs=fs, journal_max=50))
        led.load(None)
        session(led, 4, 5)
        want = state(led)
        fs.fail_done = 1
        fs.fail_at = fs.steps + k
        assert led.move("receive", 0, 2, 990000, 0) == "store-failed" and state(led) == want
        fs.fail_at = None
        led2, status, _ = _boot(fs.files, 50)
        assert status == "ok" and state(led2) == want, k


def test_a_refused_write_whose_undoing_cannot_be_read_back_is_refused_not_a_crash_b17():
    # The checkpoint over a refused write failed, and reading its slot back found the process
    # out of files (EMFILE): the store raised out of the refusal, and the unit with it.
    class OutOfFiles(FaultFS):
        out = False

        def open(self, path, mode):
            if self.out and "r" in mode:
                raise OSError(24)
            return FaultFS.open(self, path, mode)

    for k in range(1, 14):  # the checkpoint's fault at each of its steps
        fs = OutOfFiles()
        led = SmallLedger(FileStore("/bank", fs=fs, journal_max=50))
        led.load(None)
        session(led, 4, 5)
        want = state(led)
        fs.fail_done = 1  # the append lands, then fails
        fs.fail_at = fs.steps + k
        fs.out = True
        assert led.move("receive", 0, 2, 990000, 0) == "store-failed" and state(led) == want, k
