"""The stores and file systems of the simulator, the tests and the bench; the Pico never imports
this module (main.py uses store.FileStore on the real file system), so it costs the unit no heap.
"""

import json

import games  # a reference of its own: transient.call may drop it from sys.modules
import jsonw
from store import OsFS


class MemoryStore:
    """A store in RAM, for tests and for a simulator run without --state."""

    def __init__(self):
        self.data = None
        self.status = "new"
        self.writes = 0

    def load(self):
        if self.data is None:
            self.status = "new"
            return None
        self.status = "ok"
        return json.loads(self.data)

    def save(self, ledger):
        self.data = jsonw.dumps(games.snapshot(ledger))
        self.writes += 1

    def commit(self, ledger, rec):
        snap = games.snapshot(ledger)
        snap["log"].append(list(rec))
        snap["seq"] = rec[0]
        self.data = jsonw.dumps(snap)
        self.writes += 1

    def save_settings(self, ledger):
        self.save(ledger)


class VfsFS(OsFS):
    """A file system object that is not mounted (vfs.VfsLfs2(bdev)): tests and the bench."""

    def __init__(self, vfs):
        self.os = vfs  # stat and remove as the os module has them
        self.fsync = None

    def open(self, path, mode):
        return self.os.open(path, mode)
