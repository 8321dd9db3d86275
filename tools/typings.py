"""Lay out the MicroPython rp2 stubs as a typeshed for mypy: `python tools/typings.py DIR`.

`make setup` installs micropython-rp2-rpi-pico-stubs (and micropython-stdlib-stubs, which it
requires) into .venv's site-packages, as plain top-level `.pyi` files and a `stdlib/` typeshed.
mypy refuses site-packages on its search path and does not pick up bare top-level stub modules
from it, so `make typecheck` copies the stub files of those two distributions into DIR
(build/typings) and mypy.ini points both `custom_typeshed_dir` and `mypy_path` there. The copy
is made from the installed distributions' file lists, so it needs no network and follows
whatever version requirements.txt pins.
"""

import importlib.metadata
import os
import shutil
import sys

DISTRIBUTIONS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
KEEP = (".pyi", "VERSIONS", "py.typed")


def lay_out(dest):
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    count = 0
    for name in DISTRIBUTIONS:
        dist = importlib.metadata.distribution(name)
        for entry in dist.files or ():
            rel = str(entry)
            if ".dist-info" in rel or not rel.endswith(KEEP):
                continue
            target = os.path.join(dest, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(str(entry.locate()), target)
            count += 1
    return count


def main(argv):
    dest = argv[1] if len(argv) > 1 else os.path.join("build", "typings")
    try:
        count = lay_out(dest)
    except importlib.metadata.PackageNotFoundError as exc:
        sys.exit("typings: stubs not installed (%s): run `make setup`" % exc)
    print("typings: %d stub files in %s" % (count, dest))


if __name__ == "__main__":
    main(sys.argv)
