"""Builds the unit the simulator runs, from the same firmware modules the Pico runs."""

import time

from brain import clock as fwclock
from board import rng
from desktop import seeded
from desktop import vclock
from protocol import Protocol
from store import FileStore, OsFS
from desktop.memfs import MemFS
import startup

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
    """path made, folder by folder; the first refusal but "it exists" (a read-only disk's,
    not the "no such folder" of those under it), to say why when path is still not there."""
    import os

    parts = path.rstrip("/").split("/")
    cur = "/" if path.startswith("/") else ""
    why = None
    for p in parts:
        if not p:
            continue
        cur = cur + p if cur.endswith("/") or not cur else cur + "/" + p
        try:
            os.mkdir(cur)
        except OSError as e:
            if why is None and e.args[:1] != (17,):
                why = e
    return why


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


class StateFS(OsFS):
    """The state folder's files as OsFS opens them, but for one that is no plain file: a FIFO
    named bank.a would hold the boot's read for ever, so it does not open (EIO), and the store
    reports it as damage, as a directory of that name (B17). Nor is one written to once the
    folder is no longer the one held (moved away, another put at its path): another simulator
    may hold that one, and the writes of both would interleave there."""

    def __init__(self, folder=None):
        OsFS.__init__(self)
        # OsFS's are the builtins, set on the instance
        self.open, self.remove, self.rename = self._open, self._remove, self._rename
        self.folder = folder
        self.held = None if folder is None else _ident(folder)

    def _still_held(self):
        if self.held is not None and _ident(self.folder) != self.held:
            raise OSError(5, "the state folder was replaced: " + self.folder)

    def _remove(self, path):
        import os

        self._still_held()
        os.remove(path)

    def _rename(self, old, new):
        import os

        self._still_held()
        os.rename(old, new)

    def _open(self, path, mode="r"):
        import os

        if mode[:1] != "r":
            self._still_held()
        try:
            kind = os.stat(path)[0] & 0o170000
        except OSError:
            kind = 0o100000  # not there: open says so, or makes it
        if kind not in (0o100000, 0o040000):  # a plain file, or a folder (EISDIR)
            raise OSError(5, "not a plain file: " + path)
        return open(path, mode)


def open_state(path, give="--state"):
    """The state folder, made if missing and held by this process alone: a second simulator
    on the same folder would interleave its writes with ours and lose acknowledged
    transactions (B17). Returns the hold (kept open for the process's life); StartError says
    what is wrong and what to do. give: what named the folder (BANK_SIM_STATE, say)."""
    import os

    try:
        os.stat(path)
        made = False
    except OSError:
        made = True
    hold = _take(path, "state", LOCK_NAME, give, lambda place, pid: _in_use(place, pid, give))
    if made:  # a mistyped folder is a new game: said, not silent
        import sys

        from simulator.options import printable

        sys.stderr.write("simulator: made the folder %s (it was not there)\n" % printable(path))
    return hold


def hold_flash(path):
    """The --pico window's flash file (made where it is kept, if missing), held by this
    process alone as a state folder is: two windows on one flash would each keep their own
    flash over the other's, and the game of the one that kept first would be gone (B17). The
    file itself may not be there yet: its folder and its name are held. Returns the hold
    (close() lets go); StartError says what is wrong and what to do."""
    folder, _, name = path.rpartition("/")
    return _take(folder or ".", name, name.rsplit(".", 1)[0] + ".lock", "BANK_SIM_STATE",
                 _flash_in_use)


def _take(path, what, lock_name, give, in_use):
    """Hold what (a state folder, or a file in it) for this process: make the folder path,
    bind what's name, write this process's id into lock_name there. give: the option that
    names the folder, for the messages; in_use(place, pid): the refusal."""
    import os

    refused = _mkdirs(path)
    try:
        st = os.stat(path)
    except OSError as e:
        raise StartError("cannot make the state folder %s (%s); give %s a folder that "
                         "can be created" % (path, _why(refused or e), give)) from None
    if not st[0] & 0o040000:
        raise StartError("%s %s is not a folder; give %s a folder" % (give, path, give))
    lock = path.rstrip("/") + "/" + lock_name
    place = path if what == "state" else path.rstrip("/") + "/" + what
    try:
        hold = _hold(what, st)
    except OSError as e:
        raise StartError("cannot hold %s for this simulator alone (%s)" % (
            "the state folder " + path if what == "state" else place, _why(e))) from None
    if hold is None:
        raise StartError(in_use(place, _holder(lock)))
    try:
        # Who holds it, for the next one's refusal to name; never read to decide.
        f = open(lock, "wb")
        try:
            f.write(b"%d\n" % _pid())
        finally:
            f.close()
    except OSError as e:
        hold.close()
        if e.args[:1] == (21,):  # EISDIR: the folder is writable, the lock's name is taken
            raise StartError("%s is a folder where the simulator keeps a file; remove it, or "
                             "give %s another folder" % (lock, give)) from None
        raise StartError(_unwritable(path, e, give)) from None
    return hold


