"""Power: on at reset with the game loaded (B17), off after a minute with no key, card or deal
end, and on again at a key or a card (B16).

Run at boot and once a minute at most, so the unit and its builders reach it through
transient.call: on a Pico its code is on the heap only while it runs.
"""

import transient

SHOW_STORE = ("Err5", False, False)  # B17: the store was damaged; the last good copy is in use


def boot(unit, now):
    """The unit switched on: its game loaded from the store; returns the store's status, 'ok',
    'new' or 'damaged' (storeload.into). Damage is reported until the banker presses a key."""
    status = transient.call("store.load", "into", unit.ledger, unit.profile_wanted)
    unit.store_status = status
    unit.power = True
    unit._last = now
    if status == "damaged":
        unit.error = "store-damaged"  # B17
        if unit.ledger.ready:
            unit._show(SHOW_STORE, now, None)
    unit.rev += 1
    return status


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
