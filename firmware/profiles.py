"""The money of each edition (B15). The rules of B1-B14 are written for `world`."""


class Profile:
    def __init__(self, name, start, go, resolution, minimum, maximum, suffix_required,
                 k_from, m_from):
        self.name = name
        self.start = start  # every account at a new game
        self.go = go  # the Go salary (B9)
        self.resolution = resolution  # every amount is a multiple of this
        self.minimum = minimum  # one entry, at least (B2)
        self.maximum = maximum  # one entry, at most (B2)
        self.suffix_required = suffix_required  # an entry needs K or M (B2)
        self.k_from = k_from  # shown in thousands with `k` from here (B1)
        self.m_from = m_from  # shown in millions with `M` from here, or never (None)


PROFILES = {
    "world": Profile("world", 15000000, 2000000, 1000, 10000, 20000000, True, 1000, 1000000),
    # Disney and Regles rulebooks: plain units, banknotes of 1 to 500.
    "classic": Profile("classic", 1500, 200, 1, 1, 99999, False, 100000, None),
    # French and European rulebooks in francs.
    "francs": Profile("francs", 150000, 20000, 100, 100, 1000000, False, 100000, 1000000),
}

DEFAULT = "world"


def get(name):
    """The profile called name (case-insensitive), or None."""
    return PROFILES.get(name.lower()) if isinstance(name, str) else None
