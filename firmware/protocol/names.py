"""Player names: the protocol extension NAME / NAMES (docs/protocol-extensions.md).

A name moves no money, so no maintenance mode is needed. Names belong to the people at the
table, not to one game: a new game (B11) or a restored one keeps them. The unit's own display
never shows them (its five cells say digits); host tools and the simulator's banker panel do.

Run a few times an evening: protocol.py imports this module at the first NAME or NAMES, so a
unit whose host never asks keeps it off its heap.

On flash (FileStore) they are two small files written in turn, `bank.n0` and `bank.n1`, each
one line `<crc32 hex8> <gen> <JSON list of 6 names or nulls>`. Boot never reads them; NAMES takes
the newest whole file. A write goes to the file the newest one is not in, so a power cut while
writing leaves the names of before (B17's rule, kept for names too). A store written before names
existed has neither file: no names. A store in RAM (the simulator without --state, tests) keeps
them on the store object.
"""

import json

from store import jsonw
from store import crc32, line

FILES = ("bank.n0", "bank.n1")
CARDS = 6
MAX_LEN = 12
NO_NAMES = (0, (None,) * CARDS)


def _paths(store):
    d = getattr(store, "dir", None)
    return None if d is None else (d + FILES[0], d + FILES[1])


def _parse(raw):
    """(gen, names) from one file's bytes, or None if it is not whole."""
    if len(raw) < 10 or raw[-1:] != b"\n" or raw[8:9] != b" ":
        return None
    payload = raw[9:-1]
    try:
        if int(raw[:8], 16) != crc32(payload) & 0xFFFFFFFF:
            return None
        gen, body = payload.decode().split(" ", 1)
        names = json.loads(body)
    except ValueError:  # a torn or foreign line
        return None
    if not isinstance(names, list) or len(names) != CARDS:
        return None
    for n in names:
        if n is not None and not isinstance(n, str):
            return None
    return int(gen), tuple(names)


def _newest(store):
    """(gen, names) of the newest whole file (NO_NAMES if none is)."""
    paths = _paths(store)
    if paths is None:
        return getattr(store, "names", None) or NO_NAMES
    best = NO_NAMES
    for p in paths:
        try:
            f = store.fs.open(p, "rb")
        except OSError:
            continue
        try:
            got = _parse(f.readline())
        except OSError:
            got = None
        finally:
            f.close()
        if got is not None and got[0] > best[0]:
            best = got
    return best


def get(store):
    """The six names, card 1 first: each a str or None."""
    return _newest(store)[1]


def put(store, card, text):
    """Card's name set (None clears it), durable on return; OSError leaves the old names."""
    gen, names = _newest(store)
    names = list(names)
    names[card - 1] = text
    gen += 1
    paths = _paths(store)
    if paths is None:
        store.names = (gen, tuple(names))
        return
    f = store.fs.open(paths[gen % 2], "wb")  # never the file holding the newest names
    try:
        f.write(line("%d %s" % (gen, jsonw.dumps(names))))
    except BaseException:
        f.close()
        raise
    store.fs.done(f)


def as_json(names):
    return jsonw.dumps(tuple((str(c), names[c - 1]) for c in range(1, CARDS + 1)))


def command(store, name, args):
    """The reply to `NAMES` or `NAME <card> [text]` (args: the words after the command)."""
    if name == "NAMES":
        if args:
            return "ERR bad-argument NAMES takes no argument"
        try:
            return "OK " + as_json(get(store))
        except OSError:
            return "ERR store-failed the names could not be read"
    card = args[0] if args else ""
    if len(card) != 1 or card < "1" or card > "6":
        return "ERR bad-argument NAME <card 1-6> [name: 1-%d printable characters]" % MAX_LEN
    text = " ".join(args[1:])  # the protocol splits words at spaces; one space is kept
    if len(text) > MAX_LEN:
        return "ERR bad-argument a name is at most %d characters" % MAX_LEN
    try:
        put(store, int(card), text or None)
        return "OK " + as_json(get(store))
    except OSError:
        return "ERR store-failed the name was not kept"
