"""A JSON writer whose bytes are the same on every interpreter: the protocol's replies and
events (the protocol's rule), and the JSON in the store's lines. Neither owns it: both import it,
and it imports nothing.

MicroPython's dicts do not keep insertion order and its `json` has no `separators`, so objects
are written from a tuple of (key, value) pairs, in that order, with ", " and ": ". Lists are
arrays. Strings are escaped to plain ASCII.
"""


def _str(s, out):
    out.append('"')
    for c in s:
        o = ord(c)
        if c == '"' or c == "\\":
            out.append("\\" + c)
        elif o < 0x20 or o > 0x7E:
            out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')


def _write(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _str(v, out)
    elif isinstance(v, tuple):  # an object: ((key, value), ...)
        out.append("{")
        first = True
        for k, x in v:
            if not first:
                out.append(", ")
            first = False
            _str(k, out)
            out.append(": ")
            _write(x, out)
        out.append("}")
    elif isinstance(v, list):
        out.append("[")
        first = True
        for x in v:
            if not first:
                out.append(", ")
            first = False
            _write(x, out)
        out.append("]")
    elif isinstance(v, dict):  # only for keys whose order does not matter: sort them
        _write(tuple((k, v[k]) for k in sorted(v)), out)
    else:
        raise TypeError("cannot write %s" % type(v).__name__)


def dumps(v):
    out = []
    _write(v, out)
    return "".join(out)
