"""Accounts and the transactions that move money between them, as a fold over a log.

A game is a base (the six balances where the kept log starts) and the log of transactions
since. The balances are always `fold(apply, log, base)`: boot replays the log, undo (B10) is one
more transaction, and a store that loses the tail of its log loses whole transactions, never
half of one. Every change is handed to the store, which makes it durable, *before* the balances
in memory move (B17): a store that fails leaves the ledger as it was.

The log lives in the store, not in RAM: the ledger keeps the balances it folds to, and
`records(n)` reads the last n back from the store (LOG, BACKUP). A unit in play so keeps no
copy of what its flash already holds.

A record is a tuple:
    (seq, kind, from, to, amount, from_after, to_after, undoes, via)
from/to are card numbers 1-6, or 0 for the bank; *_after are the balances the move left (0 for
the bank); undoes is the seq a reversal names (0 otherwise); via is "key" or "serial".

Only what play needs lives here. Loading (storeload.py) runs at boot; whole-game changes (new
game, restore, a balance set by the banker: games.py) a few times a game: each is imported when
needed and dropped after, so a unit in play keeps their code off its heap.
"""

import profiles
import transient

CARDS = 6
KINDS = ("receive", "pay", "transfer", "go", "undo", "set", "restore")
VIAS = ("key", "serial")
SEQ, KIND, FROM, TO, AMOUNT, FROM_AFTER, TO_AFTER, UNDOES, VIA = range(9)


def apply(bal, rec):
    frm = rec[FROM]
    to = rec[TO]
    amount = rec[AMOUNT]
    if frm:
        bal[frm] -= amount
    if to:
        bal[to] += amount


class Ledger:
    def __init__(self, store, profile=None):
        self.store = store
        self.profile = profiles.get(profile or profiles.DEFAULT)
        self.bal = [0] * (CARDS + 1)  # index 0 is the bank, never read
        self.seq = 0
        self.previous = None  # (profile name, seq, balances list) of the game before (B11)
        self.volume = 2
        self.ready = False  # False while there are no balances to trust (B17)
        self.via = "key"

    # -- loading ---------------------------------------------------------------------------

    def load(self, profile=None):
        """Restore the game from the store; returns the store's status ('ok', 'new', 'damaged').

        A 'new' store starts a game. A damaged store with no good copy leaves the ledger not
        ready: the unit says so and waits for the banker's new game; nothing is invented.
        The code is boot's own (storeload.py), dropped once the game is loaded.
        """
        return transient.call("storeload", "into", self, profile)

    # -- moving money ----------------------------------------------------------------------

    def _commit(self, kind, frm, to, amount, undoes=0):
        """Append one transaction, durable first; the record, or an error code."""
        if not self.ready:
            return "no-game"
        bal = self.bal
        if frm and bal[frm] < amount:
            return "insufficient-funds"  # B8: balances never go below 0
        frm_after = bal[frm] - amount if frm else 0
        to_after = bal[to] + amount if to else 0
        rec = (self.seq + 1, kind, frm, to, amount, frm_after, to_after, undoes, self.via)
        try:
            self.store.commit(self, rec)
        except OSError:
            return "store-failed"
        self.seq += 1
        apply(bal, rec)
        return rec

    def history(self, n=None, raw=False):
        """(base, records): the last n records the store keeps (all by default), oldest first,
        and, for all, the balances before them; None before anything is stored; OSError if the
        store cannot read them back. Only what this ledger committed (a failed write may have
        landed its line). raw: as stored, for a checkpoint to carry on (storeload.history)."""
        return self.store.history(self.seq, n, raw)

    def records(self, n=None):
        """The last n records (all by default), oldest first (LOG); OSError as history()."""
        if n is not None and n <= 0:
            return []
        # A number, even for all: LOG shows what reads, as boot did; only a checkpoint or a
        # backup needs the whole log or nothing (history(None)).
        got = self.history(self.store.keep if n is None else n)
        return [] if got is None else got[1]

    def receive(self, card, amount):
        return self._commit("receive", 0, card, amount)

    def pay(self, card, amount):
        return self._commit("pay", card, 0, amount)

    def transfer(self, payer, payee, amount):
        return self._commit("transfer", payer, payee, amount)

    def go(self, card):
        return self._commit("go", 0, card, self.profile.go)

    def undo(self, rec):
        """Reverse rec (B10): the money goes back the way it came, as a logged transaction."""
        return self._commit("undo", rec[TO], rec[FROM], rec[AMOUNT], rec[SEQ])

    def save_volume(self, volume):
        self.volume = volume
        try:
            self.store.save_settings(self)
        except OSError:
            return "store-failed"
        return None
