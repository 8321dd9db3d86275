"""Player names: the protocol extension NAME / NAMES (docs/protocol-extensions.md).

A name moves no money, so no maintenance mode is needed. Names belong to the people at the
table, not to one game: a new game (B11) or a restored one keeps them. The store writes them to
two small files in turn, so a power cut while writing leaves the names of before (B17's rule).

A name is any text (UTF-8 on the wire and on flash) of at most MAX_LEN characters (code points)
and MAX_BYTES bytes of UTF-8, with no control character (CONTROL): the only text of the protocol
that may be other than ASCII (docs/protocol.md, "Lines").
"""

import jsonw
from brain.ledger import CARDS

MAX_LEN = 16
# Every name of MAX_LEN characters from the Basic Multilingual Plane fits (3 bytes each at most);
# one with characters beyond it (4 bytes: emoji, rare ideographs) may not. The bound keeps the
# names file one short line on flash.
MAX_BYTES = 48

# Code points a name may not hold, as (first, last): C0, DEL and C1, and the Unicode controls
# that move the text around it (line and paragraph separators, bidirectional embeddings,
# overrides and isolates), which would garble a host's table or log.
CONTROL = ((0, 0x1F), (0x7F, 0x9F), (0x2028, 0x202E), (0x2066, 0x2069))
# What shows nothing alone, as (first, last): the spaces of every script, the zero-width ones
# (joiners, marks of direction, invisible operators, variation selectors, tags) and the
# fillers (soft hyphen, Hangul's, the Braille blank). A name of these alone is no name, as one
# of spaces is. Taken within a name, and not refused: names written before this was checked
# must still read (the store checks stored names by refusal()).
BLANK = ((0x20, 0x20), (0xA0, 0xA0), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C),
         (0x115F, 0x1160), (0x1680, 0x1680), (0x17B4, 0x17B5), (0x180B, 0x180F),
         (0x2000, 0x200F), (0x202F, 0x202F), (0x205F, 0x2064), (0x206A, 0x206F),
         (0x2800, 0x2800), (0x3000, 0x3000), (0x3164, 0x3164), (0xFE00, 0xFE0F),
         (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _utf8(b):
    """b (bytes) as str if it is UTF-8 as RFC 3629 has it (no overlong form, no surrogate,
    nothing past U+10FFFF), else None. Checked here, byte by byte: MicroPython's decode takes
    overlong forms and surrogates that CPython refuses, and both must answer alike."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            k, lo, hi = 1, 0x80, 0xBF
        elif 0xE0 <= c <= 0xEF:  # no overlong form (E0), no surrogate (ED)
            k, lo, hi = 2, 0xA0 if c == 0xE0 else 0x80, 0x9F if c == 0xED else 0xBF
        elif 0xF0 <= c <= 0xF4:  # no overlong form (F0), nothing past U+10FFFF (F4)
            k, lo, hi = 3, 0x90 if c == 0xF0 else 0x80, 0x8F if c == 0xF4 else 0xBF
        else:
            return None
        if i + k >= n or not lo <= b[i + 1] <= hi:
            return None
        for j in range(i + 2, i + k + 1):
            if not 0x80 <= b[j] <= 0xBF:
                return None
        i += k + 1
    return b.decode()


NOT_UTF8 = "a line is ASCII, or UTF-8 in a name"


def wide_line(raw):
    """(line as str, None) for a line (bytes, printable, not all ASCII) that is a NAME whose
    text alone is other than ASCII, or (None, why not) for ERR bad-line."""
    line = _utf8(raw)
    if line is None:
        return None, NOT_UTF8
    head = [w for w in line.replace("\t", " ").replace("\r", " ").split(" ") if w][:2]
    if head[0].upper() != "NAME" or [c for w in head for c in w if ord(c) > 0x7E]:
        return None, "only a name may be other than ASCII (NAME <card> <name>)"
    return line, None


def whole(s):
    """A non-negative whole number written in decimal digits (at most 12), or None."""
    if not s or len(s) > 12:
        return None
    for c in s:
        if c < "0" or c > "9":
            return None
    return int(s)


def refusal(text):
    """Why text cannot be a name ("long", "bytes" or "control"), or None if it can: the unit's
    check, which the simulator's panel and page also make to say it in the player's language
    (desktop/words.py, "name.<why>")."""
    if any(lo <= ord(c) <= hi for c in text for lo, hi in CONTROL):
        return "control"
    if len(text) > MAX_LEN:
        return "long"
    if len(text.encode()) > MAX_BYTES:
        return "bytes"
    return None


WHY = {
    "long": "a name is at most %d characters" % MAX_LEN,
    "bytes": "a name is at most %d bytes of UTF-8" % MAX_BYTES,
    "control": "a name has no control characters",
}


def get(store):
    """The six names, card 1 first: each a str or None."""
    return store.names()[1]


def put(store, card, text, ledger=None):
    """Card's name set (None clears it), durable on return: the six names kept; OSError leaves
    the old names. ledger: the game in play, whose checkpoint says damage the write covers
    (B17)."""
    gen, names, _ = store.names()
    names = list(names)
    names[card - 1] = text
    store.put_names(gen + 1, names, ledger)
    return names


def listing(store, kept=None):
    """OK and the six names as NAMES shows them (a names file that does not read: the good
    copy, and "store": "damaged", B17); kept: the names just kept, answered if they cannot be
    read back (they are kept: no refusal)."""
    bad = False
    try:
        _, got, bad = store.names()
    except OSError:
        if kept is None:
            return "ERR store-failed the names could not be read"
        got = kept
    pairs = tuple((str(c), got[c - 1]) for c in range(1, CARDS + 1))
    return "OK " + jsonw.dumps(pairs + (("store", "damaged"),) if bad else pairs)


def name(ledger, args):
    """The reply to `NAME <card> [text]` (`NAME 02` is card 2, as `INSERT L 02` is)."""
    store = ledger.store
    card = whole(args[0]) if args else None
    if card is None or not 1 <= card <= CARDS:
        return "ERR bad-argument NAME <card 1-%d> [name: 1-%d characters]" % (CARDS, MAX_LEN)
    text = " ".join(args[1:])  # the protocol splits words at spaces; one space is kept
    why = refusal(text)
    if why:
        return "ERR bad-argument " + WHY[why]
    if not [c for c in text if not [1 for lo, hi in BLANK if lo <= ord(c) <= hi]]:
        text = None
    try:
        kept = put(store, card, text, ledger)
    except OSError:
        return "ERR store-failed the name was not kept"
    return listing(store, kept)
