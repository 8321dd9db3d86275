"""Flash cost of a transaction: `writes_per_transaction()` (make bench reads it).

The store (firmware/store/) runs a long mixed game on the real LittleFS of the MicroPython
unix port (vfs.VfsLfs2 on a RAM block device with the rp2 port's settings: 4 KB blocks,
progsize 256), and the block device counts what reaches the flash. Under CPython this file runs
itself under .venv/bin/micropython; without the unix port it falls back to counting at the file
level (no block figures). Also: `python -m bench.storage` prints the figures.

    writes   store commits (LittleFS file syncs) per transaction, checkpoints included
    bytes    bytes programmed into flash per transaction (data, metadata, checkpoints)
    programs block programs per transaction; erases: 4 KB block erases per transaction
    file_bytes  bytes the store hands the file system per transaction
    games    flash lifetime in games (see docs/storage.md for the assumptions)
"""

import sys

TXNS = 600
GAME_TXNS = 300  # transactions in a long game (an evening of Monopoly)
FS_BLOCKS = 352  # the Pico's LittleFS: 1408 KB of 4 KB blocks (rp2 port, 2 MB flash)
FIRMWARE_BLOCKS = 60  # the firmware's own files on the same file system stay put
CYCLES = 100000  # erase cycles of the Pico's NOR flash


def _game(store, n):
    from brain.ledger import Ledger

    led = Ledger(store, None)
    led.load(None)
    move = led.move
    go = led.profile.go
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        card = 1 + (x >> 8) % 6
        other = 1 + (card + (x >> 12) % 5) % 6
        amount = (1 + (x >> 16) % 200) * 10000
        k = i % 4
        if k == 0:
            move("receive", 0, card, amount, 0)
        elif k == 1:
            if isinstance(move("pay", card, 0, amount, 0), str):
                move("receive", 0, card, amount, 0)
        elif k == 2:
            if isinstance(move("transfer", card, other, amount, 0), str):
                move("go", 0, card, go, 0)
        else:
            move("go", 0, card, go, 0)
    return led


class _Counted:
    """fs as the store is given it, counting the bytes the store writes through it."""

    def __init__(self, fs):
        self.fs, self.bytes = fs, 0
        self.remove, self.listdir = fs.remove, fs.listdir

    def open(self, path, mode):
        f = self.fs.open(path, mode)
        return f if "r" in mode else _CountedFile(f, self)

    def done(self, f):
        self.fs.done(f.f)


class _CountedFile:
    def __init__(self, f, fs):
        self.f, self.fs = f, fs

    def write(self, b):
        self.fs.bytes += len(b)
        return self.f.write(b)

    def seek(self, *where):
        return self.f.seek(*where)

    def close(self):
        self.f.close()


def _lfs():
    """On the unix port: the figures, measured on VfsLfs2."""
    from lfsdev import RamDev, mkfs, mount  # the RAM flash the storage tests use
    from store import FileStore
    from desktop.memfs import VfsFS

    dev = RamDev(64)
    mkfs(dev)
    fsobj = mount(dev)
    fsobj.mkdir("/bank")
    fs = _Counted(VfsFS(fsobj))
    store = FileStore("/bank", fs=fs)
    led = _game(store, 10)  # the first checkpoint, the marker: not a transaction's cost
    p0, b0, e0 = dev.programs, dev.programmed, dev.erases
    w0, f0 = store.writes, fs.bytes
    _game_on(led, TXNS)
    n = TXNS
    erases = (dev.erases - e0) / n
    return {"writes": round((store.writes - w0) / n, 3),
            "bytes": round((dev.programmed - b0) / n),
            "programs": round((dev.programs - p0) / n, 2),
            "erases": round(erases, 3),
            "file_bytes": round((fs.bytes - f0) / n),
            "games": int((FS_BLOCKS - FIRMWARE_BLOCKS) * CYCLES / (erases * GAME_TXNS)),
            "on": "LittleFS (vfs.VfsLfs2, RAM block device, 4 KB blocks, progsize 256)"}


def _game_on(led, n):
    x = 777
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        card = 1 + (x >> 8) % 6
        amount = (1 + (x >> 16) % 200) * 10000
        if i % 3 == 0 or isinstance(led.move("transfer", card, 1 + card % 6, amount, 0), str):
            led.move("go", 0, card, led.profile.go, 0)


def _files():
    import shutil
    import tempfile

    from store import FileStore

    d = tempfile.mkdtemp()
    try:
        from store import OsFS

        inner = OsFS()
        inner.fsync = None  # the file level only: no flash to wait for
        fs = _Counted(inner)
        store = FileStore(d, fs=fs)
        led = _game(store, 10)
        w0, f0 = store.writes, fs.bytes
        _game_on(led, TXNS)
        n = TXNS
        return {"writes": round((store.writes - w0) / n, 3), "bytes": None,
                "file_bytes": round((fs.bytes - f0) / n),
                "on": "file level only (no MicroPython unix port)"}
    finally:
        shutil.rmtree(d)


def writes_per_transaction():
    """A dict: writes and bytes per transaction, and the rest (module docstring)."""
    if sys.implementation.name == "micropython":
        return _lfs()
    import json
    import os
    import subprocess

    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        mp = os.path.join(repo, ".venv", "bin", "micropython")
    if os.path.exists(mp):
        out = subprocess.run([mp, os.path.join(here, "storage.py")], cwd=repo,
                             capture_output=True, text=True, timeout=120)
        if out.returncode == 0:
            return json.loads(out.stdout.strip().splitlines()[-1])
    sys.path.insert(0, os.path.join(repo, "firmware"))
    return _files()


def _main():
    if sys.implementation.name == "micropython":
        sys.path.insert(0, "firmware")
        sys.path.insert(0, "tests/core")
        import json

        print(json.dumps(_lfs()))
    else:
        got = writes_per_transaction()
        for k in sorted(got):
            print("%-10s %s" % (k, got[k]))


if __name__ == "__main__":
    _main()
