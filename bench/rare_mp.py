"""What the rarely-run code costs each time it runs on a unit mid-game, as a Pico runs it from
its .mpy: under the MicroPython unix port.

    cd <firmware compiled as make deploy does> && micropython <repo>/bench/rare_mp.py

A game of 300 transactions (bench/storage.py's mix) on the store, on the unix port's LittleFS
over a RAM block device with the Pico's settings (tests/core/lfsdev.py), loaded by a unit with
the Pico's random source. Then, each the median of 21:
- `log20_us`: `store.records(ledger, 20)`, what `LOG 20` sends: the slot's lines read back by
  store/slot.py's reader (imported with the store, kept), the last 20 parsed. The unix port's
  own files would measure its read(2) calls instead: its readline asks the kernel for every
  byte.
- `deal_us`: a DEAL press that starts the deal timer (B13): deal.py and rng.py imported, a
  number drawn from os.urandom.
- `wake_us`: the key press that wakes a unit switched off (B16): power.py imported.
"""

import sys
import time

sys.path[0] = ""  # the compiled firmware, as a Pico's root (see boot_mp.py)
sys.path.append(__file__.rsplit("/", 2)[0] + "/tests/core")  # lfsdev: the RAM flash
sys.path.append(__file__.rsplit("/", 2)[0] + "/firmware")  # desktop/ (VfsFS): never deployed

import transient  # noqa: E402
from lfsdev import RamDev, mkfs, mount  # noqa: E402
import store  # noqa: E402
from store import FileStore  # noqa: E402
from desktop.memstore import VfsFS  # noqa: E402
from brain.unit import Unit  # noqa: E402

sys.path.append(__file__.rsplit("/", 1)[0])  # bench/: the game storage.py plays
from storage import _game  # noqa: E402


def median(fn):
    """Median of 21 runs of fn, which times its own part (us) and checks what it did."""
    times = sorted(fn() for _ in range(21))
    return times[10]


def timed(fn, *args):
    t0 = time.ticks_us()
    got = fn(*args)
    return time.ticks_diff(time.ticks_us(), t0), got


dev = RamDev(64)
mkfs(dev)
fs = mount(dev)
fs.mkdir("/bank")
assert _game(FileStore("/bank", fs=VfsFS(fs)), 300).seq == 300
u = Unit(FileStore("/bank", fs=VfsFS(fs)), None, None)  # rng None: the hardware's, as a Pico
transient.call("brain.power", "boot", u, 0)
assert u.ledger.seq == 300


def log20():
    t, got = timed(store.records, u.ledger, 20)  # as LOG 20 reads it
    assert [r[0] for r in got] == list(range(281, 301))
    return t


def deal():
    u.deal = "idle"  # each press starts a timer
    t, _ = timed(u.key_down, "DEAL", 0)
    u.key_up("DEAL", 0)
    assert u.deal == "running"
    assert "brain.deal" not in sys.modules and "board.rng" not in sys.modules
    return t


def wake():
    transient.call("brain.power", "off", u)
    t, _ = timed(u.key_down, "5", 0)  # the press only, not the switching off
    u.key_up("5", 0)
    assert u.power and u.entry == "" and "brain.power" not in sys.modules
    return t


print('{"log20_us": %d, "deal_us": %d, "wake_us": %d}' % (median(log20), median(deal),
                                                           median(wake)))
