"""The shape of each reply the host tools read (docs/protocol.md, docs/protocol-extensions.md).

A reply that parses but is not of its command's shape (a display that is a string, a balance
that is `true` or `1e400`, a log of numbers, a time past any calendar) is the unit misbehaving:
ProtocolError, one line and exit code 7, checked as the reply comes in so that nothing after it
meets a value it cannot use.

A shape is written with Python's own values:
- `int`: a whole number (never `true`); Whole(lo, hi) one between them; `str`, `bool`
- None: null; a string other than a type: that very string ("bank")
- a tuple: any one of its shapes
- a dict: a JSON object with those keys (Opt(shape): the key may be missing); other keys are
  let through, for a newer unit
- a list of one shape: a JSON list of them; Each(keys, shape): an object of those keys only
  (all of them when `every`; `also`: other keys it may have, and their shapes), each value of
  that shape
"""

import json

from .errors import ProtocolError
from .out import CARDS
from .wire import printable


class Opt:
    def __init__(self, shape):
        self.shape = shape


class Whole:
    def __init__(self, lo=None, hi=None):
        self.lo = lo
        self.hi = hi


class Each:
    def __init__(self, keys, shape, every=False, also=None):
        self.keys = keys
        self.shape = shape
        self.every = every
        self.also = also or {}


def fits(value, shape):
    """True when value has that shape."""
    if shape is None:
        return value is None
    if isinstance(shape, str):
        return value == shape
    if isinstance(shape, tuple):
        return any(fits(value, s) for s in shape)
    if shape is int:
        shape = Whole()
    if isinstance(shape, Whole):
        return (isinstance(value, int) and not isinstance(value, bool)
                and (shape.lo is None or value >= shape.lo)
                and (shape.hi is None or value <= shape.hi))
    if shape in (str, bool):
        return isinstance(value, shape)
    if isinstance(shape, list):
        return isinstance(value, list) and all(fits(v, shape[0]) for v in value)
    if isinstance(shape, Each):
        return (isinstance(value, dict)
                and all(fits(v, shape.shape) if k in shape.keys else
                        k in shape.also and fits(v, shape.also[k]) for k, v in value.items())
                and (set(value) >= set(shape.keys) if shape.every else True))
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return False
        for key, want in shape.items():
            if isinstance(want, Opt):
                if key in value and not fits(value[key], want.shape):
                    return False
            elif key not in value or not fits(value[key], want):
                return False
        return True
    raise TypeError("not a shape: %r" % (shape,))


def check(payload, shape, command):
    """payload itself, or ProtocolError when it is not of the shape `command`'s reply has."""
    if not fits(payload, shape):
        raise ProtocolError(
            "the unit misbehaved: its reply to '%s' is not of that command's shape: '%s'"
            % (command, printable(json.dumps(payload)))
        )
    return payload


CARD = Whole(1, len(CARDS))
AMOUNT = Whole(0)
SIDE = (CARD, "bank", "pot")  # the Free Parking pot (B22)
# Seconds since 1970 up to 9999's last second, as the unit dates a kept game (KEPT_MOST,
# firmware/store/slot.py)
TIME = Whole(0, 253402300799)

MAINT = {"maintenance": bool}
HELLO = {"device": str, "firmware": str, "protocol": int, "profile": str, "store": str}
STATE = {
    "power": str, "display": {"text": str, "k": bool, "M": bool}, "red": str, "green": str,
    "slots": {"L": (CARD, None), "R": (CARD, None)}, "entry": str, "deal": str,
    "sound": Whole(0, 2), "error": (str, None), "tally": Opt(AMOUNT), "maintenance": Opt(bool),
    # game night (B19-B22; docs/protocol-extensions.md, "Game night")
    "pot": Opt((AMOUNT, None)),
    "clock": Opt(({"minutes": Whole(1, 999), "left": AMOUNT, "running": bool, "over": bool},
                  None)),
    "count": Opt(({"on": bool, "cards": Each(CARDS, AMOUNT), "ranking": [CARD]}, None)),
}
BALANCES = Each(CARDS, AMOUNT, every=True)
TXN = {"seq": AMOUNT, "kind": str, "from": SIDE, "to": SIDE, "amount": AMOUNT,
       "balances": Each(CARDS, AMOUNT, also={"pot": AMOUNT}), "undoes": Opt(AMOUNT),
       "profile": Opt(str),
       "via": Opt(str)}
LOG = [TXN]
GAMES = [{"id": AMOUNT, "profile": (str, None), "seq": AMOUNT, "transactions": (AMOUNT, None),
          "balances": (BALANCES, None), "number": Opt((AMOUNT, None)), "kept": Opt((TIME, None)),
          "damaged": Opt(bool)}]
NAMES = Each(CARDS, (str, None), every=True, also={"store": str})  # "damaged" (B17)
MEM = {k: Opt((AMOUNT, None)) for k in ("firmware", "boot", "now", "free", "gc_us")}
