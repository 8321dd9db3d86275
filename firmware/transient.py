"""Code a unit runs at boot or a few times a game, imported for one call and dropped after.

Loading a game (storeload.py), writing a checkpoint (checkpoint.py) and the whole-game changes
(games.py) are rare; while their modules are not imported their code takes no heap, which a
unit in play needs for itself (README, "Performance"). Importing again costs a few ms on a Pico.
"""

import sys


def call(name, fn, *args):
    """`name.fn(*args)`; the module stays imported during the call, so code it calls that
    imports it again finds it."""
    mod = __import__(name)
    try:
        return getattr(mod, fn)(*args)
    finally:
        sys.modules.pop(name, None)
