"""Whole-game changes to the ledger: a new game (B11), another edition (B15), the game before
brought back, a balance put straight by the banker; and the volume (B12), a setting the store
keeps. The unit's side of each (the session, the display, the tones) is brain/unit.py's, but
for the volume's key and maintenance's hold, the unit's own code kept here with the rare.

They happen a few times a game: the unit imports this module where one is first made, and
keeps it. Each change is durable before it is made (B17): a store that fails leaves the game
as it was and gives "store-failed".
"""

from brain import profiles
from brain.ledger import CARDS, POT


KEEP_GAMES = 3  # B11: at least the last three games that had transactions


def start(ledger, profile):
    """Every account at the profile's start (seq numbers go on); the store is told by the
    caller, with an empty log."""
    if profile:
        ledger.profile = profiles.get(profile)
    ledger.bal = [0] + [ledger.profile.start] * CARDS + [0]  # a new list: reset() may need
    ledger.start = ledger.seq  # the old; the pot (B22) empty
    ledger.count = ledger.clock = None  # B19, B20: the game's


def reset(ledger, profile=None):
    """B11/B15: a new game in the ledger, the one before kept as a backup if it had
    transactions."""
    store = ledger.store
    push = _current(ledger)
    old = (ledger.profile, ledger.bal, ledger.ready, ledger.start, store.number, store.count,
           ledger.count, ledger.clock)
    start(ledger, profile)
    ledger.ready = True
    if push is not None:
        store.count = max(store.count, store.number)
    # A game that had no transaction is not kept: the next one takes its number.
    store.number = store.count + 1
    try:
        _save(ledger, push, None, ())
    except OSError:
        (ledger.profile, ledger.bal, ledger.ready, ledger.start, store.number,
         store.count, ledger.count, ledger.clock) = old
        return "store-failed"
    return None


def set_volume(ledger, volume):
    """The volume (B12: 0, 1, 2) kept in the store; None or "store-failed", which keeps it as it
    was."""
    old = ledger.volume
    ledger.volume = volume
    try:
        ledger.store.save_settings(ledger)
    except OSError:
        ledger.volume = old
        return "store-failed"
    return None


def cycle_volume(unit, now):
    """B12: `.` with no card and no entry: 2 -> 1 -> 0 -> 2, shown for a second, kept."""
    vol = (unit.ledger.volume - 1) % 3
    err = set_volume(unit.ledger, vol)
    if err:
        unit._refuse(err)
        return
    unit._show(("012"[vol], False, False), now, unit.message_ms)
    unit._tone("click")


def toggle_maintenance(unit, now):
    """DEAL held for hold_ms: the banker, at the unit, lets host tools change money."""
    if unit.deal_timer is not None:
        unit.deal_timer.stop()  # the deal the press started is not meant
    unit.maintenance = not unit.maintenance
    unit._show(("SErv", False, False) if unit.maintenance else ("PLAY", False, False), now,
               unit.message_ms)
    unit.rev += 1
    unit._tone("click")


def restore_previous(ledger, via="key"):
    """Bring back the newest backup (the game before the last new game); None or the error."""
    r = restore_game(ledger, None, via)
    return r if isinstance(r, str) else None


def restore_game(ledger, gid, via="key"):
    """Bring back the backup gid (the newest with None), its balances and its log; the current
    game becomes a backup if it had transactions. The restored game's log goes on with a
    `restore` record (that came from via), which is returned (or the error: "no-backup",
    "game-damaged": a kept game whose file does not read, "store-failed")."""
    store = ledger.store
    if gid is None:
        if not store.games:
            return "no-backup"
        gid = store.games[0]
    g = store.get_game(gid)
    if g is None:
        return "game-damaged" if gid in store.games else "no-backup"
    prof = profiles.get(g["profile"])
    if prof is None:
        return "no-backup"
    push = _current(ledger)
    old = (ledger.profile, ledger.bal, ledger.seq, ledger.start, store.number, store.count,
           ledger.count, ledger.clock)
    ledger.profile = prof
    ledger.bal = [0] + list(g["balances"]) + [g.get("pot", 0)]  # B22: its pot comes back
    ledger.count = ledger.clock = None  # B19, B20: the game in play's, gone with it
    ledger.seq += 1
    n = g["transactions"]
    # The restore record is one more transaction of the restored game.
    ledger.start = None if n is None else ledger.seq - n - 1
    rec = (ledger.seq, "restore", 0, 0, 0, 0, 0, 0, via)
    if push is not None:
        store.count = max(store.count, store.number)
    store.number = store.numbers.get(gid) or store.count + 1
    try:
        _save(ledger, push, gid, [rec], gid)
    except OSError:
        (ledger.profile, ledger.bal, ledger.seq, ledger.start, store.number,
         store.count, ledger.count, ledger.clock) = old
        return "store-failed"
    ledger.ready = True
    return rec


