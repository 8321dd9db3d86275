"""Switching off and waking (B16): after a minute with no key, card or deal end the unit goes
dark; a key or a card wakes it.

Run once a minute at most, so the unit reaches it through transient.call: on a Pico its code
is on the heap only while it runs.
"""


def off(unit):
    """Dark, with the entry, the tally and the undo dropped; cards stay where they are."""
    unit.power = False
    unit._clear_entry()
    unit.tally = 0
    unit._open = None
    unit._flash = None
    unit._focus = None
    unit._focus_next = None
    unit._c_down = None
    unit._deal_down = None
    unit.deal = "idle"
    unit.maintenance = False
    unit.rev += 1
    unit._emit("power", "off")


def wake(unit, now):
    """On again, as it was left (the key that woke it is the caller's to ignore)."""
    unit.power = True
    unit._last = now
    unit.rev += 1
    unit._emit("power", "on")
