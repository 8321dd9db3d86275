"""Idle CPU of the simulator (budget: under 2 %): no busy loops, it sleeps until a deadline.

`measure()` starts each body untouched and reads its CPU time (utime + stime from
/proc/<pid>/stat) over a few seconds of wall time, after a short settling period:
  - headless: `python -m simulator --headless --tcp 0`;
  - gui: `python -m simulator --tcp 0` under a private Xvfb (None where Xvfb or Tk is missing);
  - terminal: `python -m simulator --terminal` on a pseudo-terminal.
Returns {name: percent of one core, or None when it could not be measured}.
"""

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from host_tools import procs  # noqa: E402

SETTLE_S = 1.0


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (Linux /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    fields = stat[stat.rfind(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def _percent(pid, seconds):
    c0, t0 = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    c1, t1 = cpu_seconds(pid), time.monotonic()
    return 100.0 * (c1 - c0) / (t1 - t0)


def _env(state):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO
    env["BANK_SIM_SOUND"] = "off"
    env["BANK_SIM_STATE"] = state
    return env


def headless(seconds=3.0):
    with tempfile.TemporaryDirectory() as state:
        proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "--headless", "--tcp", "0", "--state", state],
            cwd=REPO, env=_env(state), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            if not procs.first_line(proc).startswith("listening tcp"):
                return None
            time.sleep(SETTLE_S)
            return _percent(proc.pid, seconds)
        finally:
            procs.stop(proc)


def gui(seconds=3.0):
    if shutil.which("Xvfb") is None:
        return None
    from tools.xvfb import Xvfb

    try:
        x = Xvfb()
    except (OSError, RuntimeError):
        return None
    try:
        with tempfile.TemporaryDirectory() as state:
            env = _env(state)
            env["DISPLAY"] = x.display
            proc = subprocess.Popen([sys.executable, "-m", "simulator", "--tcp", "0"], cwd=REPO,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            try:
                if not procs.first_line(proc).startswith("listening tcp"):
                    return None  # no Tk, or the window could not open
                time.sleep(SETTLE_S)
                return _percent(proc.pid, seconds)
            finally:
                procs.stop(proc)
    finally:
        x.stop()


def terminal(seconds=3.0):
    master, slave = os.openpty()
    with tempfile.TemporaryDirectory() as state:
        env = _env(state)
        env.pop("DISPLAY", None)
        env["TERM"] = "xterm"
        proc = subprocess.Popen([sys.executable, "-m", "simulator", "--terminal"], cwd=REPO,
                                env=env, stdin=slave, stdout=slave, stderr=slave,
                                start_new_session=True)
        os.close(slave)
        try:
            out = b""
            end = time.monotonic() + 15
            while b"MONOPOLY BANK" not in out and time.monotonic() < end:
                r, _, _ = select.select([master], [], [], 0.1)
                if r:
                    out += os.read(master, 65536)
            if b"MONOPOLY BANK" not in out:
                return None
            time.sleep(SETTLE_S)
            return _percent(proc.pid, seconds)
        finally:
            procs.stop(proc)
            os.close(master)


def measure(seconds=3.0):
    return {"headless": headless(seconds), "gui": gui(seconds), "terminal": terminal(seconds)}


if __name__ == "__main__":
    for name, pct in sorted(measure().items()):
        print("%-9s %s" % (name, "not measured" if pct is None else "%.2f %%" % pct))
