"""File systems for the one store (store.FileStore) off the Pico: in RAM (the simulator without
--state, the tests, the bench) and an unmounted LittleFS (the unix port's storage tests). The
Pico never imports this module, so it costs the unit no heap.
"""

from store import OsFS


class MemFile:
    """An open file of MemFS: what the store calls on one (write, readline, read, flush,
    close)."""

    def __init__(self, buf):
        self.buf = buf
        self.pos = 0

    def write(self, data):
        self.buf.extend(data)
        return len(data)

    def readline(self, most=-1):
        buf = self.buf
        i = self.pos
        j = buf.find(b"\n", i) + 1  # to the line end, or (none) to the end of the file
        self.pos = j if j else max(i, len(buf))
        if 0 <= most < self.pos - i:
            self.pos = i + most
        return bytes(buf[i:self.pos])

    def seek(self, off, whence=0):
        self.pos = off + (len(self.buf) if whence == 2 else self.pos if whence else 0)
        return self.pos

    def read(self, n):
        i = self.pos
        self.pos = min(len(self.buf), i + n)
        return bytes(self.buf[i:self.pos])

    def flush(self):
        pass

    def close(self):
        pass


class MemFS:
    """Files in RAM, path -> bytearray: a write lands at once, as the store's rules allow."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(2)
        elif "w" in mode or path not in self.files:
            self.files[path] = bytearray()
        return MemFile(self.files[path])

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def listdir(self, d):
        d = "" if d == "/" else d  # the root's files are "/name"
        return [k[len(d) + 1:] for k in self.files if k.startswith(d + "/")]

    def done(self, f):
        f.close()


class VfsFS(OsFS):
    """A file system object that is not mounted (vfs.VfsLfs2(bdev)): tests and the bench."""

    def __init__(self, vfs):
        self.open = vfs.open
        self.remove = vfs.remove
        self.rename = vfs.rename
        self.listdir = lambda d: [e[0] for e in vfs.ilistdir(d)]
        self.fsync = None
