"""The money of each edition (B15); B1-B14 are written for `world`.

start: each account at a new game; go: B9's salary; every amount a multiple of resolution;
minimum, maximum and suffix_required: an entry's (B2); k_from, m_from: shown with k, with M
(None: never) from there (B1). A named tuple, not a class: the heap.
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
NAMES = tuple(p.name for p in _ALL)  # every list of them a person reads is this one
DEFAULT = NAMES[0]


def get(name):
    """The profile called name, in any case, or None."""
    return PROFILES.get(name.lower()) if isinstance(name, str) else None
