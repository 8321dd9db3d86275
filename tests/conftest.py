"""pytest: the firmware's modules import by bare name, as on the Pico."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "tests", "core"),
          os.path.join(ROOT, "tests", "fake_machine")):
    if p not in sys.path:
        sys.path.insert(0, p)


def pytest_addoption(parser):
    parser.addoption(
        "--port",
        default=None,
        help="also run the host acceptance suite against the real unit on this port "
        "(a device path or pyserial URL)",
    )
