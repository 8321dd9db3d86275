"""The LittleFS power-cut test (tests/core/test_store_lfs.py) needs vfs.VfsLfs2, which only the
MicroPython unix port has; under CPython that file defines no tests. This runs it there."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _micropython():
    for p in (os.path.join(os.path.dirname(sys.executable), "micropython"),
              os.path.join(ROOT, ".venv", "bin", "micropython")):
        if os.path.exists(p):
            return p
    return None


def test_littlefs_power_cuts_under_the_unix_port():
    mp = _micropython()
    if mp is None:
        pytest.skip("no MicroPython unix port (.venv/bin/micropython: its wheel is Linux x86_64 "
                    "only), so the real-LittleFS power-cut test cannot run here")
    out = subprocess.run([mp, "mprun.py", "core/test_store_lfs.py"], cwd=HERE,
                         capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    with open(os.path.join(HERE, "core", "test_store_lfs.py")) as f:
        tests = f.read().count("    def test_")  # each one ran: none left out unseen
    assert tests >= 4 and "%d passed, 0 failed" % tests in text, text
    assert "lfs boots:" in text, text