def _ident(folder):
    """A folder's device and inode, whatever path reaches it; None if it is not there."""
    import os

    try:
        st = os.stat(folder)
    except OSError:
        return None
    return st[2], st[1]


def _hold(what, st):
    """Bind a name in Linux's abstract socket namespace: one socket holds a name at a time,
    and the kernel frees it when the process ends, however it ends (kill -9 included), so no
    leftover file or reused process id can block the next simulator. The name is what is held
    ("state", the folder itself, or a file's name in it) and the folder's device and inode, the
    same whatever path reaches it. A socket, not flock: the MicroPython unix port has neither
    fcntl nor ffi, and both interpreters must take the same hold to exclude each other. None
    when another process holds it; OSError when none can be bound."""
    import errno
    import socket
    import sys

    name = b"\0bank-unit-simulator/%s/%x/%x" % (what.encode(), st[2], st[1])
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if sys.implementation.name == "micropython":
            import struct

            # The unix port binds a raw sockaddr: sockaddr_un's family, then its path.
            s.bind(struct.pack("H", socket.AF_UNIX) + name)
        else:
            s.bind(name)
    except OSError as e:
        s.close()
        if e.args and e.args[0] == errno.EADDRINUSE:
            return None
        raise
    return s


def _pid():
    try:
        import os

        return os.getpid()
    except AttributeError:  # the MicroPython unix port: its os has no getpid
        with open("/proc/self/stat") as f:
            return int(f.read().split()[0])


def _holder(lock):
    """The process id the holder wrote in bank.lock, for the message only; '?' if unread."""
    try:
        with open(lock) as f:
            pid = f.read().strip()
    except OSError:
        pid = ""
    return pid if pid.isdigit() else "?"


def _unwritable(path, e, give="--state"):
    return ("cannot write to the state folder %s (%s); free some space, or give %s a "
            "folder this user can write" % (path, _why(e), give))


def _in_use(path, pid, give="--state"):
    return ("the state folder %s is in use by another simulator (process %s); stop it, or "
            "give this one another %s" % (path, pid, give))


def _flash_in_use(path, pid):
    return ("the flash %s is in use by another --pico window (process %s); close it, or "
            "give this one another BANK_SIM_STATE (a folder, or none to keep nothing)"
            % (path, pid))


def set_pot(unit, on):
    """--pot on|off (B22), where the profile is chosen: kept on flash; StartError when the pot
    cannot be turned off (money in it) or the flash cannot keep it."""
    from brain import pot

    err = pot.set_on(unit, on)
    if err == "pot-not-empty":
        from desktop.words import amount

        raise StartError("--pot off: the Free Parking pot holds %s; collect it first (a card "
                         "alone in L, nothing typed, +)" % amount(unit.ledger.bal[pot.POT],
                                                                  unit.ledger.profile))
    if err == "no-game":
        # Err6 (B17): nothing to set it on, and the unit reports the damage; the banker's new
        # game is the way on, so the start goes on and says so.
        import sys

        sys.stderr.write("simulator: --pot %s not set: the store has no good game (Err6); "
                         "start a new game (C held 3 s), then give --pot again\n"
                         % ("on" if on else "off"))
    elif err:
        raise StartError("--pot: the flash could not keep it (%s)" % err)


def _say_new_game(profile):
    """B15: a --profile other than the stored game's started a new game at boot: said, since
    nothing on the unit shows it."""
    import sys

    sys.stderr.write("simulator: --profile %s: a new game; the one before is kept if it had "
                     "transactions (GAMES, bank games)\n" % profile)


class Host:
    """One simulated unit: its store, random source, clock, brain and protocol."""

    def __init__(self, opts):
        startup.check_profile(opts.profile)  # before the state folder is made or held
        self.lock = None
        self.rng = seeded.Seeded(opts.seed) if opts.seed is not None else rng.Entropy()
        # The games it puts away are dated (GAMES' "kept"); a virtual clock's run is the same
        # whenever it is made, so its games are not.
        wall = None
        if opts.virtual_clock:
            self.clock = vclock.VirtualClock()
        else:
            self.clock = fwclock.RealClock(ticks_ms, sleep_ms)
            wall = time.time
        if opts.state:
            self.lock = open_state(opts.state, opts.state_given)
            self.store = FileStore(opts.state, StateFS(opts.state), wall=wall)
        else:
            self.store = FileStore("bank", MemFS(), wall=wall)  # kept in RAM only
        try:
            self.unit = startup.make_unit(self.store, self.rng, self.clock, opts.profile,
                                          opts.maintenance)
        except OSError as e:  # a new store's first checkpoint could not be written
            raise StartError(_unwritable(opts.state, e, opts.state_given)) from None
        # B15: the front ends say it too (a full-screen terminal draws over stderr)
        self.new_game = bool(opts.profile and self.store.writes
                             and self.unit.store_status != "new")
        if self.new_game:
            _say_new_game(opts.profile)
        if opts.pot is not None:
            set_pot(self.unit, opts.pot)
        self.protocol = Protocol(self.unit, self.clock)

