"""B17 on the real LittleFS (vfs.VfsLfs2 of the MicroPython unix port, on a RAM block device).

A scripted game runs on the store; before every block program and every erase LittleFS makes,
the flash is copied as it stands, and as it would stand with that program half done, and each
copy is mounted as the next boot would mount it. Every time: it mounts (a failed mount is a
reformat on the rp2 port), the store reads 'ok', and the balances are those before or after
the transaction in flight, never a mixture; game night's writes too (B19-B22). Runs only under
MicroPython (pytest runs this file through the unix port: tests/test_store_lfs_mp.py); under
CPython it defines no tests.
"""

from lfsdev import LFS2, RamDev, mkfs, mount
from storerig import SmallLedger, recorded, session, state
from store import FileStore
from desktop.memfs import VfsFS
from brain.ledger import Ledger

J = 16


def _ledger(fsobj, cls, journal_max):
    return cls(FileStore("/bank", fs=VfsFS(fsobj), journal_max=journal_max), None)


def _new_dev():
    dev = RamDev()
    mkfs(dev)
    fsobj = mount(dev)
    fsobj.mkdir("/bank")
    return dev, fsobj


def _states(ops, seed, cls, journal_max, night):
    dev, fsobj = _new_dev()
    led = _ledger(fsobj, cls, journal_max)
    assert led.load(None) == "new"
    return recorded(led, ops, seed, night)[0], dev


def _cut_everywhere(ops, seed, cls=SmallLedger, journal_max=J, every=1, night=False):
    states = _states(ops, seed, cls, journal_max, night)[0]
    tag = [-1]
    n = [0]
    seen = [0, 0]

    def boot(image):
        n[0] += 1
        fsobj = mount(image)  # raises if LittleFS would not mount: the rp2 port reformats then
        led = _ledger(fsobj, cls, journal_max)
        status = led.load(None)
        got = state(led)
        ok = states[tag[0]]
        if tag[0] == -1 and status == "new":
            got = None
        else:
            assert status == "ok", (tag[0], status, led.store.detail)
        assert got in ok, (tag[0], got, ok)
        seen[got == ok[1]] += 1

    def on_write(d, block, off, buf):
        if n[0] % every == 0:
            boot(d.copy())  # cut before this program
            half = d.copy()
            a = block * 4096 + off
            k = len(buf) // 2
            half.data[a:a + k] = buf[:k]
            boot(half)  # cut halfway through it

    def on_erase(d, block):
        boot(d.copy())  # cut before the erase ...
        half = d.copy()
        a = block * 4096
        half.data[a:a + 2048] = b"\xff" * 2048
        boot(half)  # ... and halfway through it

    dev, fsobj = _new_dev()
    led = _ledger(fsobj, cls, journal_max)
    dev.on_write = on_write
    dev.on_erase = on_erase
    led.load(None)

    def before(i):
        tag[0] = i

    session(led, ops, seed, before, None, night)
    dev.on_write = dev.on_erase = None
    boot(dev.copy())
    assert state(led) == states[ops - 1][1]
    return n[0], seen


if LFS2 is not None:

    def test_littlefs_power_cut_before_and_inside_every_program_and_erase():
        boots, seen = _cut_everywhere(130, 7)
        print("lfs boots:", boots, "before/after:", seen)
        assert boots > 500 and seen[0] > 100 and seen[1] > 100, (boots, seen)

    def test_littlefs_power_cuts_through_game_night_writes_b19_b20_b21_b22():
        # A bankruptcy, the pot's moves and setting, the count and the clock among the rest.
        boots, seen = _cut_everywhere(90, 5, night=True)
        assert boots > 300 and seen[0] > 50 and seen[1] > 50, (boots, seen)

    def test_littlefs_power_cuts_with_the_default_store_and_a_full_log():
        boots, seen = _cut_everywhere(60, 9, Ledger, None)
        assert boots > 200, boots

    def test_littlefs_a_folder_where_a_slot_goes_is_moved_aside_and_play_goes_on_b17():
        dev, fsobj = _new_dev()
        led = _ledger(fsobj, SmallLedger, J)
        led.load(None)
        session(led, 3, 4)  # a game in bank.a alone, its journal not yet full
        fsobj.mkdir("/bank/bank.b")  # made there over USB, say
        with fsobj.open("/bank/bank.b/x", "w") as f:
            f.write("kept")
        led = _ledger(mount(dev), SmallLedger, J)
        assert led.load(None) == "damaged"  # a slot that does not read (B17)
        session(led, 2, 5)  # its first write is a checkpoint into bank.b: it had no way in
        after = state(led)
        led = _ledger(mount(dev), SmallLedger, J)
        led.load(None)
        assert state(led) == after
        with mount(dev).open("/bank/bank.b.folder/x", "r") as f:
            assert f.read() == "kept"
