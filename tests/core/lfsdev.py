"""A RAM block device for the MicroPython unix port's LittleFS (vfs.VfsLfs2), as on the Pico:
4 KB erase blocks, mounted with progsize=256 (the rp2 port's own _boot.py settings).

It counts what reaches the flash (block programs, bytes programmed, erases) and can call
`on_write(dev, block, offset, buf)` before each program, so a test can look at what the flash
would hold if the power failed right there."""

import gc

BLOCK = 4096
PROGSIZE = 256
_ERASED = b"\xff" * BLOCK  # made once: erasing allocates nothing, so benches count the store

try:
    import vfs

    LFS2 = getattr(vfs, "VfsLfs2", None)
except ImportError:
    try:
        import os

        LFS2 = getattr(os, "VfsLfs2", None)
    except ImportError:
        LFS2 = None


_pool = []  # big buffers made once: the unix port's heap fragments under a long session


def buffer(index, blocks):
    """The index-th big buffer of blocks * BLOCK bytes, made on first use and then reused."""
    while len(_pool) <= index:
        gc.collect()
        _pool.append(bytearray(blocks * BLOCK))
    if len(_pool[index]) != blocks * BLOCK:
        gc.collect()
        _pool[index] = bytearray(blocks * BLOCK)
    return _pool[index]


class RamDev:
    def __init__(self, blocks=24, data=None):
        self.blocks = blocks
        if data is None:
            data = buffer(0, blocks)
            for b in range(blocks):
                data[b * BLOCK:(b + 1) * BLOCK] = _ERASED
        self.data = data
        self.programs = 0
        self.programmed = 0
        self.erases = 0
        self.on_write = None
        self.on_erase = None
    def readblocks(self, block, buf, off=0):
        a = block * BLOCK + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:  # the simple interface: whole blocks, erase implied
            off = 0
        if self.on_write is not None:
            self.on_write(self, block, off, buf)
        a = block * BLOCK + off
        self.data[a:a + len(buf)] = buf
        self.programs += 1
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            if self.on_erase is not None:
                self.on_erase(self, arg)
            a = arg * BLOCK
            self.data[a:a + BLOCK] = _ERASED
            self.erases += 1
            return 0
        return 0

    def copy(self):
        """What the flash holds now, in the one scratch buffer (the last copy is overwritten)."""
        data = buffer(1, self.blocks)
        data[:] = self.data
        return RamDev(self.blocks, data)


def mkfs(dev):
    LFS2.mkfs(dev, progsize=PROGSIZE)


def mount(dev):
    return LFS2(dev, progsize=PROGSIZE)


if LFS2 is not None:
    buffer(0, 24)  # both big buffers before anything fragments the heap
    buffer(1, 24)
