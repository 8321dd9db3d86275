"""Accounts and the transactions that move money between them, as a fold over a log.

A game is a base (the six balances where the kept log starts) and the log of transactions
since. The balances are always `fold(apply, log, base)`: boot replays the log, undo (B10) is one
more transaction, and a store that loses the tail of its log loses whole transactions, never
half of one. Every change is handed to the store, which makes it durable, *before* the balances
in memory move (B17): a store that fails leaves the ledger as it was.

The log lives in the store: the ledger keeps the balances it folds to, and `store.records(n)`
gives the last n (LOG) of those the store keeps for its next checkpoint.

A record is a tuple:
    (seq, kind, from, to, amount, from_after, to_after, undoes, via)
from/to are card numbers 1-6, 0 for the bank or POT (7) for the Free Parking pot (B22), an
account like a card's; *_after are the balances the move left (0 for the bank); undoes is the
seq a reversal names (0 otherwise); via is "key" or "serial".

Only what play needs lives here: the balances and `move`, the one way money moves. Loading
the game (FileStore.load) runs at boot only; whole-game changes (new game, restore, a balance
set by the banker) and the volume a few times a game: brain/games.py is imported where it is
first needed, and kept, so a unit that never needs it never loads it.
"""

from brain import profiles

CARDS = 6
POT = CARDS + 1  # the Free Parking pot's account (B22): balances are [bank, cards..., pot]
KINDS = ("receive", "pay", "transfer", "go", "undo", "set", "restore", "bankrupt", "pot-in",
         "pot-out")
VIAS = ("key", "serial")
SEQ, KIND, FROM, TO, AMOUNT, FROM_AFTER, TO_AFTER, UNDOES, VIA = range(9)
# The most one balance holds: 12 digits, as many as SET BALANCE takes, so that every balance a
# game reaches can be set again (a backup restored, docs/protocol-extensions.md). No game
# comes near it: the display says "-----" from 100,000 M (brain/money.py).
MOST = 999999999999


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
        self.bal = [0] * (POT + 1)  # index 0 is the bank, never read; POT the pot (B22)
        self.seq = 0
        # The seq the current game's transactions count from (seq - start of them); the
        # games before are the store's.
        self.start = 0
        self.volume = 2
        # Game night's settings and state, kept by the store as the volume is (B19-B22): the
        # pot on (B22); the count (B19), None or [on, then each card's additions or None];
        # the game clock (B20), None or its kept tuple (brain/gameclock.py).
        self.pot_on = False
        self.count = None
        self.clock = None
        self.ready = False  # False while there are no balances to trust (B17)

    def move(self, kind, frm, to, amount, undoes, via="key"):
        """Move amount from card frm to card to (0: the bank) as one transaction of kind, which
        came from via ("key" or "serial"), durable first; the record, or an error code. The
        unit's moves (brain/unit.py): receive 0 -> card, pay card -> 0, transfer payer -> payee, go
        0 -> card (the profile's go), undo the reverse of the record it names in undoes (B10):
        the way it came back."""
        if not self.ready:
            return "no-game"
        bal = self.bal
        if frm and bal[frm] < amount:
            return "insufficient-funds"  # B8: balances never go below 0
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
