"""The count (B19): each remaining player's wealth, their balance plus what the banker adds for
their properties, and the ranking that names the winner. No account changes.

The ledger keeps the count as the store writes it: None (nothing counted this game) or a list,
[on (0/1), then for each card what was added for it, or None when it takes no part]. A count is
always its card's balance now plus its additions, so money that moves later moves it too.
"""

from brain.ledger import CARDS


def fresh():
    return [0] + [None] * CARDS


def of(ledger, card):
    """The card's count, or None when it takes no part."""
    c = ledger.count
    added = None if c is None else c[card]
    return None if added is None else ledger.bal[card] + added


def counts(ledger):
    """[(card, count)] of the cards that take part, in card order."""
    out = []
    for card in range(1, CARDS + 1):
        n = of(ledger, card)
        if n is not None:
            out.append((card, n))
    return out


def ranking(pairs):
    """[(place, card, count)], the richest first; equal counts share a place (1, 1, 3)."""
    ranked = sorted(pairs, key=lambda p: (-p[1], p[0]))
    out = []
    for i in range(len(ranked)):
        card, n = ranked[i]
        place = out[-1][0] if out and out[-1][2] == n else i + 1
        out.append((place, card, n))
    return out


def place_text(row):
    """A place as the five cells show it: "1-3" is first place, card 3."""
    return "%d-%d" % (row[0], row[1])
