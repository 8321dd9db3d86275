"""`make uf2`: the bank unit's own MicroPython image, the firmware frozen in, one file to flash.

    python tools/uf2.py [--check]

Builds build/uf2/bank-unit-<version>-RPI_PICO.uf2 (MicroPython v1.28.0 for the plain Pico, every
module firmware/manifest.py lists frozen into it as bytecode run from flash) and its SHA-256
beside it (`<name>.sha256`, in `sha256sum`'s format). <version> is `git describe` at build time
(firmware/version.py's VERSION and the commit where the repository has no tag).

MicroPython's sources, the first found:
1. `$MICROPY_DIR`: a v1.28.0 tree with the rp2 port's submodules
   (`make -C ports/rp2 BOARD=RPI_PICO submodules`);
2. the archive in ../shared/micropython/ (its README), checked against its SHA256SUMS and
   unpacked once into the cache, picotool with it;
3. where a network exists, a shallow git checkout of the tag v1.28.0 into the cache, with
   `make submodules` (the SDK then fetches picotool itself).
None: one line says what is missing, and the exit status is 3 (`make test` then skips what
needs the image and says so). A missing toolchain (Debian: gcc-arm-none-eabi,
libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-newlib, cmake, build-essential; `make uf2`
installs them as root on Debian) is also status 3, naming the packages. `--check` only says
whether a build can run here (status 0 or 3) and prints nothing on success.

The cache ($BANK_UNIT_CACHE, else $XDG_CACHE_HOME/bank-unit, else ~/.cache/bank-unit) keeps the
unpacked tree, picotool, mpy-cross and the port's object files, in folders named by the
archive's checksum (or the MICROPY_DIR's path), so a second build only relinks, and a firmware
change recompiles only the frozen code: the firmware is staged there file by file, a file
rewritten only when it changed, so the freezer recompiles only what changed.

What the image runs at reset (docs/hardware.md, "The frozen image"): the port's own _boot.py
mounts the flash's file system (formatting a blank one), then MicroPython runs `main.py`, and
on v1.28 a frozen main.py comes before a file of that name, so the frozen firmware starts with
no file on the flash. The frozen main.py puts the frozen modules first on sys.path, so firmware
files deployed on the flash are never imported: the unit runs one firmware, all of it frozen
(a pins.py there, the maker's pin map, is the one file read from the flash).
The ledger (/bank) is created at first boot and flashing a newer image leaves it as it is.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from host_tools import manifest  # noqa: E402

MP_VERSION = "1.28.0"
BOARD = "RPI_PICO"
PICOTOOL_VERSION = "2.2.0"
SHARED = os.path.join(os.path.dirname(REPO), "shared", "micropython")
ARCHIVE = "micropython-%s-rp2-src.tar.xz" % MP_VERSION
OUT = os.path.join(REPO, "build", "uf2")
GIT_URL = "https://github.com/micropython/micropython.git"
MANIFEST = os.path.join(REPO, "firmware", "manifest.py")
DEBIAN = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "libstdc++-arm-none-eabi-newlib",
          "cmake", "build-essential")
TOOLS = (("arm-none-eabi-gcc", "gcc-arm-none-eabi"), ("cmake", "cmake"), ("make", "make"),
         ("cc", "build-essential"), ("c++", "build-essential"))


class Missing(Exception):
    """What this machine lacks to build the image (one line)."""


def cache_dir():
    got = os.environ.get("BANK_UNIT_CACHE")
    if got:
        return got
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bank-unit")


def check_toolchain():
    lacking = {pkg for tool, pkg in TOOLS if shutil.which(tool) is None}
    if os.path.isfile("/etc/debian_version"):  # where Debian's packages put the C libraries
        for path, pkg in (("/usr/lib/arm-none-eabi/include/stdlib.h", "libnewlib-arm-none-eabi"),
                          ("/usr/lib/arm-none-eabi/include/c++",
                           "libstdc++-arm-none-eabi-newlib")):
            if not os.path.exists(path):
                lacking.add(pkg)
    if lacking:
        raise Missing("make uf2: no ARM toolchain (%s missing); install the Debian packages %s "
                      "(or your system's equivalents)" % (", ".join(sorted(lacking)),
                                                          " ".join(DEBIAN)))


def tree_version(mp):
    """The MicroPython version of a source tree, "1.28.0", from py/mpconfig.h."""
    parts = {}
    try:
        with open(os.path.join(mp, "py", "mpconfig.h")) as f:
            for line in f:
                words = line.split()
                if len(words) == 3 and words[0] == "#define" and \
                        words[1].startswith("MICROPY_VERSION_M"):
                    parts[words[1]] = words[2]
    except OSError:
        return None
    return ".".join(parts.get("MICROPY_VERSION_" + k, "?") for k in ("MAJOR", "MINOR", "MICRO"))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def archive_sum():
    """The checksum SHA256SUMS gives the archive, or None when there is no archive."""
    path = os.path.join(SHARED, ARCHIVE)
    if not os.path.isfile(path):
        return None
    try:
        with open(os.path.join(SHARED, "SHA256SUMS")) as f:
            sums = dict(reversed(line.split()) for line in f if len(line.split()) == 2)
    except OSError:
        raise Missing("make uf2: %s has no SHA256SUMS to check %s against"
                      % (SHARED, ARCHIVE)) from None
    if ARCHIVE not in sums:
        raise Missing("make uf2: %s/SHA256SUMS lists no %s" % (SHARED, ARCHIVE))
    return sums[ARCHIVE]


def env_tree():
    return bool(os.environ.get("MICROPY_DIR"))


def sources():
    """(MicroPython tree, picotool source or None, cache folder for this source)."""
    cache = cache_dir()
    env = os.environ.get("MICROPY_DIR")
    if env:
        mp = os.path.abspath(env)
        if not os.path.isfile(os.path.join(mp, "ports", "rp2", "Makefile")):
            raise Missing("make uf2: MICROPY_DIR=%s holds no MicroPython tree (ports/rp2)" % env)
        if tree_version(mp) != MP_VERSION:
            raise Missing("make uf2: MICROPY_DIR=%s is MicroPython %s; the image is built from "
                          "v%s" % (env, tree_version(mp), MP_VERSION))
        if not os.path.isfile(os.path.join(mp, "lib", "pico-sdk", "CMakeLists.txt")):
            raise Missing("make uf2: MICROPY_DIR=%s has no pico-sdk: run make -C %s/ports/rp2 "
                          "BOARD=RPI_PICO submodules" % (env, env))
        key = "dir-" + hashlib.sha256(mp.encode()).hexdigest()[:12]
        return mp, None, os.path.join(cache, "micropython-%s-%s" % (MP_VERSION, key))
    want = archive_sum()
    if want is None:
        return checkout(cache)
    home = os.path.join(cache, "micropython-%s-%s" % (MP_VERSION, want[:12]))
    src = os.path.join(home, "src")
    if not os.path.isfile(os.path.join(src, ".unpacked")):
        got = sha256(os.path.join(SHARED, ARCHIVE))
        if got != want:
            raise Missing("make uf2: %s is damaged: SHA-256 %s, SHA256SUMS says %s"
                          % (ARCHIVE, got, want))
        print("make uf2: unpacking %s into %s" % (ARCHIVE, src), flush=True)
        if os.path.isdir(src):
            shutil.rmtree(src)
        os.makedirs(src)
        with tarfile.open(os.path.join(SHARED, ARCHIVE)) as tar:
            if hasattr(tarfile, "tar_filter"):  # Python 3.12+ (and 3.11.4+) warn without one
                tar.extractall(src, filter="tar")
            else:
                tar.extractall(src)
        open(os.path.join(src, ".unpacked"), "w").close()
    mp = os.path.join(src, "micropython-%s" % MP_VERSION)
    picotool = os.path.join(src, "picotool-%s" % PICOTOOL_VERSION)
    return mp, picotool if os.path.isdir(picotool) else None, home


def checkout(cache, fetch=True):
    """(tree, None, cache folder) from a git checkout of the pinned tag and the rp2 port's
    submodules, made once into the cache where a network exists (picotool is then fetched by
    the SDK at configure time); Missing, one line, where it cannot be made. fetch False: only
    whether it can be (the tag is asked for, nothing is fetched)."""
    home = os.path.join(cache, "micropython-%s-git" % MP_VERSION)
    mp = os.path.join(home, "micropython")
    done = os.path.join(home, ".checked-out")
    if os.path.isfile(done):
        return mp, None, home
    nothing = ("make uf2: no MicroPython %s source: set MICROPY_DIR to a v%s tree with the rp2 "
               "submodules, or put %s (and its SHA256SUMS) in %s"
               % (MP_VERSION, MP_VERSION, ARCHIVE, os.path.normpath(SHARED)))
    if shutil.which("git") is None:
        raise Missing(nothing + "; git, to fetch it, is not installed")
    if not fetch:
        try:
            subprocess.run(["git", "ls-remote", "--exit-code", GIT_URL,
                            "refs/tags/v" + MP_VERSION], check=True, timeout=30,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError):
            raise Missing(nothing + "; %s cannot be reached" % GIT_URL) from None
        return mp, None, home
    print("make uf2: neither MICROPY_DIR nor %s: fetching v%s from %s" % (ARCHIVE, MP_VERSION,
                                                                        GIT_URL), flush=True)
    if os.path.isdir(mp):
        shutil.rmtree(mp)  # a checkout that stopped half way
    os.makedirs(home, exist_ok=True)
    try:
        run(["git", "clone", "--depth", "1", "--branch", "v" + MP_VERSION, GIT_URL, mp],
            stdout=subprocess.DEVNULL)
        run(["make", "-C", os.path.join(mp, "ports", "rp2"), "BOARD=" + BOARD, "submodules"],
            stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as e:
        raise Missing(nothing + "; fetching it from %s failed (%s)" % (GIT_URL, e)) from None
    open(done, "w").close()
    return mp, None, home


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def jobs():
    return str(max(1, min(os.cpu_count() or 1, 4)))


def build_picotool(mp, picotool_src, home):
    """picotool built once without USB (it only turns the ELF into a UF2 here); its config
    folder for the SDK, or None (then the SDK finds or fetches its own)."""
    if picotool_src is None:
        return None
    prefix = os.path.join(home, "picotool")
    config = os.path.join(prefix, "picotool")
    if os.path.isfile(os.path.join(prefix, ".built")):
        return config
    build = os.path.join(home, "picotool-build")
    run(["cmake", "-S", picotool_src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
         "-DPICO_SDK_PATH=" + os.path.join(mp, "lib", "pico-sdk"), "-DPICOTOOL_NO_LIBUSB=1",
         "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=" + prefix],
        stdout=subprocess.DEVNULL)
    run(["cmake", "--build", build, "-j", jobs()], stdout=subprocess.DEVNULL)
    run(["cmake", "--install", build], stdout=subprocess.DEVNULL)
    open(os.path.join(prefix, ".built"), "w").close()
    return config


def write_if_changed(path, data):
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return True


def stage(folder, version):
    """The manifest's files copied into folder (only what changed is rewritten; what left the
    manifest is removed, or package() would freeze it), version.py written for this build; the
    freezer's manifest path (the port's own modules, then ours)."""
    listed = manifest.files(MANIFEST)
    fw = os.path.join(folder, "firmware")
    keep = {"manifest.py"}
    for dest, local in listed:
        with open(local, "rb") as f:
            data = f.read()
        if dest == "version.py":
            data = manifest.version_module(version, "frozen").encode()
        write_if_changed(os.path.join(fw, dest), data)
        keep.add(dest)
    with open(MANIFEST, "rb") as f:
        write_if_changed(os.path.join(fw, "manifest.py"), f.read())
    for d, _, names in os.walk(fw):
        for name in names:
            rel = os.path.relpath(os.path.join(d, name), fw).replace(os.sep, "/")
            if rel not in keep:
                os.remove(os.path.join(d, name))
    frozen = os.path.join(folder, "frozen.py")
    write_if_changed(frozen, ('# The stock RPI_PICO modules (_boot.py mounts the file system), '
                              'then the firmware.\ninclude("$(PORT_DIR)/boards/manifest.py")\n'
                              'include(%r)\n' % os.path.join(fw, "manifest.py")).encode())
    return frozen


def build(out=OUT):
    check_toolchain()
    mp, picotool_src, home = sources()
    os.makedirs(home, exist_ok=True)
    config = build_picotool(mp, picotool_src, home)
    if not os.path.isfile(os.path.join(mp, "mpy-cross", "build", "mpy-cross")):
        run(["make", "-C", os.path.join(mp, "mpy-cross"), "-j", jobs()],
            stdout=subprocess.DEVNULL)
    version = manifest.describe()
    port_build = os.path.join(home, "build-" + BOARD)
    frozen = stage(os.path.join(home, "stage"), version)
    cmake_args = "-DMICROPY_FROZEN_MANIFEST=" + frozen
    if config:
        cmake_args = "-Dpicotool_DIR=%s %s" % (config, cmake_args)
    run(["make", "-C", os.path.join(mp, "ports", "rp2"), "-j", jobs(), "BOARD=" + BOARD,
         "BUILD=" + port_build, "CMAKE_ARGS=" + cmake_args], stdout=subprocess.DEVNULL)
    os.makedirs(out, exist_ok=True)
    name = "bank-unit-%s-%s.uf2" % (version, BOARD)
    for old in os.listdir(out):
        if old.startswith("bank-unit-") and old not in (name, name + ".sha256"):
            os.remove(os.path.join(out, old))
    target = os.path.join(out, name)
    shutil.copyfile(os.path.join(port_build, "firmware.uf2"), target)
    with open(target + ".sha256", "w") as f:
        f.write("%s  %s\n" % (sha256(target), name))
    return target


def find(out=OUT):
    """The image `make uf2` left in build/uf2/, or None."""
    try:
        names = sorted(n for n in os.listdir(out) if n.startswith("bank-unit-")
                       and n.endswith("-%s.uf2" % BOARD))
    except OSError:
        return None
    return os.path.join(out, names[-1]) if names else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="only say whether the image can be built here (status 3: it cannot)")
    args = ap.parse_args(argv)
    try:
        if args.check:
            check_toolchain()
            if not os.environ.get("MICROPY_DIR") and archive_sum() is None:
                checkout(cache_dir(), fetch=False)  # Missing: the line that says what lacks
            else:
                sources()
            return 0
        target = build()
    except Missing as exc:
        print(exc, file=sys.stderr)
        return 3
    except subprocess.CalledProcessError as exc:
        print("make uf2: %s failed with status %d" % (exc.cmd[0], exc.returncode),
              file=sys.stderr)
        return 1
    print("built %s" % os.path.relpath(target, os.getcwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
