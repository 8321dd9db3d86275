"""Heap used by the Pico firmware after boot, measured under the MicroPython unix port.

    MICROPYPATH=firmware:tests/fake_machine .venv/bin/micropython tools/heap.py [STATE_DIR]

Builds the real board (board_pico.build, on the fake `machine` that records pins), boots the
unit with main.boot (which does not enter the loop), collects garbage and prints
`heap after boot: N bytes`. The unix port is a 64-bit build, so its objects are larger than on
the Pico's 32-bit RP2040: read the number as an upper bound of what the Pico uses.
"""

import gc
import sys

gc.collect()
before = gc.mem_alloc()

import main  # noqa: E402

state = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bank-heap"
main.make_dir(state)
app = main.boot(None, state)
gc.collect()
after = gc.mem_alloc()
print("heap after boot: %d bytes (%d before importing the firmware)" % (after, before))
print("heap free: %d bytes of a %d-byte heap" % (gc.mem_free(), gc.mem_free() + after))
