"""Accounts and the transactions that move money between them, as a fold over a log.

A game is a base (the six balances where the kept log starts) and the log of transactions
since. The balances are always `fold(apply, log, base)`: boot replays the log, undo (B10) is one
more transaction, and a store that loses the tail of its log loses whole transactions, never
half of one. Every change is handed to the store, which makes it durable, *before* the balances
in memory move (B17): a store that fails leaves the ledger as it was.

A record is a tuple:
    (seq, kind, from, to, amount, from_after, to_after, undoes, via)
from/to are card numbers 1-6, or 0 for the bank; *_after are the balances the move left (0 for
the bank); undoes is the seq a reversal names (0 otherwise); via is "key" or "serial".
"""

import profiles

CARDS = 6
SEQ, KIND, FROM, TO, AMOUNT, FROM_AFTER, TO_AFTER, UNDOES, VIA = range(9)
KINDS = ("receive", "pay", "transfer", "go", "undo", "set", "restore")


def apply(bal, rec):
    frm = rec[FROM]
    to = rec[TO]
    amount = rec[AMOUNT]
    if frm:
        bal[frm] -= amount
    if to:
        bal[to] += amount


class Ledger:
    log_max = 200  # a ring: older records fold into the base

    def __init__(self, store, profile=None):
        self.store = store
        self.profile = profiles.get(profile or profiles.DEFAULT)
        self.bal = [0] * (CARDS + 1)  # index 0 is the bank, never read
        self.base = [0] * (CARDS + 1)
        self.log = []
        self.seq = 0
        self.previous = None  # (profile name, seq, balances list) of the game before (B11)
        self.volume = 2
        self.ready = False  # False while there are no balances to trust (B17)
        self.via = "key"

    # -- loading and saving --------------------------------------------------------------

    def load(self, profile=None):
        """Restore the game from the store; returns the store's status ('ok', 'new', 'damaged').

        A 'new' store starts a game. A damaged store with no good copy leaves the ledger not
        ready: the unit says so and waits for the banker's new game; nothing is invented.
        """
        snap = self.store.load()
        status = self.store.status
        if snap is None:
            if status == "new":
                self._start(profile, keep_previous=False)
                self._save()
                self.ready = True
            return status
        try:
            self._restore(snap)
        except (KeyError, IndexError, TypeError, ValueError):
            self.store.status = status = "damaged"
            self.ready = False
            return status
        self.ready = True
        if profile and profiles.get(profile) is not self.profile:
            self.new_game(profile)  # B15: starting with another profile starts a new game
        return status

    def _restore(self, snap):
        prof = profiles.get(snap["profile"])
        if prof is None:
            raise ValueError("profile")
        base = [0] + [int(x) for x in snap["base"]]
        if len(base) != CARDS + 1:
            raise ValueError("base")
        bal = list(base)
        log = []
        for r in snap["log"]:
            rec = (int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]),
                   int(r[7]), str(r[8]))
            apply(bal, rec)
            # The after-balances are a check on the fold: a log that does not add up is damaged.
            if (rec[FROM] and bal[rec[FROM]] != rec[FROM_AFTER]) or (
                    rec[TO] and bal[rec[TO]] != rec[TO_AFTER]):
                raise ValueError("log does not add up")
            log.append(rec)
        # The store may keep more of the log than RAM does: the oldest fold into the base.
        while len(log) > self.log_max:
            apply(base, log.pop(0))
        for b in bal:
            if b < 0:
                raise ValueError("negative balance")
        prev = snap.get("previous")
        if prev is not None:
            prev = (str(prev["profile"]), int(prev["seq"]),
                    [0] + [int(x) for x in prev["balances"]])
        self.profile = prof
        self.base = base
        self.bal = bal
        self.log = log
        self.seq = int(snap["seq"])
        self.previous = prev
        self.volume = int(snap.get("volume", 2)) % 3

    def snapshot(self):
        """Everything the store keeps, as plain data."""
        prev = None
        if self.previous is not None:
            prev = {"profile": self.previous[0], "seq": self.previous[1],
                    "balances": self.previous[2][1:]}
        return {"v": 1, "profile": self.profile.name, "seq": self.seq, "volume": self.volume,
                "base": self.base[1:], "log": [list(r) for r in self.log], "previous": prev}

    def _save(self):
        self.store.save(self)

    def _start(self, profile, keep_previous=True):
        if keep_previous and self.ready:
            self.previous = (self.profile.name, self.seq, list(self.bal))
        if profile:
            self.profile = profiles.get(profile)
        start = self.profile.start
        self.base = [0] + [start] * CARDS
        self.bal = list(self.base)
        self.log = []

    # -- moving money ----------------------------------------------------------------------

    def balance(self, card):
        return self.bal[card]

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
        log = self.log
        log.append(rec)
        if len(log) > self.log_max:
            apply(self.base, log.pop(0))
        return rec

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

    def set_balance(self, card, amount):
        """Maintenance (host tools): put a balance straight, logged as the move it took."""
        have = self.bal[card]
        if amount >= have:
            return self._commit("set", 0, card, amount - have)
        return self._commit("set", card, 0, have - amount)

    # -- games -------------------------------------------------------------------------------

    def new_game(self, profile=None):
        """B11/B15: every account back to the start, the log cleared, seq numbers go on."""
        old = (self.profile, self.base, self.bal, self.log, self.previous, self.ready)
        self._start(profile)
        self.ready = True
        try:
            self._save()
        except OSError:
            self.profile, self.base, self.bal, self.log, self.previous, self.ready = old
            return "store-failed"
        return None

    def restore_previous(self):
        """Bring back the game before the last new game; the current one becomes the backup."""
        if self.previous is None:
            return "no-backup"
        old = (self.profile, self.base, self.bal, self.log, self.previous, self.seq)
        name, _seq, bal = self.previous
        cur = (self.profile.name, self.seq, list(self.bal))
        self.profile = profiles.get(name)
        self.base = list(bal)
        self.bal = list(bal)
        self.previous = cur
        self.seq += 1
        self.log = [(self.seq, "restore", 0, 0, 0, 0, 0, 0, self.via)]
        try:
            self._save()
        except OSError:
            self.profile, self.base, self.bal, self.log, self.previous, self.seq = old
            return "store-failed"
        self.ready = True
        return None

    def save_volume(self, volume):
        self.volume = volume
        try:
            self.store.save_settings(self)
        except OSError:
            return "store-failed"
        return None

    def total(self):
        t = 0
        for c in range(1, CARDS + 1):
            t += self.bal[c]
        return t
