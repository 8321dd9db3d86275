"""What MicroPython runs at reset: the unit's loop, app.py.

Kept this small because it is the one file a Pico compiles from source at boot; `make deploy`
sends everything else compiled. `micropython firmware/main.py` runs it under the unix port.
"""

import gc

gc.collect()
_before = gc.mem_alloc()  # MicroPython's own heap, before the firmware's: MEM reports both

# The code a unit keeps, loaded a part at a time with a collection after each: reading a module
# leaves garbage behind the code it keeps, and the next part then lands in that garbage's place
# rather than above it. What lives stays packed low, so a collection in play sweeps less (the
# Pico's budget is 5 ms; README, "Performance").
from brain import unit  # noqa: E402, F401

gc.collect()
import store  # noqa: E402, F401

gc.collect()
from board import pico  # noqa: E402, F401

gc.collect()
import app  # noqa: E402

if __name__ == "__main__":
    app.main(_before)
