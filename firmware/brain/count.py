"""The count (B19): a card's balance now plus what the banker added for it, and the ranking.

ledger.count is None or [on (0/1), then each card's additions, None when it takes no part].
"""

from brain.ledger import CARDS


def of(ledger, card):
    """The card's count, or None when it takes no part."""
    c = ledger.count
    added = None if c is None else c[card]
    return None if added is None else ledger.bal[card] + added


def counts(ledger):
    return [(c, of(ledger, c)) for c in range(1, CARDS + 1) if of(ledger, c) is not None]


def ranking(pairs):
    """[(place, card, count)], the richest first; equal counts share a place (1, 1, 3)."""
    ranked = sorted(pairs, key=lambda p: (-p[1], p[0]))
    out = []
    for i, (card, n) in enumerate(ranked):
        place = out[-1][0] if out and out[-1][2] == n else i + 1
        out.append((place, card, n))
    return out
