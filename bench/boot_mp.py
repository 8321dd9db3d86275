"""Heap in use after boot and the time to the first display, under the MicroPython unix port.

    MICROPYPATH=<firmware dir>:tests/fake_machine micropython bench/boot_mp.py STATE_DIR

<firmware dir> is `firmware` (sources) or a copy compiled with mpy-cross (main.py kept as .py).
Prints one JSON object: `heap` (bytes in use after main.boot, collected) and `boot_us` (from
`import main` to main.boot returning, which has drawn the first display on the board).

The fake `machine` and `rp2` are imported before the first reading: on a Pico they are built in
(in flash), not on the heap. What the fake records for tests (every pin level written, every
PWM change) is dropped before the second reading; the Pin objects it made stay counted, though
a Pico's pins are static objects in flash.
"""

import gc
import sys
import time

import machine  # noqa: F401  (the fake; built in on a Pico)
import rp2  # noqa: F401

state = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bank-bench-boot"
gc.collect()
before = gc.mem_alloc()
t0 = time.ticks_us()
import main  # noqa: E402

main.make_dir(state)
app = main.boot(None, state)
t1 = time.ticks_us()
machine.clear()
app.board.beeper.pwm.history = []
gc.collect()
after = gc.mem_alloc()
print('{"heap": %d, "boot_us": %d}' % (after - before, time.ticks_diff(t1, t0)))
