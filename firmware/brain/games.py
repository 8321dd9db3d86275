"""Whole-game changes to the ledger: a new game (B11), another edition (B15), the game before
brought back, a balance put straight by the banker; and the volume (B12), a setting the store
keeps. The unit's side of each (the session, the display, the tones) is brain/unit.py's, but
for the volume's key and maintenance's hold, the unit's own code kept here with the rare.

They happen a few times a game: the unit imports this module where one is first made, and
keeps it. Each change is durable before it is made (B17): a store that fails leaves the game
as it was and gives "store-failed".
"""

from brain import profiles
from brain.ledger import CARDS


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
    transactions (a game that had none is not kept: the next one takes its number)."""
    store = ledger.store
    old = (ledger.profile, ledger.bal, ledger.ready, ledger.start, ledger.count, ledger.clock)
    try:
        put = store.put_away(ledger) if _worth_keeping(ledger) else None
        start(ledger, profile)
        ledger.ready = True
        store.new_game(ledger, put, KEEP_GAMES)
    except OSError:
        (ledger.profile, ledger.bal, ledger.ready, ledger.start, ledger.count,
         ledger.clock) = old
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


def restore_game(ledger, gid, via="key"):
    """Bring back the backup gid (the newest with None), its balances and its log; the current
    game becomes a backup if it had transactions. The restored game's log goes on with a
    `restore` record (that came from via), which is returned (or the error: "no-backup",
    "game-damaged": a kept game whose file does not read, "store-failed")."""
    store = ledger.store
    ids = store.kept()
    if gid is None:
        if not ids:
            return "no-backup"
        gid = ids[0]
    g = store.game(gid)
    if g is None:
        return "game-damaged" if gid in ids else "no-backup"
    prof = profiles.get(g["profile"])
    if prof is None:
        return "no-backup"
    old = (ledger.profile, ledger.bal, ledger.seq, ledger.start, ledger.count, ledger.clock)
    try:
        put = store.put_away(ledger) if _worth_keeping(ledger) else None
        ledger.profile = prof
        ledger.bal = [0] + list(g["balances"]) + [g["pot"]]  # B22: its pot comes back
        ledger.count = ledger.clock = None  # B19, B20: the game in play's, gone with it
        ledger.seq += 1
        # The restore record is one more transaction of the restored game.
        ledger.start = ledger.seq - g["transactions"] - 1
        rec = (ledger.seq, "restore", 0, 0, 0, 0, 0, 0, via)
        store.bring_back(ledger, gid, rec, put, KEEP_GAMES)
    except OSError:
        (ledger.profile, ledger.bal, ledger.seq, ledger.start, ledger.count,
         ledger.clock) = old
        return "store-failed"
    ledger.ready = True
    return rec


def _worth_keeping(ledger):
    """Whether the game in play is kept when another replaces it: it has balances and
    transactions, and is not kept already (its seq is a backup's: nothing happened since)."""
    return ledger.ready and ledger.seq != ledger.start and ledger.seq not in ledger.store.kept()


def set_balance(ledger, card, amount, via="key"):
    """Maintenance (host tools): put a balance straight, logged as the move it took."""
    have = ledger.bal[card]
    if amount >= have:
        return ledger.move("set", 0, card, amount - have, 0, via)
    return ledger.move("set", card, 0, have - amount, 0, via)
