"""Whole-game changes: a new game (B11), another edition (B15), the game before brought back,
a balance put straight by the banker, and the whole game as plain data (BACKUP, MemoryStore);
and the unit's settings: the volume (B12) and maintenance mode.

They happen a few times a game, so callers reach them through transient.call: the code is
imported for the change and dropped after. Each change is durable before it is made (B17): a
store that fails leaves the game as it was and gives "store-failed".
"""

import profiles
from ledger import CARDS


def start(ledger, profile, keep_previous=True):
    """Every account at the profile's start (seq numbers go on); the store is told by the
    caller, with an empty log."""
    if keep_previous and ledger.ready:
        ledger.previous = (ledger.profile.name, ledger.seq, list(ledger.bal))
    if profile:
        ledger.profile = profiles.get(profile)
    ledger.bal = [0] + [ledger.profile.start] * CARDS  # a new list: reset() may need the old


def reset(ledger, profile=None):
    """B11/B15: a new game in the ledger, the one before kept for restore_previous."""
    old = (ledger.profile, ledger.bal, ledger.previous, ledger.ready)
    start(ledger, profile)
    ledger.ready = True
    try:
        ledger.store.save(ledger, ())
    except OSError:
        ledger.profile, ledger.bal, ledger.previous, ledger.ready = old
        return "store-failed"
    return None


def new_game(unit, now, profile=None):
    """The unit's new game (C held, or NEWGAME/SET PROFILE from a host); None or the error."""
    err = reset(unit.ledger, profile)
    if err:
        unit._refuse(err)
        return err
    unit.tally = 0
    unit._clear_entry()
    unit._open = None
    unit._go_used = False
    unit._flash = None
    unit.error = None
    unit.rev += 1
    unit._emit("game", unit.ledger.profile.name)
    unit._tone("new-game")
    return None


def cycle_volume(unit, now):
    """B12: `.` with no card and no entry: 2 -> 1 -> 0 -> 2, shown for a second, persisted."""
    vol = (unit.ledger.volume - 1) % 3
    err = set_volume(unit.ledger, vol)
    if err:
        unit._refuse(err)
        return
    unit._show(("012"[vol], False, False), now, unit.message_ms)
    unit._tone("click")


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


def toggle_maintenance(unit, now):
    """DEAL held for hold_ms: the banker, at the unit, lets host tools change money."""
    unit.deal = "idle"  # the deal the press started is not meant
    unit.maintenance = not unit.maintenance
    unit._show(("SErv", False, False) if unit.maintenance else ("PLAY", False, False), now,
               unit.message_ms)
    unit.rev += 1
    unit._tone("click")


def restore_previous(ledger):
    """Bring back the game before the last new game; the current one becomes the backup."""
    if ledger.previous is None:
        return "no-backup"
    old = (ledger.profile, ledger.bal, ledger.previous, ledger.seq)
    name, _seq, bal = ledger.previous
    cur = (ledger.profile.name, ledger.seq, list(ledger.bal))
    ledger.profile = profiles.get(name)
    ledger.bal = list(bal)
    ledger.previous = cur
    ledger.seq += 1
    try:
        # The restored game's log starts with the restore itself.
        ledger.store.save(ledger, [(ledger.seq, "restore", 0, 0, 0, 0, 0, 0, ledger.via)])
    except OSError:
        ledger.profile, ledger.bal, ledger.previous, ledger.seq = old
        return "store-failed"
    ledger.ready = True
    return None


def set_balance(ledger, card, amount):
    """Maintenance (host tools): put a balance straight, logged as the move it took."""
    have = ledger.bal[card]
    if amount >= have:
        return ledger.move("set", 0, card, amount - have, 0)
    return ledger.move("set", card, 0, have - amount, 0)


def snapshot(ledger, history=None):
    """Everything the store keeps, as plain data (what storeload.restore reads). history:
    (base, records), the ledger's by default (OSError if the store cannot read them back)."""
    if history is None:
        history = ledger.store.history(ledger.seq, None, False)
    if history is None:
        history = (ledger.bal, [])  # nothing stored yet: the game is its balances
    prev = ledger.previous
    if prev is not None:
        prev = {"profile": prev[0], "seq": prev[1], "balances": prev[2][1:]}
    return {"v": 1, "profile": ledger.profile.name, "seq": ledger.seq, "volume": ledger.volume,
            "base": list(history[0][1:]), "log": [list(r) for r in history[1]],
            "previous": prev}