# -- the kept games (B11) ---------------------------------------------------------------------
# A backup is a dict: id (the seq the game had reached: unique, as seq numbers only grow and
# an empty game is never kept), number (game 1, 2, ...: the store's count of games that had
# transactions when it was started, plus one), kept (when it was put away, None where the unit
# does not know the time), profile, seq, transactions (None: unknown, a game from a store
# written before they were counted), balances (6) and pot (B22: the Free Parking pot's money,
# 0 where none was kept); the store keeps its log with it. The
# store keeps their ids newest first in `store.games` and their numbers in `store.numbers`,
# and the games themselves through store.put_game, get_game and drop_game (FileStore: in
# every checkpoint's header, the game in a file of its own; docs/storage.md).


def _current(ledger):
    """The current game as a backup, or None when it is not worth keeping: no balances, no
    transactions, or kept already (its seq is a backup's: nothing happened since)."""
    n = None if ledger.start is None else ledger.seq - ledger.start
    store = ledger.store
    if not ledger.ready or n == 0 or ledger.seq in store.games:
        return None
    wall = store.wall
    return {"id": ledger.seq, "number": store.number,
            "kept": None if wall is None else _when(wall),
            "profile": ledger.profile.name, "seq": ledger.seq, "transactions": n,
            "balances": ledger.bal[1:CARDS + 1], "pot": ledger.bal[POT]}


def _when(wall):
    """Seconds since 1970 UTC from the clock wall (time.time), or None if it was never set: a
    Pico's clock starts again at 2021-01-01 at every power-up, until a host sets it."""
    import time

    t = int(wall())
    if time.gmtime(0)[0] == 2000:  # a port whose time counts from 2000
        t += 946684800
    return t if t >= 1735689600 else None  # before 2025: this firmware did not exist


def _save(ledger, push, drop, log, bring=None):
    """The whole-game change in ledger made durable, push (or None) kept as the newest backup
    and the backup drop (or None) no longer one; bring (or None): the kept game whose log the
    game in play starts with, log after it. OSError leaves store.games as it was; a game file
    written for nothing is named by no header and goes at the next boot."""
    store = ledger.store
    before = (store.games, store.numbers)
    ids = [i for i in before[0] if i != drop]
    numbers = {}
    for i in ids:
        numbers[i] = before[1].get(i)
    if push is not None:
        store.put_game(push, True)
        ids.insert(0, push["id"])
        numbers[push["id"]] = push["number"]
    base = None
    if bring is not None:
        # Read after the push is written: one game's log in RAM at a time.
        g = store.get_game(bring, True)
        if g is None:
            raise OSError("kept game unreadable")
        base = g["base"]
        log = g["log"] + log
        g = None
    gone = ids[KEEP_GAMES:]
    if drop is not None:
        gone.append(drop)
    store.games = ids[:KEEP_GAMES]
    for i in gone:
        numbers.pop(i, None)
    store.numbers = numbers
    try:
        store.save(ledger, log, base)
    except BaseException:
        store.games, store.numbers = before
        raise
    for i in gone:
        store.drop_game(i)


def set_balance(ledger, card, amount, via="key"):
    """Maintenance (host tools): put a balance straight, logged as the move it took."""
    have = ledger.bal[card]
    if amount >= have:
        return ledger.move("set", 0, card, amount - have, 0, via)
    return ledger.move("set", card, 0, have - amount, 0, via)
