"""The money of each edition (B15). The rules of B1-B14 are written for `world`.

A profile is a named tuple, not an object with a dict: about a third of the heap.
- start: every account at a new game
- go: the Go salary (B9)
- resolution: every amount is a multiple of this
- minimum, maximum: one entry, at least and at most (B2)
- suffix_required: an entry needs K or M (B2)
- k_from: shown in thousands with `k` from here (B1)
- m_from: shown in millions with `M` from here, or never (None)
"""

from collections import namedtuple

Profile = namedtuple("Profile", ("name", "start", "go", "resolution", "minimum", "maximum",
                                 "suffix_required", "k_from", "m_from"))

_ALL = (
    Profile("world", 15000000, 2000000, 1000, 10000, 20000000, True, 1000, 1000000),
    # Disney and Regles rulebooks: plain units, banknotes of 1 to 500.
    Profile("classic", 1500, 200, 1, 1, 99999, False, 100000, None),
    # French and European rulebooks in francs.
    Profile("francs", 150000, 20000, 100, 100, 1000000, False, 100000, 1000000),
)
PROFILES = {p.name: p for p in _ALL}
# The names in the order above: every list of them a person reads (the simulator's usage and
# its refusal of an unknown one, the host tools' help) is made from this one.
NAMES = tuple(p.name for p in _ALL)

DEFAULT = NAMES[0]


def get(name):
    """The profile called name (case-insensitive), or None."""
    return PROFILES.get(name.lower()) if isinstance(name, str) else None
