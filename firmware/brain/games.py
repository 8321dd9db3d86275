"""The rare changes: the game read back at boot, a new game (B11, B15), a kept game brought
back, a balance set, the volume (B12), maintenance. What is kept is durable first (B17): a
store that fails changes nothing.
"""

from brain import profiles
from brain.ledger import CARDS

KEEP_GAMES = 3  # B11: at least the last three games that had transactions


def start(ledger, profile):
    """Every account at the profile's start, the pot empty; seq goes on."""
    if profile:
        ledger.profile = profiles.get(profile)
    ledger.bal = [0] + [ledger.profile.start] * CARDS + [0]  # a new list: reset() keeps the old
    ledger.start = ledger.seq
    ledger.count = ledger.clock = None  # B19, B20: the game's


def load(ledger, profile):
    """Boot: the game the store read back in play (B17), or a new one in profile when the
    store is new or its game is another edition's (B15); the store's status, 'ok', 'new' or
    'damaged'. OSError when a new store's first checkpoint cannot be written."""
    store = ledger.store
    status, ledger.seq, game = store.load()
    if status == "new":
        start(ledger, profile)
        store.new_game(ledger, None, KEEP_GAMES)
        ledger.ready = True
    elif game is not None:
        name, ledger.bal, ledger.start, ledger.volume, night = game
        ledger.profile = profiles.get(name)  # the store read only an edition this one has
        if night is not None:
            ledger.pot_on, ledger.count, ledger.clock = night
        ledger.ready = True
        if profile and profiles.get(profile) is not ledger.profile:
            reset(ledger, profile)
    return status


def reset(ledger, profile=None):
    """B11, B15: a new game, the one before kept if it had transactions."""
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


def cycle_volume(unit, now):
    """B12: `.` with no card and no entry: 2 -> 1 -> 0 -> 2."""
    vol = (unit.ledger.volume - 1) % 3
    err = unit.ledger.set("v", vol)
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
    """The kept game gid (None: the newest) in play again, the one in play kept if it had
    transactions; its `restore` record, or the error."""
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
        ledger.start = ledger.seq - g["transactions"] - 1  # the restore record is one more
        rec = (ledger.seq, "restore", 0, 0, 0, 0, 0, 0, via)
        store.new_game(ledger, put, KEEP_GAMES, gid, rec)
    except OSError:
        (ledger.profile, ledger.bal, ledger.seq, ledger.start, ledger.count,
         ledger.clock) = old
        return "store-failed"
    ledger.ready = True
    return rec


def _worth_keeping(ledger):
    """Whether the game in play has transactions and is not kept already (its seq a kept
    game's: nothing happened since)."""
    return ledger.ready and ledger.seq != ledger.start and ledger.seq not in ledger.store.kept()


def set_balance(ledger, card, amount, via="key"):
    have = ledger.bal[card]
    if amount == have and ledger.ready:
        return None  # nothing moves, so nothing is logged
    if amount >= have:
        return ledger.move("set", 0, card, amount - have, 0, via)
    return ledger.move("set", card, 0, have - amount, 0, via)
