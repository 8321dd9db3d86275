"""What the rarely-run code costs a unit mid-game, as a Pico runs it from its .mpy files (every
module imported at boot): the first use, with the heap it keeps from then on, and later uses.
Under the MicroPython unix port (64-bit: its heap figures are larger than a Pico's, for
comparisons between runs).

    cd <firmware compiled as make deploy does> && micropython <repo>/bench/rare_mp.py

A game of 300 transactions (bench/storage.py's mix) on the store, on the unix port's LittleFS
over a RAM block device with the Pico's settings (tests/core/lfsdev.py), booted by a unit with
the Pico's random source. Then, for each rare path, `<path>_first_us` and `<path>_heap` (the
bytes its first use leaves allocated, after a collection) and `<path>_us` (median of 21 later
uses):
- `log20`: `ledger.store.records(20)`, what `LOG 20` sends: the last 20 of the records the
  store holds in RAM.
- `deal`: a DEAL press that starts the deal timer (B13): the first makes the timer (the random
  source, board/rng.py, is handed to the unit at boot), a number drawn from os.urandom.
- `newgame`: C held 3 s (B11), the moment it fires: the new game written to flash.
- `wake`: the key press that wakes a unit switched off (B16); no module of its own
  (`wake_heap` is what the press leaves).
"""

import gc
import sys
import time

sys.path[0] = ""  # the compiled firmware, as a Pico's root (see boot_mp.py)
sys.path.append(__file__.rsplit("/", 2)[0] + "/tests/core")  # lfsdev: the RAM flash
# desktop/ (VfsFS: the store on the unix port's LittleFS) is never deployed: from the sources,
# after the compiled firmware, which is found first.
sys.path.append(__file__.rsplit("/", 2)[0] + "/firmware")

from lfsdev import RamDev, mkfs, mount  # noqa: E402
from store import FileStore  # noqa: E402
from desktop.memfs import VfsFS  # noqa: E402
from brain.unit import Unit  # noqa: E402
from board.rng import Entropy  # noqa: E402
from startup import BOOT_ONLY, boot_unit, forget  # noqa: E402

sys.path.append(__file__.rsplit("/", 1)[0])  # bench/: the game storage.py plays
from storage import _game  # noqa: E402

RUNS = 21


def timed(fn, *args):
    t0 = time.ticks_us()
    got = fn(*args)
    return time.ticks_diff(time.ticks_us(), t0), got


def measure(name, once, out):
    """once() runs the path and returns the us its own part took (it checks what it did):
    the first run's time and the heap it leaves, then the median of RUNS more."""
    gc.collect()
    before = gc.mem_alloc()
    first = once()
    gc.collect()
    out[name + "_heap"] = gc.mem_alloc() - before
    out[name + "_first_us"] = first
    times = sorted(once() for _ in range(RUNS))
    out[name + "_us"] = times[RUNS // 2]


dev = RamDev(64)
mkfs(dev)
fs = mount(dev)
fs.mkdir("/bank")
assert _game(FileStore("/bank", fs=VfsFS(fs)), 300).seq == 300
for name in BOOT_ONLY:
    forget(name)  # a reset: what made the game is gone
u = Unit(FileStore("/bank", fs=VfsFS(fs)), Entropy(), None)  # the hardware's, as a Pico
boot_unit(u, 0)
for name in BOOT_ONLY:
    forget(name)  # as app.boot leaves a unit (startup.forget_boot)
assert u.ledger.seq == 300
now = [0]


def log20():
    t, got = timed(u.ledger.store.records, 20)  # as LOG 20 reads it
    assert [r[0] for r in got] == list(range(281, 301))
    return t


def later():
    """Two minutes on: the deal before has ended and the unit, switched off, is woken."""
    now[0] += 120000
    u.tick(now[0])
    u.key_down("5", now[0])
    u.key_up("5", now[0])
    assert u.power and u.deal_phase() == "idle"


def deal():
    later()  # each press starts a timer
    t, _ = timed(u.key_down, "DEAL", now[0])
    u.key_up("DEAL", now[0])
    assert u.deal_phase() == "running"
    return t


def newgame():
    seq = u.ledger.seq
    later()
    u.key_down("C", now[0])
    t, _ = timed(u.tick, now[0] + u.hold_ms)
    u.key_up("C", now[0] + u.hold_ms)
    assert u.ledger.bal[1] == u.ledger.profile.start and u.ledger.seq == seq
    return t


def wake():
    u.switch_off()
    t, _ = timed(u.key_down, "5", now[0])  # the press only, not the switching off
    u.key_up("5", now[0])
    assert u.power and u.entry == ""
    return t


out = {}
for name, fn in (("log20", log20), ("deal", deal), ("newgame", newgame), ("wake", wake)):
    measure(name, fn, out)
print("{%s}" % ", ".join('"%s": %d' % (k, out[k]) for k in sorted(out)))
