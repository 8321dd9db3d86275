"""Heap in use after boot and the time to the first display, under the MicroPython unix port.

    cd <firmware dir> && MICROPYPATH=tests/fake_machine micropython bench/boot_mp.py STATE [play]

<firmware dir> is `firmware` (sources) or a copy compiled as `make deploy` compiles it. Prints
one JSON object: `heap` (bytes in use after app.boot, collected), `boot_us` (from `import app`
to app.boot returning, which has drawn the first display on the board), `talking` (the heap in
use once a host has sent HELLO: the protocol is loaded then) and `pins` (the heap of the fake
Pin objects, left out of all). With `play`, 300 transactions are made after boot (so the store
in STATE then holds a game whose checkpoint carries the 200 records LOG reaches) and `heap` is
read after them.

The fake `machine` and `rp2` are imported before the first reading: on a Pico they are built in
(in flash), not on the heap. What the fake records for tests (every pin level written, every
PWM change) is dropped before the second reading, and the fake's Pin objects are not counted:
a Pico's `machine.Pin(n)` returns a static object in flash and allocates nothing.
"""

import gc
import sys
import time

# Modules are found from the current directory, as on a Pico ("" first on sys.path), not from
# this script's directory, which the unix port puts first.
sys.path[0] = ""

import machine  # noqa: F401, E402  (the fake; built in on a Pico)
import rp2  # noqa: F401, E402

state = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bank-bench-boot"
play = len(sys.argv) > 2 and sys.argv[2] == "play"
gc.collect()
before = gc.mem_alloc()
t0 = time.ticks_us()
import app  # noqa: E402

running = app.boot(None, state)
t1 = time.ticks_us()
if play:
    u = running.unit
    now = running.clock.now()
    u.card_in("L", 1, now)
    for _ in range(300):
        for k in "20K+":
            u.key_down(k, now)
            u.key_up(k, now)
        running.render(now)
machine.clear()
running.board.beeper.pwm.history = []
gc.collect()
after = gc.mem_alloc()

# What one fake Pin costs, times the pins the board made.
n = len(machine.pins)
extra = []
gc.collect()
p0 = gc.mem_alloc()
for i in range(20):
    extra.append(machine.Pin(100 + i, machine.Pin.IN))
gc.collect()
pins = (gc.mem_alloc() - p0) * n // 20
del extra
for i in range(20):
    del machine.pins[100 + i]

running._connect()
reply = running.protocol.handle(b"HELLO")
machine.clear()
gc.collect()
talking = gc.mem_alloc()
print('{"heap": %d, "boot_us": %d, "talking": %d, "pins": %d}' % (
    after - before - pins, time.ticks_diff(t1, t0), talking - before - pins, pins))
