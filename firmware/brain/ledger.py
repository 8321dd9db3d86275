"""The accounts, and `move`, the one way money moves (docs/design.md, "Money, and what is kept").

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
