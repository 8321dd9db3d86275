"""Ways to reach a unit for the host tests: in-process, a simulator on a pty or TCP, a real one.

Every target gives a `Bank`; the acceptance suite does not know which it has, except through
`virtual` (ADVANCE works) and `can_grant_maintenance` (tests that need maintenance mode).
"""

import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from host_tools import procs  # noqa: E402
from host_tools.bank import Bank  # noqa: E402
from harness import cut_lines  # noqa: E402  (tests/core: the tests' helpers)

START_TIMEOUT = 15.0


def simulator_available():
    return os.path.isfile(os.path.join(REPO, "simulator", "__main__.py"))


class Simulator:
    """`python -m simulator --headless` in a subprocess, serving a pty or a TCP port."""

    def __init__(self, mode, state_dir, *extra):
        assert mode in ("pty", "tcp")
        args = [sys.executable, "-m", "simulator", "--headless", "--virtual-clock",
                "--state", str(state_dir), "--seed", "1"]
        args += ["--pty"] if mode == "pty" else ["--tcp", "0"]
        args += list(extra)
        self.proc = subprocess.Popen(
            args, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        line = procs.first_line(self.proc, START_TIMEOUT)
        words = line.split()
        if mode == "pty":
            ok = words[:2] == ["listening", "pty"] and len(words) == 3
            self.url = words[2] if ok else None
        else:
            ok = words[:2] == ["listening", "tcp"] and len(words) == 3
            self.url = "socket://" + words[2] if ok else None
        if not ok:
            self.proc.kill()
            self.proc.wait()
            err = self.proc.stderr.read().decode(errors="replace")[-2000:]
            self.stop()
            raise RuntimeError("simulator did not announce itself: %r; stderr: %s" % (line, err))

    def stop(self):
        procs.stop(self.proc)


class InProcessPort:
    """pyserial's surface over the firmware's Protocol object, in this process."""

    def __init__(self, protocol, line_reader):
        self.protocol = protocol
        self.reader = line_reader
        self.out = bytearray()
        self.timeout = 0.05
        self.is_open = True

    def write(self, data):
        for line in cut_lines(self.reader, data):
            for reply in self.protocol.handle(line):
                self.out += reply.encode() + b"\n"
        return len(data)

    def flush(self):
        pass

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, size=1):
        if not self.out:
            time.sleep(self.timeout)  # a real port would block this long
            return b""
        chunk = bytes(self.out[:size])
        del self.out[:size]
        return chunk

    def reset_input_buffer(self):
        self.out.clear()

    def close(self):
        self.is_open = False


def in_process_bank(maintenance=False, profile=None, timeout=2.0):
    """A Bank on a fresh in-process unit: the simulator's own Host (the firmware's Unit and
    Protocol on a virtual clock), no subprocess, no pty."""
    import protocol
    from simulator import host, options

    argv = ["--headless", "--virtual-clock", "--seed", "1"]
    argv += ["--maintenance"] if maintenance else []
    argv += ["--profile", profile] if profile else []
    sim = host.Host(options.parse(argv))
    port = InProcessPort(sim.protocol, protocol.LineReader())
    bank = Bank(port, timeout=timeout, name="in-process simulator")
    bank.unit = sim.unit
    return bank
