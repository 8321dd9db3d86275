"""A JSON writer whose bytes are the same on every interpreter: the protocol's and the store's.

MicroPython's dicts keep no insertion order and its json escapes otherwise than CPython's, so
an object is a tuple of (key, value) pairs, written in order. Strings are escaped to ASCII
(\\uXXXX, surrogate pairs beyond U+FFFF), or with utf8 (the store's names) only their control
characters: MicroPython's json reads no surrogate pair back into one character.
"""


def _plain(s, utf8):
    for c in s:
        o = ord(c)
        if c == '"' or c == "\\" or o < 0x20 or (0x7F <= o and not (utf8 and o >= 0xA0)):
            return False
    return True


def _str(s, out, utf8=False):
    if _plain(s, utf8):  # most are: one piece, not one a character (LOG 200's list, a heap's)
        out.append('"' + s + '"')
        return
    out.append('"')
    for c in s:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif o < 0x20 or 0x7F <= o < 0xA0:
            out.append("\\u%04x" % o)
        elif o < 0x7F or utf8:
            out.append(c)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
        else:
            out.append("\\u%04x" % o)
    out.append('"')


def _write(v, out, utf8=False):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _str(v, out, utf8)
    elif isinstance(v, tuple):  # an object: ((key, value), ...)
        out.append("{")
        for i, (k, x) in enumerate(v):
            if i:
                out.append(", ")
            _str(k, out, utf8)
            out.append(": ")
            _write(x, out, utf8)
        out.append("}")
    elif isinstance(v, list):
        # Each item joined on its own: a long list is as many pieces as items, not as words,
        # and the whole is joined once, by dumps (one copy, not three).
        out.append("[")
        for i, x in enumerate(v):
            piece = [", "] if i else []
            _write(x, piece, utf8)
            out.append("".join(piece))
        out.append("]")
    elif isinstance(v, dict):  # keys whose order does not matter: sorted
        _write(tuple((k, v[k]) for k in sorted(v)), out, utf8)
    else:
        raise TypeError("cannot write %s" % type(v).__name__)


def dumps(v, utf8=False):
    out = []
    _write(v, out, utf8)
    return "".join(out)


def pieces(v, utf8=False):
    """An object's JSON a short string at a time, each made when asked for: its members one
    each, a list among them an item each (BACKUP's log), for a reply a unit sends while it
    reads its keys (App.write) and never holds whole."""
    if isinstance(v, dict):
        v = tuple((k, v[k]) for k in sorted(v))
    yield "{"
    for i, (k, x) in enumerate(v):
        head = (", " if i else "") + dumps(k, utf8) + ": "
        if isinstance(x, list):
            yield head + "["
            for j, item in enumerate(x):
                yield (", " if j else "") + dumps(item, utf8)
            yield "]"
        else:
            yield head + dumps(x, utf8)
    yield "}"
