"""`bank deploy`: put firmware/ on a Pico, by running `make deploy`'s deployer.

A front for `tools/deploy.py` (what `make deploy` runs), which does the work when it is there,
so there is one way to deploy; options are passed through. With `--firmware DIR` (another tree)
or without tools/deploy.py, a plain mpremote chain copies DIR onto the board as it is laid
out: the top-level files and folders DIR/manifest.py names (firmware/manifest.py: what goes on
a Pico), or without a manifest all but `desktop/` (docs/design.md, "The tree"):
`mpremote connect PORT fs cp <top-level files> : + fs cp -r <each sub-directory> : + reset`.
`$MPREMOTE` overrides the mpremote command (tests use it).
"""

import os
import shlex
import subprocess
import sys

from .errors import NoUnitError, UsageError
from .link import resolve_port
from .procs import mpremote_command

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_FIRMWARE = os.path.join(REPO, "firmware")
TOOL = os.path.join(REPO, "tools", "deploy.py")
SKIP = ("__pycache__", "desktop")  # desktop-only code (tools/deploy.py)


IN_PLAY = ("the unit on %s is in play, and in play no host may stop it: hold DEAL 3 s on its "
           "keypad (the glass says SErv), then deploy again; a unit whose keypad cannot be "
           "reached is flashed with BOOTSEL")


def refusal(port):
    """The one line to say when the bank unit on `port` will not let mpremote in (it is not in
    maintenance, docs/protocol.md), or None: a unit in maintenance, or anything else on the
    port (a stock MicroPython, nothing at all), which mpremote then meets as it is."""
    from .bank import Bank
    from .errors import BankError

    try:
        with Bank.open(port, timeout=1.0) as bank:
            if bank.info and bank.info.get("device") == "bank-unit" and not bank.maintenance():
                return IN_PLAY % port
    except (BankError, OSError, ValueError, AttributeError):
        pass
    return None


def firmware_parts(firmware):
    """(files, dirs) at the top of `firmware`, sorted, without caches and compiled files; only
    what its manifest lists where it has one."""
    listed = None
    if os.path.isfile(os.path.join(firmware, "manifest.py")):
        from .manifest import files as manifest_files

        listed = {rel.split("/")[0] for rel, _ in
                  manifest_files(os.path.join(firmware, "manifest.py"))}
    files, dirs = [], []
    for name in sorted(os.listdir(firmware)):
        path = os.path.join(firmware, name)
        if name in SKIP or name.startswith(".") or name.endswith(".pyc"):
            continue
        if listed is not None and name not in listed:
            continue
        (dirs if os.path.isdir(path) else files).append(path)
    return files, dirs


def plan(port, firmware, reset=True, dry_run=False, mpy=False):
    """(command line, runs_itself_in_dry_run) for this deploy."""
    if os.path.isfile(TOOL) and firmware == REPO_FIRMWARE:
        cmd = [sys.executable, TOOL, "--port", port]
        cmd += ["--no-reset"] if not reset else []
        cmd += ["--dry-run"] if dry_run else []
        cmd += ["--mpy"] if mpy else []
        return cmd, True
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
    return cmd, False


def main(args):
    firmware = os.path.abspath(args.firmware or REPO_FIRMWARE)
    if not os.path.isdir(firmware):
        raise UsageError("no firmware directory at %s" % firmware)
    port = resolve_port(args.port)
    cmd, tool = plan(port, firmware, reset=not args.no_reset, dry_run=args.dry_run,
                     mpy=args.mpy)
    if args.dry_run and not tool:
        print(" ".join(shlex.quote(c) for c in cmd), flush=True)
        return 0
    if not tool:  # tools/deploy.py asks the unit itself
        why = refusal(port)
        if why:
            sys.stderr.write("bank: deploy: %s\n" % why)
            return 1
    try:
        result = subprocess.run(cmd)
    except OSError as exc:
        raise NoUnitError("cannot run %s: %s" % (cmd[0], exc.strerror)) from None
    if result.returncode != 0:
        sys.stderr.write("bank: deploy failed: %s exited with %d\n"
                         % (os.path.basename(cmd[1] if tool else cmd[0]), result.returncode))
        return 1
    if not args.dry_run:
        print("deployed %s to %s" % (firmware, port), flush=True)
    return 0
