"""Boot: the board built from the pin map, the store, the core and the loop put together, the
game loaded and the first display drawn (README, "Flash a Pico").

Boot-only code: `app.boot` imports this module for the boot and drops it after, with the board
builder (board/build.py) and the pin map: `forget_boot`, so a unit in play keeps none of it.
"""

import os
import sys
import time

from board.rng import Entropy
from brain import profiles
from brain.clock import RealClock
from store import FileStore
from brain.unit import Unit


def make_dir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # it exists (or cannot be made, and opening the store will say so)


def state_dir():
    """Where the store lives: the pin map's STATE_DIR on a Pico; $BANK_STATE or ./bank-state
    under the unix port."""
    if sys.platform == "rp2":
        import pins

        return pins.STATE_DIR
    getenv = getattr(os, "getenv", None)
    found = getenv("BANK_STATE") if getenv is not None else None
    return found or "bank-state"


def build(board=None, directory=None):
    """(board, unit, clock), booted: the board (from pins.py when none is given), the store in
    directory (state_dir() by default), the game loaded; app.boot puts them in the loop."""
    if board is None:
        from board import build as board_build

        board = board_build.build()
    directory = directory or state_dir()
    make_dir(directory)
    # The games it puts away are dated once a host has set the clock (FileStore.put_away: a
    # Pico's starts at 2021 at every power-up, and such a date is not kept).
    store = FileStore(directory, wall=time.time)
    clock = RealClock(time.ticks_ms, time.sleep_ms)
    # RFID slots: the banker numbers cards in maintenance (Unit.write_card)
    writer = board.write_card if getattr(board, "writes_cards", False) else None
    return board, make_unit(store, Entropy(), clock, card_writer=writer), clock


def check_profile(name):
    """ValueError when name (None: the store's, or the default) is no edition's profile."""
    if name is not None and profiles.get(name) is None:
        raise ValueError("unknown profile %s (%s)" % (name, ", ".join(profiles.NAMES)))


def make_unit(store, rng, clock, profile=None, maintenance=False, card_writer=None):
    """The unit on its store and random source, booted at clock's now (boot_unit), in
    maintenance mode when granted: put together here for every body, the Pico's (build), the
    simulator's (simulator/host.py) and the page's (web/body.py). profile: a new game in it
    when the store's game is another (B15); ValueError when there is no such profile. OSError
    when a new store's first checkpoint cannot be written. card_writer: the RFID build's tag
    writer, writer(slot, n), which Unit.write_card uses."""
    check_profile(profile)
    unit = Unit(store, rng, profile, maintenance, card_writer)
    boot_unit(unit, clock.now())
    return unit


def boot_unit(unit, now):
    """The unit switched on with its game: read back from its store (Ledger.load), a new one
    started in the profile the unit was given when the store is new; the store's status, 'ok',
    'new' or 'damaged' (B17). Every body boots its unit here."""
    return unit.boot(now, unit.ledger.load(unit.profile_wanted))


# What boot ran, forgotten once the unit is up: only boot runs the builders, the pin map they
# read and this module.
BOOT_ONLY = ("board.build", "pins", "startup")


def forget_boot():
    for name in BOOT_ONLY:
        forget(name)


def forget(name):
    """A module imported for the boot out of sys.modules and out of its package, which holds
    it as an attribute: nothing refers to it any more, and the collector takes it."""
    sys.modules.pop(name, None)
    pkg, _, leaf = name.rpartition(".")
    if pkg in sys.modules:
        try:
            delattr(sys.modules[pkg], leaf)
        except (AttributeError, KeyError):  # KeyError: MicroPython's word for it
            pass
