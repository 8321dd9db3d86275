"""Helper processes (a simulator, an X server, mpremote): read what one announces, stop one
for good, find mpremote.

Scripts, `make bench` and the tests all start simulators and must never hang on one that does
not answer or does not stop.
"""

import os
import select
import shlex
import shutil
import subprocess
import sys
import time


def first_line(proc, timeout=15.0):
    """The first line proc writes to its stdout (a binary pipe), or what came before timeout:
    a process that never announces itself cannot hang the caller the way readline() would."""
    fd = proc.stdout.fileno()
    buf = b""
    end = time.monotonic() + timeout
    while b"\n" not in buf and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
    return buf.split(b"\n")[0].decode(errors="replace")


def stop(proc, timeout=5.0):
    """SIGTERM, then SIGKILL if it is still there after timeout; its pipes closed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for f in (proc.stdin, proc.stdout, proc.stderr):
        if f:
            f.close()


def mpremote_command():
    """The mpremote command line: $MPREMOTE (the tests' fake), the venv's, the PATH's, or
    this Python's module; the one way `make deploy` and `bank deploy` find it."""
    env = os.environ.get("MPREMOTE")
    if env:
        return shlex.split(env)
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if os.path.exists(here):
        return [here]
    return [shutil.which("mpremote") or sys.executable, *([] if shutil.which("mpremote")
                                                          else ["-m", "mpremote"])]
