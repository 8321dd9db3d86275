"""An emulated RP2040 running a .uf2 with the unit's parts at its pins: the window's --pico mode
(session.py), and the pin suite's rig (tests/pico/rig.py) on the same machine.py and parts.py."""
