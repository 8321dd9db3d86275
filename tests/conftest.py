"""pytest: the firmware's modules import by bare name, as on the Pico."""

import os
import signal
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "tests", "core"),
          os.path.join(ROOT, "tests", "fake_machine")):
    if p not in sys.path:
        sys.path.insert(0, p)

# A suite started in the background by a non-interactive shell (`make test &`, nohup) inherits
# SIGINT ignored, and so would every program a test starts: the tests that press Ctrl-C on the
# host tools and the simulator must find them as a terminal starts them. Caught here, so a child
# gets the default back at exec.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--port",
        default=None,
        help="also run the host acceptance suite against the real unit on this port "
        "(a device path or pyserial URL)",
    )
