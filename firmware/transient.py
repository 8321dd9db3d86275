"""Code a unit runs at boot or a few times a game, imported for one call and dropped after.

Loading a game (storeload.py), writing a checkpoint (checkpoint.py) and the whole-game changes
(games.py) are rare; while their modules are not imported their code takes no heap, which a
unit in play needs for itself (README, "Performance"). Importing again costs a few ms on a Pico.
"""

import sys

# MicroPython: every module the call imported is dropped (the JSON writer a checkpoint uses,
# say). CPython keeps what else it imported: its own library may not be reloaded piecemeal.
_ALL = sys.implementation.name == "micropython"

# A host with memory to spare (the simulator) sets this: what it imports stays imported, since
# dropping is a Pico's need and importing again costs a compile where there is no .mpy (LOG
# reads the log back through storeload.py: kept, it is 6 times as many commands a second).
keep = False


def call(name, fn, *args):
    """`name.fn(*args)`; the module stays imported during the call, so code it calls that
    imports it again finds it."""
    if keep:
        __import__(name)
        return getattr(sys.modules[name], fn)(*args)
    before = list(sys.modules) if _ALL else None
    try:
        __import__(name)
        return getattr(sys.modules[name], fn)(*args)
    finally:
        drop(name)
        if before is not None:
            for k in list(sys.modules):
                if k not in before:
                    drop(k)


def drop(name):
    """A module out of sys.modules and out of its package, which holds it as an attribute."""
    sys.modules.pop(name, None)
    pkg, _, leaf = name.rpartition(".")
    if pkg in sys.modules:
        try:
            delattr(sys.modules[pkg], leaf)
        except (AttributeError, KeyError):  # KeyError: MicroPython's word for it
            pass
