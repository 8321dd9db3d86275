"""LOG 20 on a unit mid-game: the log read back from flash, under the MicroPython unix port.

    cd <firmware compiled as make deploy does> && micropython <repo>/bench/log_mp.py

A game of 300 transactions (bench/storage.py's mix) on the store, on the unix port's LittleFS
over a RAM block device with the Pico's settings (tests/core/lfsdev.py), then
`storeload.records(ledger, 20)`, what `LOG 20` sends: storeload.py imported for the call from
the .mpy, the slot's lines read back, the last 20 parsed. Prints `{"log20_us": median of 21}`. The
unix port's own files would measure its read(2) calls instead: its readline asks the kernel
for every byte.
"""

import sys
import time

sys.path[0] = ""  # the compiled firmware, as a Pico's root (see boot_mp.py)
sys.path.append(__file__.rsplit("/", 2)[0] + "/tests/core")  # lfsdev: the RAM flash

import transient  # noqa: E402
from lfsdev import RamDev, mkfs, mount  # noqa: E402
from store import FileStore  # noqa: E402
from store_extra import VfsFS  # noqa: E402

sys.path.append(__file__.rsplit("/", 1)[0])  # bench/: the game storage.py plays
from storage import _game  # noqa: E402

dev = RamDev(64)
mkfs(dev)
fs = mount(dev)
fs.mkdir("/bank")
led = _game(FileStore("/bank", fs=VfsFS(fs)), 300)
assert led.seq == 300
times = []
for _ in range(21):
    t0 = time.ticks_us()
    got = transient.call("storeload", "records", led, 20)  # as LOG 20 reads it
    times.append(time.ticks_diff(time.ticks_us(), t0))
assert [r[0] for r in got] == list(range(281, 301))
times.sort()
print('{"log20_us": %d}' % times[10])
