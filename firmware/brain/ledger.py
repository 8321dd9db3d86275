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
LOUDEST = 2  # B12: the volumes are 0 (silent) to LOUDEST, the volume a unit starts at
SETTINGS = {"v": "volume", "p": "pot_on", "n": "count", "t": "clock"}  # the store's tags
KEEP_GAMES = 3  # B11: at least the last three games that had transactions


def apply(bal, rec):
    if rec[FROM]:
        bal[rec[FROM]] -= rec[AMOUNT]
    if rec[TO]:
        bal[rec[TO]] += rec[AMOUNT]


class Ledger:
    def __init__(self, store, profile):
        self.store = store
        self.profile = profiles.get(profile or profiles.DEFAULT)
        self.bal = [0] * (POT + 1)  # the bank's, at 0, is never read
        self.seq = 0
        self.start = 0  # the seq this game's transactions count from
        self.volume = LOUDEST
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
        except OSError as e:
            return self._refused(e)
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
        except OSError as e:
            setattr(self, name, old)
            return self._refused(e)
        return None

    def _refused(self, e):
        """A write refused with e: the store sets flash back to the ledger as it stands (B17)."""
        self.store.refused(self, e)
        return "store-failed"

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
        return self._replace(profile)

    def restore(self, gid, via="key"):
        """The kept game gid (None: the newest) in play again, the one in play kept if it had
        transactions; its `restore` record, or the error."""
        ids = self.store.kept()
        if gid is None:
            if not ids:
                return "no-backup"
            gid = ids[0]
        g = self.store.game(gid)
        if g is None and gid not in ids:
            return "no-backup"
        if g is None:
            return "game-damaged" if self.store.damaged(gid) else "store-failed"
        if profiles.get(g["profile"]) is None:
            return "no-backup"
        return self._replace(g["profile"], gid, g, via)

    def _replace(self, profile, gid=None, g=None, via="key"):
        """The game in play put away if it had transactions (and not kept already: its seq a
        kept game's), then a new one, or the kept game gid (g) with its `restore` record; all
        kept or nothing changed (B17): None, the record, or the error."""
        old = (self.profile, self.bal, self.seq, self.start, self.count, self.clock, self.ready)
        store = self.store
        rec = None
        try:
            worth = self.ready and self.seq != self.start and self.seq not in store.kept()
            put = store.put_away(self) if worth else None
            self._start(profile)
            if g is not None:
                self.bal = [0] + list(g["balances"]) + [g["pot"]]  # B22: its pot comes back
                self.seq += 1
                self.start = self.seq - g["transactions"] - 1  # the restore record is one more
                rec = (self.seq, "restore", 0, 0, 0, 0, 0, 0, via)
            self.ready = True
            store.new_game(self, put, KEEP_GAMES, gid, rec)
        except OSError as e:
            (self.profile, self.bal, self.seq, self.start, self.count, self.clock,
             self.ready) = old
            err = self._refused(e)
            if gid is None or not store.damaged(gid):
                return err
            try:
                store.tell(self)  # its log, read on the way back, is damage boot's check skips
            except OSError:
                pass
            return "game-damaged"
        return rec

    def set_balance(self, card, amount, via="key"):
        """A balance put straight, as the move it takes; the record, None when it was that
        already, or the error."""
        have = self.bal[card]
        if amount == have and self.ready:
            return None  # nothing moves, so nothing is logged
        frm, to = (0, card) if amount >= have else (card, 0)
        return self.move("set", frm, to, abs(amount - have), 0, via)
