"""Commands per second over a port: `make bench` calls `commands_per_second(url, n)`.

    python -m host_tools.bench [PORT_URL] [N]

Without a URL it starts `python -m simulator --headless --pty --virtual-clock` on a temporary
state directory and measures over that pty (docs/performance.md: serial commands per second
over a pty). Each command waits for its reply before the next is sent: this is the round-trip
rate a script sees, not a pipelined throughput.
"""

import os
import subprocess
import sys
import tempfile
import time

from . import procs
from .bank import Bank

MIX = ("STATE", "BALANCES", "HELLO", "LOG 1")


def commands_per_second(port_url, n=2000, timeout=5.0):
    """Send n commands (a read-only mix) one at a time over `port_url`; return commands/s."""
    with Bank.open(port_url, timeout=timeout) as bank:
        start = time.perf_counter()
        for i in range(n):
            reply = bank.exchange(MIX[i % len(MIX)])
            if not reply.ok:
                raise RuntimeError("benchmark command refused: %s" % reply.line)
        elapsed = time.perf_counter() - start
    return n / elapsed if elapsed > 0 else float("inf")


def spawn_pty_simulator(state_dir, extra=()):
    """Start a headless simulator on a pty; return (process, pty path)."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator", "--headless", "--pty", "--virtual-clock",
         "--state", state_dir, *extra],
        cwd=repo,
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    first = procs.first_line(proc).split()
    if first[:2] != ["listening", "pty"] or len(first) != 3:
        procs.stop(proc)
        raise RuntimeError("simulator did not announce its pty: %r" % " ".join(first))
    return proc, first[2]


def pty_rate(n=2000):
    """Commands per second over a pty to a simulator of its own, on a temporary state."""
    with tempfile.TemporaryDirectory() as state:
        proc, path = spawn_pty_simulator(state)
        try:
            return commands_per_second(path, n)
        finally:
            procs.stop(proc)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[1]) if len(argv) > 1 else 2000
    if argv:
        rate = commands_per_second(argv[0], n)
        print("%.0f commands/s over %s (%d round trips)" % (rate, argv[0], n))
        return 0
    rate = pty_rate(n)
    print("%.0f commands/s over a pty to the simulator (%d round trips)" % (rate, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
