"""What MicroPython runs at reset: the unit's loop, app.py.

Kept this small because it is the one file a Pico compiles from source at boot; `make deploy`
sends everything else compiled. `micropython firmware/main.py` runs it under the unix port.
"""

import gc

gc.collect()
_before = gc.mem_alloc()  # MicroPython's own heap, before the firmware's: MEM reports both

import app  # noqa: E402

if __name__ == "__main__":
    app.main(_before)
