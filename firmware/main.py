"""What MicroPython runs at reset: the unit's loop, app.py.

Kept this small because it is the one file a Pico compiles from source at boot; `make deploy`
sends everything else compiled. `micropython firmware/main.py` runs it under the unix port.

In the unit's own image (`make uf2`) this file is frozen, and MicroPython v1.28 runs a frozen
main.py rather than a main.py on the flash. The frozen modules then come first on sys.path
(MicroPython looks in '' before '.frozen'), so firmware files deployed on that flash are never
imported: the unit never runs half one firmware, half another. One file is the maker's, not the
firmware's: a pins.py on the flash (the pin map edited for a build, docs/hardware.md) is read
over the frozen one (board/build.py, pin_map). On a stock image '.frozen' holds only
MicroPython's own modules, none named as ours: the order changes nothing.
"""

import gc
import sys

try:
    from micropython import kbd_intr

    # From the first line on, 0x03 is data: a host's Ctrl-C as the unit powers up (mpremote
    # sends one as it opens the port) would leave it dark at the prompt. The loop decides what
    # a 0x03 is (app.py, App._interrupt: mpremote gets in only in maintenance).
    kbd_intr(-1)
    del kbd_intr
except ImportError:  # CPython: nothing turns 0x03 into KeyboardInterrupt
    pass

gc.collect()
_before = gc.mem_alloc()  # MicroPython's own heap, before the firmware's: MEM reports both

if ".frozen" in sys.path:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")

import app  # noqa: E402

if __name__ == "__main__":
    app.main(_before)
