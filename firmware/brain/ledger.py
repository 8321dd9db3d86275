"""The accounts, and `move`, the one way money moves (docs/design.md, "Money, and what is kept");
the game read back at boot, a new game (B11, B15) and a kept game brought back: the ledger's
fields are its own. What is kept is durable first (B17): a store that fails changes nothing.

A record is (seq, kind, from, to, amount, from_after, to_after, undoes, via): from and to are
cards 1-6, 0 for the bank or POT for the pot (B22); undoes is the seq an undo reverses (B10).
"""

from brain import profiles

CARDS = 6
POT = CARDS + 1  # balances are [bank, cards..., pot]
KINDS = ("receive", "pay", "transfer", "go", "undo", "set", "restore", "bankrupt", "pot-in",
         "pot-out")
VIAS = ("key", "serial")
SEQ, KIND, FROM, TO, AMOUNT, FROM_AFTER, TO_AFTER, UNDOES, VIA = range(9)
MOST = 999999999999  # docs/protocol-extensions.md, "The most a balance holds"
SETTINGS = {"v": "volume", "p": "pot_on", "n": "count", "t": "clock"}  # the store's tags
KEEP_GAMES = 3  # B11: at least the last three games that had transactions


def apply(bal, rec):
    frm = rec[FROM]
    to = rec[TO]
    amount = rec[AMOUNT]
    if frm:
        bal[frm] -= amount
    if to:
        bal[to] += amount


class Ledger:
    def __init__(self, store, profile):
        self.store = store
        self.profile = profiles.get(profile or profiles.DEFAULT)
        self.bal = [0] * (POT + 1)  # the bank's, at 0, is never read
        self.seq = 0
        self.start = 0  # the seq this game's transactions count from
        self.volume = 2
        # Game night's, kept by the store as the volume is: B22's setting; B19's count (None,
        # or [on, then each card's additions or None]); B20's clock (None, or Clock.kept()).
        self.pot_on = False
        self.count = None
        self.clock = None
        self.ready = False  # False while there are no balances to trust (B17)

    def move(self, kind, frm, to, amount, undoes, via="key"):
        """amount from account frm to account to, durable before the balances move (B17); the
        record, or an error code."""
        if not self.ready:
            return "no-game"
        bal = self.bal
        if frm and bal[frm] < amount:
            return "insufficient-funds"  # B8
        frm_after = bal[frm] - amount if frm else 0
        to_after = bal[to] + amount if to else 0
        if to_after > MOST:
            return "balance-limit"
        rec = (self.seq + 1, kind, frm, to, amount, frm_after, to_after, undoes, via)
        try:
            self.store.commit(self, rec)
        except OSError:
            return "store-failed"
        self.seq += 1
        apply(bal, rec)
        return rec

    def set(self, tag, value):
        """A setting (SETTINGS: B12's volume, B22's pot on, B19's count, B20's clock) as value,
        kept before it is the ledger's (B17); None, or the error, which leaves it as it was."""
        if not self.ready:
            return "no-game"  # no game to keep it in; Err6 writes nothing
        name = SETTINGS[tag]
        old = getattr(self, name)
        setattr(self, name, value)
        try:
            self.store.save(self, tag)
        except OSError:
            setattr(self, name, old)
            return "store-failed"
        return None

    def _start(self, profile):
        """Every account at the profile's start, the pot empty; seq goes on."""
        if profile:
            self.profile = profiles.get(profile)
        self.bal = [0] + [self.profile.start] * CARDS + [0]  # a new list: reset() keeps the old
        self.start = self.seq
        self.count = self.clock = None  # B19, B20: the game's

    def load(self, profile):
        """Boot: the game the store read back in play (B17), or a new one in profile when the
        store is new or its game is another edition's (B15); the store's status, 'ok', 'new' or
        'damaged'. OSError when a new store's first checkpoint cannot be written."""
        status, self.seq, game = self.store.load()
        if status == "new":
            self._start(profile)
            self.store.new_game(self, None, KEEP_GAMES)
            self.ready = True
        elif game is not None:
            name, self.bal, self.start, self.volume, night = game
            self.profile = profiles.get(name)  # the store read only an edition this one has
            if night is not None:
                self.pot_on, self.count, self.clock = night
            self.ready = True
            if profile and profiles.get(profile) is not self.profile:
                self.reset(profile)
        return status

    def reset(self, profile=None):
        """B11, B15: a new game, the one before kept if it had transactions; None or the
        error."""
        old = (self.profile, self.bal, self.ready, self.start, self.count, self.clock)
        try:
            put = self.store.put_away(self) if self._worth_keeping() else None
            self._start(profile)
            self.ready = True
            self.store.new_game(self, put, KEEP_GAMES)
        except OSError:
            self.profile, self.bal, self.ready, self.start, self.count, self.clock = old
            return "store-failed"
        return None

    def restore(self, gid, via="key"):
        """The kept game gid (None: the newest) in play again, the one in play kept if it had
        transactions; its `restore` record, or the error."""
        store = self.store
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
        old = (self.profile, self.bal, self.seq, self.start, self.count, self.clock)
        try:
            put = store.put_away(self) if self._worth_keeping() else None
            self.profile = prof
            self.bal = [0] + list(g["balances"]) + [g["pot"]]  # B22: its pot comes back
            self.count = self.clock = None  # B19, B20: the game in play's, gone with it
            self.seq += 1
            self.start = self.seq - g["transactions"] - 1  # the restore record is one more
            rec = (self.seq, "restore", 0, 0, 0, 0, 0, 0, via)
            store.new_game(self, put, KEEP_GAMES, gid, rec)
        except OSError:
            self.profile, self.bal, self.seq, self.start, self.count, self.clock = old
            # its log, read on the way back, may be what failed (damage boot's check skips)
            return "game-damaged" if store.damaged(gid) else "store-failed"
        self.ready = True
        return rec

    def _worth_keeping(self):
        """Whether the game in play has transactions and is not kept already (its seq a kept
        game's: nothing happened since)."""
        return self.ready and self.seq != self.start and self.seq not in self.store.kept()

    def set_balance(self, card, amount, via="key"):
        """A balance put straight, as the move it takes; the record, None when it was that
        already, or the error."""
        have = self.bal[card]
        if amount == have and self.ready:
            return None  # nothing moves, so nothing is logged
        if amount >= have:
            return self.move("set", 0, card, amount - have, 0, via)
        return self.move("set", card, 0, have - amount, 0, via)
