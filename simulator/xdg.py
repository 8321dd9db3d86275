"""Where the desktop keeps what outlives a run (the simulator's flash, the table's secret): the
XDG base directory rule's state folder."""

import os


def state_env():
    """$BANK_SIM_STATE: the folder it names; "" where it is unset or empty; None where it says
    none, in any case (NONE, None): keep nothing."""
    where = os.getenv("BANK_SIM_STATE") or ""
    return None if where.lower() == "none" else where


def state_home(name):
    """$XDG_STATE_HOME/name, or ~/.local/state/name where it is unset or relative: the rule
    says a relative one is ignored (each folder a run started from would hold a game of its
    own)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, name)
