"""Builds the unit the simulator runs, from the same firmware modules the Pico runs."""

import time

from brain import clock as fwclock
from brain import profiles
from board import rng
from desktop import seeded
from desktop import vclock
from protocol import Protocol
from store import FileStore
from desktop.memstore import MemoryStore
from brain.unit import Unit

try:
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]  # MicroPython
    sleep_ms = time.sleep_ms  # type: ignore[attr-defined]
except AttributeError:

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def sleep_ms(ms):
        time.sleep(ms / 1000)


LOCK_NAME = "bank.lock"


class StartError(Exception):
    """The simulator cannot start as asked: one line for the user (cli.py exits with 2)."""


def _mkdirs(path):
    import os

    parts = path.rstrip("/").split("/")
    cur = "/" if path.startswith("/") else ""
    for p in parts:
        if not p:
            continue
        cur = cur + p if cur.endswith("/") or not cur else cur + "/" + p
        try:
            os.mkdir(cur)
        except OSError:
            pass


def _why(e):
    """An OSError in words: its strerror (CPython) or its errno's name (MicroPython)."""
    text = getattr(e, "strerror", None)
    if text:
        return text
    code = e.args[0] if e.args else None
    names = {2: "no such file or directory", 13: "permission denied", 17: "file exists",
             20: "not a directory", 21: "is a directory", 28: "no space left on device",
             30: "read-only file system"}
    return names.get(code, "error %s" % code)


def open_state(path):
    """The state folder, made if missing and held by this process alone: a second simulator
    on the same folder would interleave its writes with ours and lose acknowledged
    transactions (B17). The hold is an OS lock (flock) on bank.lock in the folder, which the
    OS releases when the process ends, however it ends. Returns the lock file (kept open), or
    None where there is no flock (the MicroPython unix port: the folder is not held there).
    StartError says what is wrong and what to do."""
    import os

    _mkdirs(path)
    try:
        mode = os.stat(path)[0]
    except OSError as e:
        raise StartError("cannot make the state folder %s (%s); give --state a folder that "
                         "can be created" % (path, _why(e))) from None
    if not mode & 0o040000:
        raise StartError("--state %s is not a folder; give --state a folder" % path)
    lock = path.rstrip("/") + "/" + LOCK_NAME
    try:
        import fcntl
    except ImportError:  # the MicroPython unix port has no flock
        return _check_only(path, lock)
    try:
        f = open(lock, "a+")
    except OSError as e:
        raise StartError(_unwritable(path, e)) from None
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read().strip() or "?"
        f.close()
        raise StartError(_in_use(path, pid)) from None
    try:
        # Unbuffered: a full disk says so here, not in a later close().
        os.ftruncate(f.fileno(), 0)
        os.write(f.fileno(), b"%d\n" % os.getpid())
    except OSError as e:
        f.close()
        raise StartError(_unwritable(path, e)) from None
    return f


def _unwritable(path, e):
    return ("cannot write to the state folder %s (%s); free some space, or give --state a "
            "folder this user can write" % (path, _why(e)))


def _in_use(path, pid):
    return ("the state folder %s is in use by another simulator (process %s); stop it, or "
            "give this one another --state" % (path, pid))


def _check_only(path, lock):
    """Without flock: refuse a folder whose lock names a live process (a CPython simulator
    holds it), and check the folder can be written; nothing is held."""
    import os

    try:
        with open(lock) as f:
            pid = f.read().strip()
    except OSError:
        pid = ""
    if pid.isdigit():
        try:
            os.stat("/proc/" + pid)
            raise StartError(_in_use(path, pid))
        except OSError:
            pass  # that process has ended: its lock went with it
    try:
        open(lock, "a").close()
    except OSError as e:
        raise StartError(_unwritable(path, e)) from None
    return None


class Host:
    """One simulated unit: its store, random source, clock, brain and protocol."""

    def __init__(self, opts):
        if opts.profile is not None and profiles.get(opts.profile) is None:
            raise ValueError("unknown profile %s (world, classic, francs)" % opts.profile)
        self.lock = None
        if opts.state:
            self.lock = open_state(opts.state)
            self.store = FileStore(opts.state)
        else:
            self.store = MemoryStore()
        self.rng = seeded.Seeded(opts.seed) if opts.seed is not None else rng.Entropy()
        if opts.virtual_clock:
            self.clock = vclock.VirtualClock()
        else:
            self.clock = fwclock.RealClock(ticks_ms, sleep_ms)
            # The games it puts away are dated (GAMES' "kept"); a virtual clock's run is the
            # same whenever it is made, so its games are not.
            self.store.wall = time.time
        self.unit = Unit(self.store, self.rng, opts.profile)
        try:
            self.unit.boot(self.clock.now())
        except OSError as e:  # a new store's first checkpoint could not be written
            raise StartError(_unwritable(opts.state, e)) from None
        if opts.maintenance:
            self.unit.maintenance = True
        self.protocol = Protocol(self.unit, self.clock)

