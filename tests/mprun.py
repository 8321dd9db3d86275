"""Runs the plain test files of tests/core/ without pytest: under the MicroPython unix port
(`make test-mp`) and, for comparison, under CPython. Each test_* function is called with no
arguments; a failure prints its exception. The last line is 'N passed, N failed'.

Usage (from tests/): micropython mprun.py [test_file.py ...]
"""

import gc
import os
import sys

HERE = "."
sys.path.insert(0, "../firmware")
sys.path.insert(0, "fake_machine")
sys.path.insert(0, "core")
sys.path.insert(0, ".")


def _files(argv):
    if argv:
        return argv
    return sorted("core/" + f for f in os.listdir("core") if f.startswith("test_") and
                  f.endswith(".py"))


def main(argv):
    passed = 0
    failed = 0
    for path in _files(argv):
        name = path.split("/")[-1][:-3]
        try:
            mod = __import__(name)
        except Exception as e:  # a file that does not even import fails every test in it
            print("FAIL", path, "import:", repr(e))
            sys.print_exception(e) if hasattr(sys, "print_exception") else None
            failed += 1
            continue
        gc.collect()
        for attr in sorted(dir(mod)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(mod, attr)
            if not callable(fn):
                continue
            gc.collect()
            try:
                fn()
                passed += 1
            except Exception as e:
                failed += 1
                print("FAIL %s::%s %r" % (path, attr, e))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
    print("micropython core tests:")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
