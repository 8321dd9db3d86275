"""What MicroPython runs at reset: the unit's loop, app.py.

Kept this small because it is the one file a Pico compiles from source at boot; `make deploy`
sends everything else compiled. `micropython firmware/main.py` runs it under the unix port.
"""

import gc

gc.collect()
_before = gc.mem_alloc()  # MicroPython's own heap, before the firmware's: MEM reports both

import app  # noqa: E402

# A collection sweeps the heap up to the highest block allocated since the last one (py/gc.c),
# and marks what lives. Left to itself MicroPython collects only when the heap is full: the
# sweep then covers all ~240 KB (10 ms on a Pico) and whatever play allocated late and kept sits
# high. Collecting every 8 KB keeps the sweep short and what lives packed low: 4.3 ms after play
# on the emulated Pico instead of 5.8 (README, "Performance").
gc.threshold(8 * 1024)

if __name__ == "__main__":
    app.main(_before)
