"""`bank deploy`: copy firmware/ onto a Pico, flat, with mpremote (design.md: "Everything under
firmware/ is copied flat onto the Pico's file system").

If the repository has tools/deploy.py (the project's own deploy), that is run instead, so there
is one way to deploy. Otherwise: `mpremote connect PORT fs cp <top-level files> : + fs cp -r
<each sub-directory> : + reset`. `$MPREMOTE` overrides the mpremote command (tests use it).
"""

import os
import shlex
import shutil
import subprocess
import sys

from .errors import NoUnitError
from .link import resolve_port

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = ("__pycache__",)


def mpremote_command():
    env = os.environ.get("MPREMOTE")
    if env:
        return shlex.split(env)
    found = shutil.which("mpremote")
    if found:
        return [found]
    return [sys.executable, "-m", "mpremote"]


def firmware_parts(firmware):
    """(files, dirs) at the top of `firmware`, sorted, without caches and compiled files."""
    files, dirs = [], []
    for name in sorted(os.listdir(firmware)):
        path = os.path.join(firmware, name)
        if name in SKIP or name.startswith(".") or name.endswith(".pyc"):
            continue
        (dirs if os.path.isdir(path) else files).append(path)
    return files, dirs


def plan(port, firmware, reset=True):
    """The command lines deploy runs."""
    tool = os.path.join(REPO, "tools", "deploy.py")
    if os.path.isfile(tool) and firmware == os.path.join(REPO, "firmware"):
        return [[sys.executable, tool, "--port", port]]
    files, dirs = firmware_parts(firmware)
    if not files and not dirs:
        raise NoUnitError("nothing to deploy: %s is empty" % firmware)
    cmd = mpremote_command() + ["connect", port]
    chain = []
    if files:
        chain.append(["fs", "cp"] + files + [":"])
    for d in dirs:
        chain.append(["fs", "cp", "-r", d, ":"])
    if reset:
        chain.append(["reset"])
    for i, part in enumerate(chain):
        if i:
            cmd.append("+")
        cmd.extend(part)
    return [cmd]


def main(args):
    from .cli import UsageError

    firmware = os.path.abspath(args.firmware or os.path.join(REPO, "firmware"))
    if not os.path.isdir(firmware):
        raise UsageError("no firmware directory at %s" % firmware)
    port = resolve_port(args.port)
    if "://" in port:
        raise UsageError("deploy needs a real board (a device path), not %s" % port)
    for cmd in plan(port, firmware, reset=not args.no_reset):
        print(" ".join(shlex.quote(c) for c in cmd), flush=True)
        if args.dry_run:
            continue
        try:
            result = subprocess.run(cmd)
        except OSError as exc:
            raise NoUnitError("cannot run %s: %s" % (cmd[0], exc.strerror)) from None
        if result.returncode != 0:
            sys.stderr.write(
                "bank: deploy failed: %s exited with %d\n" % (os.path.basename(cmd[0]),
                                                                  result.returncode)
            )
            return 1
    if not args.dry_run:
        print("deployed %s to %s" % (firmware, port))
    return 0
