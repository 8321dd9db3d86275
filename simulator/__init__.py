"""The desktop simulator: the unit's own firmware (firmware/) on virtual hardware.

Importing this package puts firmware/ on sys.path, where the Pico has its files: the simulator
runs the very modules the unit runs and re-implements no rule.
"""

import sys


def _firmware_dir():
    here = __file__.replace("\\", "/")
    pkg = here[: here.rfind("/")] if "/" in here else "."
    root = pkg[: pkg.rfind("/")] if "/" in pkg else "."
    return (root or ".") + "/firmware"


FIRMWARE = _firmware_dir()
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
