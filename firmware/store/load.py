"""Boot: both slots read (slot.py's reader), the newest good one chosen, the kept games' and
the names' files checked, game files no header names removed (`find`); the game put into the
ledger (`into`). FileStore.load runs them and keeps what they found. Boot-only: app.boot drops
this module once the unit is up.
"""

from brain import profiles
from brain.ledger import POT
from store.slot import (CORRUPT, GAME, MARK_NAME, NAME_FILES, SLOT_NAMES, VALID, first_line,
                        game_head, read)


def find(fs, d, keep):
    """(the newest complete Slot or None, its index, the highest generation, the damage found
    (a list of words), whether the marker is there)."""
    slots = (read(fs, d + SLOT_NAMES[0], keep), read(fs, d + SLOT_NAMES[1], keep))
    try:
        fs.open(d + MARK_NAME, "rb").close()
        marked = True
    except OSError:  # not there: nothing was ever stored here
        marked = False
    best = None
    at = None
    gen = 0
    damage = []
    for i in (0, 1):
        s = slots[i]
        if s.head is not None:
            try:
                s.gen = int(s.head["gen"])
            except (KeyError, TypeError, ValueError):
                s.state = CORRUPT
            gen = max(gen, s.gen)
        if s.state == CORRUPT:
            damage.append("%s unreadable" % SLOT_NAMES[i])
        elif s.bad:
            damage.append("%s has bad lines" % SLOT_NAMES[i])
        if s.state == VALID and (best is None or s.gen > best.gen):
            best = s
            at = i
    for s in slots:
        if s.superseded and (best is None or s.superseded > best.gen):
            damage.append("checkpoint %d is lost" % s.superseded)
    if best is not None and not any(s.state == CORRUPT for s in slots):
        _sweep(fs, d, slots)
    return best, at, gen, damage, marked


def numbers(h):
    """(the kept games' ids, newest first, {id: its number}, the game in play's number, the
    highest number a played game got) from a slot's header; None when they do not read."""
    try:
        ids = [int(i) for i in h["games"]]
        nums = [int(x) for x in h["numbers"]]
        if len(nums) != len(ids):
            raise ValueError("numbers")
        got = {}
        for i in range(len(ids)):
            got[ids[i]] = nums[i]
        return ids, got, int(h["game"]), int(h["count"])
    except (KeyError, TypeError, ValueError):
        return None  # the game itself reads; only the kept ones are lost (damage, B17)


def unreadable(fs, d, ids):
    """The kept games whose files do not read whole, and whether a names file is damaged."""
    bad = [gid for gid in ids if game_head(fs, d + GAME + str(gid)) is None]
    return bad, any(first_line(fs, d + name)[1] for name in NAME_FILES)


def _sweep(fs, d, slots):
    """Game files no readable header names go (a cut between a game file and the checkpoint
    naming it, or before a file no longer named was removed): with neither slot unreadable,
    the headers read are every reference there is."""
    named = set()
    for s in slots:
        if s.state == VALID:
            try:
                named.update(int(i) for i in s.head.get("games", ()))
            except (TypeError, ValueError):
                return  # a header whose games do not read: nothing is known unreferenced
    try:
        names = fs.listdir(d[:-1] if len(d) > 1 else (d or "."))
    except OSError:
        return
    for name in names:
        name = name[name.rfind("/") + 1:]
        if name.startswith(GAME) and name[5:].isdigit() and int(name[5:]) not in named:
            try:
                fs.remove(d + name)
            except OSError:
                pass


def night(s):
    """Game night's (pot on, count, clock) of Slot s (B19-B22), None if it has none; ValueError
    (or the like) if its lines say nothing this firmware writes."""
    if not s.night and "night" not in s.head:
        return None
    from store import night as lines

    return lines.read(s.head.get("night"), s.night)


def into(ledger, s, got):
    """The game of Slot s (and its night) into the ledger; ValueError (or the like) if it does
    not read: a profile unknown, a log that does not add up, a balance below 0."""
    h = s.head
    prof = profiles.get(h["profile"])
    if prof is None:
        raise ValueError("profile")
    if not s.adds_up or min(s.bal) < 0 or len(s.bal) != POT + 1:
        raise ValueError("log does not add up")
    start = int(h["start"])
    ledger.profile = prof
    ledger.bal = list(s.bal)
    ledger.seq = s.seq
    ledger.start = start
    ledger.volume = int(h.get("volume", 2) if s.volume is None else s.volume) % 3
    if got is not None:
        ledger.pot_on, ledger.count, ledger.clock = got

