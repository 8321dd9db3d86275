"""Heap the firmware's code takes once a unit is up, under any MicroPython: 64-bit (the unix
port) or 32-bit (the webassembly port, through bench/wasm32.mjs), as a Pico is.

    cd <firmware compiled as make deploy does> && micropython bench/code_mp.py

Imports the modules a booted unit keeps (app, the core startup.py builds it from, the board
and its drivers, with the HT1621 display that pins.py wires by default; keep the list in step with
board_pico.build) and prints `{"code": bytes}`: the heap they take, collected. What a Pico
has built in (machine, time, os, json, ...) is imported first and not counted.
"""

import gc
import sys

sys.path[0] = ""  # the firmware's directory, as a Pico's root (see boot_mp.py)

import machine  # noqa: F401, E402  (the fake; built in on a Pico)
import rp2  # noqa: F401, E402

for name in ("binascii", "collections", "json", "micropython", "os", "select", "struct",
             "time"):
    __import__(name)

gc.collect()
before = gc.mem_alloc()
import app  # noqa: E402, F401
from board import pico as board  # noqa: E402, F401
import drivers.beeper  # noqa: E402, F401
import drivers.ht1621  # noqa: E402, F401
import drivers.keypad  # noqa: E402, F401
import drivers.leds  # noqa: E402, F401
import drivers.slots  # noqa: E402, F401
import store  # noqa: E402, F401
from brain import unit  # noqa: E402, F401

gc.collect()
print('{"code": %d}' % (gc.mem_alloc() - before))
