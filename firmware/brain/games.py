"""Whole-game changes to the ledger: a new game (B11), another edition (B15), the game before
brought back, a balance put straight by the banker; and the volume (B12), a setting the store
keeps. The unit's side of each (the session, the display, the tones) is brain/unit.py's.

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
    ledger.bal = [0] + [ledger.profile.start] * CARDS  # a new list: reset() may need the old
    ledger.start = ledger.seq


def reset(ledger, profile=None):
    """B11/B15: a new game in the ledger, the one before kept as a backup if it had
    transactions."""
    push = _current(ledger)
    old = (ledger.profile, ledger.bal, ledger.ready, ledger.start)
    start(ledger, profile)
    ledger.ready = True
    try:
        _save(ledger, push, None, ())
    except OSError:
        ledger.profile, ledger.bal, ledger.ready, ledger.start = old
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


def restore_previous(ledger, via="key"):
    """Bring back the newest backup (the game before the last new game); None or the error."""
    r = restore_game(ledger, None, via)
    return r if isinstance(r, str) else None


def restore_game(ledger, gid, via="key"):
    """Bring back the backup gid (the newest with None); the current game becomes a backup if
    it had transactions. The restored game's log starts with a `restore` record (that came
    from via), which is returned (or the error: "no-backup", "store-failed")."""
    store = ledger.store
    if gid is None:
        if not store.games:
            return "no-backup"
        gid = store.games[0]
    g = store.get_game(gid)
    prof = profiles.get(g["profile"]) if g is not None else None
    if prof is None:
        return "no-backup"
    push = _current(ledger)
    old = (ledger.profile, ledger.bal, ledger.seq, ledger.start)
    ledger.profile = prof
    ledger.bal = [0] + list(g["balances"])
    ledger.seq += 1
    n = g["transactions"]
    # The restore record is one more transaction of the restored game.
    ledger.start = None if n is None else ledger.seq - n - 1
    rec = (ledger.seq, "restore", 0, 0, 0, 0, 0, 0, via)
    try:
        _save(ledger, push, gid, [rec])
    except OSError:
        ledger.profile, ledger.bal, ledger.seq, ledger.start = old
        return "store-failed"
    ledger.ready = True
    return rec


# -- the kept games (B11) ---------------------------------------------------------------------
# A backup is a dict: id (the seq the game had reached: unique, as seq numbers only grow and
# an empty game is never kept), profile, seq, transactions (None: unknown, a game from a store
# written before they were counted) and balances (6). The store keeps its ids newest first in
# `store.games`, and the games themselves through store.put_game, get_game and drop_game
# (FileStore: in every checkpoint's header, the game in a file of its own; docs/storage.md).


def _current(ledger):
    """The current game as a backup, or None when it is not worth keeping: no balances, no
    transactions, or kept already (its seq is a backup's: nothing happened since)."""
    n = None if ledger.start is None else ledger.seq - ledger.start
    if not ledger.ready or n == 0 or ledger.seq in ledger.store.games:
        return None
    return {"id": ledger.seq, "profile": ledger.profile.name, "seq": ledger.seq,
            "transactions": n, "balances": ledger.bal[1:CARDS + 1]}


def _save(ledger, push, drop, log):
    """The whole-game change in ledger made durable, push (or None) kept as the newest backup
    and the backup drop (or None) no longer one. OSError leaves store.games as it was; a game
    file written for nothing is named by no header and is never read."""
    store = ledger.store
    before = store.games
    ids = [i for i in before if i != drop]
    if push is not None:
        store.put_game(push)
        ids.insert(0, push["id"])
    gone = ids[KEEP_GAMES:]
    if drop is not None:
        gone.append(drop)
    store.games = ids[:KEEP_GAMES]
    try:
        store.save(ledger, log)
    except BaseException:
        store.games = before
        raise
    for i in gone:
        store.drop_game(i)


def set_balance(ledger, card, amount, via="key"):
    """Maintenance (host tools): put a balance straight, logged as the move it took."""
    have = ledger.bal[card]
    if amount >= have:
        return ledger.move("set", 0, card, amount - have, 0, via)
    return ledger.move("set", card, 0, have - amount, 0, via)
