"""The core's cost per key press and per transaction; runs under CPython and the unix port.

Usage (from the repo root): <python or micropython> bench/core_bench.py
Prints one JSON object. A key press is what a banker's finger costs the unit: key down, key up,
and the display the board then redraws. A transaction is a whole `1 5 0 K +` with the store's
commit on a RAM-backed file system (LittleFS on a RAM block device under the unix port).
"""

import gc
import sys

sys.path.insert(0, "firmware")
sys.path.insert(0, "tests/core")

from desktop import seeded  # noqa: E402
from desktop.vclock import VirtualClock  # noqa: E402
from brain.unit import Unit  # noqa: E402
import startup  # noqa: E402

MP = sys.implementation.name == "micropython"

try:
    from time import ticks_diff, ticks_us  # type: ignore[attr-defined]
except ImportError:
    import time

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


def mem_alloc():
    return gc.mem_alloc() if MP else 0  # type: ignore[attr-defined]


def ram_store():
    """A FileStore on a RAM LittleFS where the interpreter has one, else in a temp dir."""
    import store

    if MP:
        import os

        import vfs  # type: ignore[import-not-found]

        from lfsdev import RamDev, mkfs, mount  # the RAM flash the storage tests use

        dev = RamDev(64)
        mkfs(dev)
        try:
            vfs.umount("/ram")
        except OSError:
            pass
        vfs.mount(mount(dev), "/ram")
        try:
            os.mkdir("/ram/bank")
        except OSError:
            pass
        return store.FileStore("/ram/bank")
    import tempfile

    return store.FileStore(tempfile.mkdtemp())


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def press(u, k, now):
    u.key_down(k, now)
    u.key_up(k, now)
    u.display()


def bench_keys(n=2000, rounds=15):
    from desktop.memfs import MemFS
    from store import FileStore

    clock = VirtualClock()
    u = Unit(FileStore("bank", MemFS()), seeded.Seeded(1), None)
    startup.boot_unit(u, 0)
    u.card_in("L", 1, 0)
    keys = ("1", "5", "0", "K", "C")
    per = []
    allocs = []
    for _ in range(rounds):
        gc.collect()
        a0 = mem_alloc()
        t0 = ticks_us()
        for i in range(n):
            press(u, keys[i % 5], clock.now())
        t1 = ticks_us()
        a1 = mem_alloc()
        per.append(ticks_diff(t1, t0) / n)
        allocs.append((a1 - a0) / n)
    # No leak: the heap in use after 10,000 more presses, collected, is what it was.
    gc.collect()
    before = mem_alloc()
    for i in range(10000):
        press(u, keys[i % 5], clock.now())
    gc.collect()
    growth = mem_alloc() - before
    return median(per), median(allocs), growth


def bench_transactions(n=100):
    st = ram_store()
    u = Unit(st, seeded.Seeded(1), None)
    startup.boot_unit(u, 0)
    u.card_in("R", 2, 0)
    u.card_in("L", 1, 0)
    times = []
    allocs = []
    writes0 = st.writes
    for _ in range(n):
        gc.collect()
        a0 = mem_alloc()
        t0 = ticks_us()
        for k in ("1", "0", "K", "-"):
            press(u, k, 0)
        t1 = ticks_us()
        allocs.append(mem_alloc() - a0)
        times.append(ticks_diff(t1, t0))
        if u.ledger.bal[2] < 100000:
            u.key_down("C", 0)
            u.key_up("C", 0)
    assert u.ledger.seq >= n
    return median(times), median(allocs), (st.writes - writes0) / n


def main():
    key_us, key_alloc, growth = bench_keys()
    txn_us, txn_alloc, commits = bench_transactions()
    out = '{"interpreter": "%s", "key_us": %.3f, "key_alloc": %.1f, "leak_10000": %d, ' \
          '"txn_us": %.1f, "txn_alloc": %d, "commits_per_txn": %.2f}'
    print(out % (sys.implementation.name, key_us, key_alloc, growth, txn_us, txn_alloc,
                 commits))


main()
