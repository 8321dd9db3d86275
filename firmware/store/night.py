"""Game night's part of the store (B19-B22; docs/storage.md, "Game night"): the journal lines
that keep the pot's setting, the count and the game clock, and the checkpoint header's
`"night"` entry that carries them on. The pot's money is no setting: it is an account of the
ledger's (brain/ledger.py, POT), moved by transactions like a card's.

A game that never plays game night never writes any of it, and its store never loads this
module: slot.py keeps a night line's payload as it reads it, and this module reads it when
there is one (boot) or writes one (a change, a checkpoint, BACKUP).

    p <0|1>                               the pot on or off (B22)
    n - | n <on 0|1> <a1> ... <a6>        the count (B19): each card's additions, - for none
    t - | t <minutes> <ms left> <running 0|1> <End seen 0|1>   the game clock (B20)
"""

from brain.ledger import CARDS

TAGS = ("p", "n", "t")


def _word(v):
    return "-" if v is None else "%d" % v


def payload(ledger, tag):
    """The journal line's payload for tag, as the ledger has it now."""
    if tag == "p":
        return "p %d" % (1 if ledger.pot_on else 0)
    value = ledger.count if tag == "n" else ledger.clock
    if value is None:
        return tag + " -"
    return tag + " " + " ".join(_word(v) for v in value)


def parse(tag, text):
    """A night line's value from its payload after the tag (str); ValueError if it is none."""
    words = text.split(" ")
    if tag == "p":
        if words not in (["0"], ["1"]):
            raise ValueError("pot")
        return words == ["1"]
    if words == ["-"]:
        return None
    if tag == "n":
        return check_count([None if w == "-" else int(w) for w in words])
    return check_clock([int(w) for w in words])


def check_count(c):
    if c is None:
        return None
    c = list(c)
    if len(c) != CARDS + 1 or c[0] not in (0, 1):
        raise ValueError("count")
    for a in c[1:]:
        if a is not None and (not isinstance(a, int) or a < 0):
            raise ValueError("count")
    return c


def check_clock(t):
    if t is None:
        return None
    t = tuple(int(x) for x in t)
    if len(t) != 4 or not 1 <= t[0] <= 999 or not 0 <= t[1] <= t[0] * 60000:
        raise ValueError("clock")
    if t[2] not in (0, 1) or t[3] not in (0, 1):
        raise ValueError("clock")
    return t


def plain(ledger, pot=None):
    """The "night" entry (JSON pairs) of a checkpoint's header, or of BACKUP's with pot (the
    pot's money at its base: a header keeps it beside "base" and "bal", as "pot")."""
    pairs = (("pot_on", ledger.pot_on), ("count", ledger.count),
             ("clock", None if ledger.clock is None else list(ledger.clock)))
    return pairs if pot is None else pairs + (("pot", pot),)


def read(entry, lines):
    """(pot on, count, clock) from a header's "night" entry (a dict, or None) and the night
    lines read after it ({tag: payload bytes}, the last of each); ValueError (or the like) if
    they do not read."""
    entry = entry or {}
    got = [bool(entry.get("pot_on", False)), check_count(entry.get("count")),
           check_clock(entry.get("clock"))]
    for i in range(3):
        b = lines.get(TAGS[i])
        if b is not None:
            got[i] = parse(TAGS[i], b.decode())
    return tuple(got)
