"""`make web`: the static site of the unit in a browser, into build/web/ (or the folder given).

    python web/build.py [DEST]

The page (web/) with its app manifest and icons (drawn by web/icons.py), the firmware's files
as they are (firmware/, a manifest beside them) and MicroPython's webassembly port, the npm
package and version `make bench` pins (bench/__main__.py: one place for the version), installed
into build/ with npm on first use.
Nothing is fetched from anywhere else when the page runs: the folder can go on any static host.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE_FILES = ("index.html", "style.css", "unit.js", "feed.js", "body.py", "sw.js",
              "manifest.webmanifest")
ICON_SIZES = (192, 512)  # the manifest's icons: what browsers ask of an app to install it
PORT_FILES = ("micropython.mjs", "micropython.wasm")


class BuildError(Exception):
    pass


def wasm_package():
    """The port's package folder, installed with npm at the pinned version if missing."""
    sys.path.insert(0, REPO)
    from bench.__main__ import WASM_DIR, WASM_PACKAGE, WASM_VERSION

    pkg = os.path.join(WASM_DIR, "node_modules", *WASM_PACKAGE.split("/"))
    if _installed_version(pkg) != WASM_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is needed once, to install %s@%s" % (WASM_PACKAGE,
                                                                       WASM_VERSION))
        os.makedirs(WASM_DIR, exist_ok=True)
        got = subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix",
                              WASM_DIR, "%s@%s" % (WASM_PACKAGE, WASM_VERSION)],
                             capture_output=True, text=True, timeout=300)
        if got.returncode != 0 or _installed_version(pkg) != WASM_VERSION:
            raise BuildError("npm could not install %s@%s: %s" % (
                WASM_PACKAGE, WASM_VERSION, got.stderr.strip()[-300:]))
    return pkg


def _installed_version(pkg):
    try:
        with open(os.path.join(pkg, "package.json")) as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def firmware_files():
    """The firmware's modules, relative to firmware/, sorted: what firmware/manifest.py lists (a
    Pico's) and desktop/, which the manifest never holds (the page runs the simulated board)."""
    sys.path.insert(0, REPO)
    from host_tools import manifest

    root = os.path.join(REPO, "firmware")
    out = [rel for rel, _ in manifest.files(os.path.join(root, "manifest.py"))]
    desktop = os.path.join(root, "desktop")
    for d, dirs, files in os.walk(desktop):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in files:
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/"))
    return sorted(out)


def build(dest=None):
    dest = dest or os.path.join(REPO, "build", "web")
    pkg = wasm_package()
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(os.path.join(dest, "firmware"))
    for f in PAGE_FILES:
        shutil.copy(os.path.join(REPO, "web", f), os.path.join(dest, f))
    os.makedirs(os.path.join(dest, "icons"))
    sys.path.insert(0, os.path.join(REPO, "web"))
    import icons

    for size in ICON_SIZES:
        with open(os.path.join(dest, "icons", "icon-%d.png" % size), "wb") as out:
            out.write(icons.png(size))
    for f in PORT_FILES:
        shutil.copy(os.path.join(pkg, f), os.path.join(dest, f))
    files = firmware_files()
    for f in files:
        target = os.path.join(dest, "firmware", f)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(os.path.join(REPO, "firmware", f), target)
    with open(os.path.join(dest, "firmware", "files.json"), "w") as out:
        json.dump(files, out)
    with open(os.path.join(dest, "words.json"), "w") as out:
        json.dump(page_words(), out, sort_keys=True)
    _stamp(dest, files)
    return dest


def page_words():
    """{lang: {sentence id: text}}: the page's own sentences (page.*), which it says before its
    unit runs (a refused URL option, another tab, the loading bar): firmware/desktop/words.py's,
    the one table the unit gives it once started too."""
    sys.path.insert(0, os.path.join(REPO, "firmware"))
    try:
        from desktop import words
    finally:
        sys.path.pop(0)
    return {lang: words.sentences(("page.",), (), lang) for lang in words.LANGS}


# What the page fetches before the unit starts (unit.js): their sizes let it draw a progress
# bar by bytes on the first load.
STARTUP = ("micropython.mjs", "micropython.wasm", "body.py")


def _stamp(dest, files):
    """load.json (the startup files' sizes) and the offline copy's version: a hash of every file
    of the site, written into sw.js, so a rebuilt site is a new service worker that keeps its own
    complete copy, and one load never mixes files of two builds."""
    sizes = {f: os.path.getsize(os.path.join(dest, f)) for f in STARTUP}
    for f in files:
        sizes["firmware/" + f] = os.path.getsize(os.path.join(dest, "firmware", f))
    with open(os.path.join(dest, "load.json"), "w") as out:
        json.dump({"bytes": sizes}, out, sort_keys=True)
    digest = hashlib.sha256()
    for d, dirs, names in sorted(os.walk(dest)):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(d, name)
            if os.path.relpath(path, dest) == "sw.js":
                continue
            digest.update(os.path.relpath(path, dest).encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read())
    sw = os.path.join(dest, "sw.js")
    with open(sw) as f:
        text = f.read()
    if 'const VERSION = "dev";' not in text:
        raise BuildError("web/sw.js has no VERSION line to stamp")
    with open(sw, "w") as f:
        f.write(text.replace('const VERSION = "dev";',
                             'const VERSION = "%s";' % digest.hexdigest()[:16]))


def main(argv):
    try:
        dest = build(argv[0] if argv else None)
    except BuildError as e:
        sys.stderr.write("make web: %s\n" % e)
        return 1
    print("built %s" % os.path.relpath(dest, os.getcwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
