"""Where the ledger lives between power cycles.

The ledger hands the store three kinds of change: `commit(ledger, rec)` after one transaction,
`save(ledger)` after a whole-game change (new game, restore, profile), `save_settings(ledger)`
for the volume. Each must be durable when it returns, or raise OSError and leave the previous
state on disk (B17). `load()` gives the snapshot dict (see Ledger.snapshot) or None, and sets
`status` to 'ok', 'new' (nothing was ever stored) or 'damaged' (what was stored is unreadable).
"""

import json

import jsonw


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
        self.data = jsonw.dumps(ledger.snapshot())
        self.writes += 1

    def commit(self, ledger, rec):
        snap = ledger.snapshot()
        snap["log"].append(list(rec))
        snap["seq"] = rec[0]
        self.data = jsonw.dumps(snap)
        self.writes += 1

    def save_settings(self, ledger):
        self.save(ledger)


class FileStore(MemoryStore):
    """The whole state in one file, replaced atomically (write a temporary, then rename)."""

    name = "bank.json"

    def __init__(self, directory):
        MemoryStore.__init__(self)
        self.path = directory.rstrip("/") + "/" + self.name
        self.tmp = self.path + ".tmp"

    def load(self):
        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            self.status = "new"
            return None
        try:
            snap = json.loads(text)
            if not isinstance(snap, dict):
                raise ValueError
        except ValueError:
            self.status = "damaged"
            return None
        self.status = "ok"
        return snap

    def _write(self, text):
        import os

        with open(self.tmp, "w") as f:
            f.write(text)
        os.rename(self.tmp, self.path)
        self.writes += 1

    def save(self, ledger):
        self._write(jsonw.dumps(ledger.snapshot()))

    def commit(self, ledger, rec):
        snap = ledger.snapshot()
        snap["log"].append(list(rec))
        snap["seq"] = rec[0]
        self._write(jsonw.dumps(snap))
