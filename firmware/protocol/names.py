"""Player names: the protocol extension NAME / NAMES (docs/protocol-extensions.md).

A name moves no money, so no maintenance mode is needed. Names belong to the people at the
table, not to one game: a new game (B11) or a restored one keeps them. The unit's own display
never shows them (its five cells say digits); host tools and the simulator's banker panel do.

Run a few times an evening: protocol/extensions.py imports this module at the first NAME or
NAMES, so a unit whose host never asks keeps it off its heap.

The store keeps them (`get_names`, `put_names`): on flash (FileStore) two small files written in
turn, `bank.n0` and `bank.n1`, so a power cut while writing leaves the names of before (B17's
rule, kept for names too); a store in RAM (MemoryStore) on the store object.
"""

import jsonw
from brain.ledger import CARDS

MAX_LEN = 12


def get(store):
    """The six names, card 1 first: each a str or None."""
    return store.get_names()[1]


def put(store, card, text):
    """Card's name set (None clears it), durable on return; OSError leaves the old names."""
    gen, names = store.get_names()
    names = list(names)
    names[card - 1] = text
    store.put_names(gen + 1, names)


def as_json(names, damaged=False):
    """The six names as NAMES shows them; damaged: a names file does not read (the good copy
    is shown, and the object says so: "store": "damaged", B17)."""
    pairs = tuple((str(c), names[c - 1]) for c in range(1, CARDS + 1))
    return jsonw.dumps(pairs + (("store", "damaged"),) if damaged else pairs)


def command(store, name, args):
    """The reply to `NAMES` or `NAME <card> [text]` (args: the words after the command)."""
    if name == "NAMES":
        if args:
            return "ERR bad-argument NAMES takes no argument"
        try:
            got = get(store)
        except OSError:
            return "ERR store-failed the names could not be read"
        return "OK " + as_json(got, store.names_bad)
    card = args[0] if args else ""
    if len(card) != 1 or card < "1" or card > "9" or int(card) > CARDS:
        return "ERR bad-argument NAME <card 1-%d> [name: 1-%d printable characters]" % (
            CARDS, MAX_LEN)
    text = " ".join(args[1:])  # the protocol splits words at spaces; one space is kept
    if len(text) > MAX_LEN:
        return "ERR bad-argument a name is at most %d characters" % MAX_LEN
    try:
        put(store, int(card), text or None)
        got = get(store)
        return "OK " + as_json(got, store.names_bad)
    except OSError:
        return "ERR store-failed the name was not kept"
