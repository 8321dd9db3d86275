"""Thousands of random keys, card moves and waits: the unit never raises, no balance goes
below 0 (B8), and money enters or leaves only through the bank's own operations: transfers
conserve the total, and the balances are always the fold of the log (B6, B10, B17)."""

from brain import ledger as L
from desktop import seeded
from harness import Rig
from brain.unit import KEYS

STEPS = 6000


def _play(seed, profile=None):
    r = Rig(profile=profile, seed=seed)
    dice = seeded.Seeded(seed * 7919 + 1)
    u = r.unit
    start_total = sum(u.ledger.bal)
    bank_net = 0  # what the bank has paid into the accounts
    games = 0
    for step in range(STEPS):
        roll = dice.randint(0, 99)
        now = r.clock.now()
        if roll < 15:
            # a whole amount, so the walk moves money often, not only refuses keys
            amount = ("1", "25", "150", "2.5", "500", "15", "9", "20", "0.5")[dice.randint(0, 8)]
            for k in amount + "KM"[dice.randint(0, 1)] + "+-"[dice.randint(0, 1)]:
                u.key_down(k, now)
                u.key_up(k, now)
        elif roll < 70:
            k = KEYS[dice.randint(0, len(KEYS) - 1)]
            u.key_down(k, now)
            if k == "C" and dice.randint(0, 9) == 0:
                r.advance(dice.randint(0, 4000))
            u.key_up(k, r.clock.now())
        elif roll < 80:
            u.card_in("LR"[dice.randint(0, 1)], dice.randint(1, 6), now)
        elif roll < 88:
            u.card_out("LR"[dice.randint(0, 1)], now)
        elif roll < 97:
            r.advance(dice.randint(0, 2000))
        else:
            r.advance(dice.randint(0, 70000))
        led = u.ledger
        for c in range(1, 7):
            assert led.bal[c] >= 0, (seed, step)
        if r.txns:
            for rec in r.txns:
                if rec[L.FROM] == 0:
                    bank_net += rec[L.AMOUNT]
                if rec[L.TO] == 0:
                    bank_net -= rec[L.AMOUNT]
                if rec[L.FROM] and rec[L.TO]:
                    assert rec[L.KIND] in ("transfer", "undo")
            r.txns = []
        r.tones = []
        base, log = led.store.log.base, led.store.records()
        if log:
            folded = list(base)
            for rec in log:
                L.apply(folded, rec)
            assert folded == led.bal, (seed, step)  # the store's log adds up to the balances
            last = log[-1]  # its balances after are those of now
            assert not last[L.FROM] or last[L.FROM_AFTER] == led.bal[last[L.FROM]]
            assert not last[L.TO] or last[L.TO_AFTER] == led.bal[last[L.TO]]
        if r.games != games:
            # a new game (C held 3 s) reset the accounts: the books start again from there
            games = r.games
            start_total = sum(led.bal)
            bank_net = 0
            assert start_total == 6 * led.profile.start
        assert sum(led.bal) == start_total + bank_net, (seed, step)
        text, k, m = u.display()
        assert len(text.replace(".", "")) <= 5, (seed, step, text, u.entry, u.tally, u.slots)
    return r


def test_random_play_world():
    r = _play(1)
    assert r.unit.ledger.seq > 50  # the walk really moved money


def test_random_play_other_seeds_and_profiles():
    _play(2, "classic")
    _play(3, "francs")
