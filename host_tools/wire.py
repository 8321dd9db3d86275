"""The lines of serial protocol v1 (docs/protocol.md) as the host reads and writes them:
replies (`OK`, `OK <json>`, `ERR <code> [message]`), event lines (`! <type> <json>`) and the
key words of `KEY`.
"""

import collections
import json
import re

from .errors import ProtocolError

KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M", "K", "C", "DEAL", "+", "-")

PROTOCOL = 1  # the serial protocol these tools speak (docs/protocol.md)
_CODE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_WORD = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

Event = collections.namedtuple("Event", "type data line")


class Reply(collections.namedtuple("Reply", "line ok payload code message events")):
    """One parsed reply. `payload` is the decoded JSON after `OK` (None for a bare `OK`);
    `code`/`message` are set for `ERR`; `events` are the event lines that came before it."""


def loads(text, **kw):
    """json.loads as the protocol's JSON is: NaN and Infinity are no JSON (ValueError), lest a
    host's --json output or a backup file carry them on to stricter readers."""
    return json.loads(text, parse_constant=_no_constant, **kw)


def _no_constant(name):
    raise ValueError("%s is no JSON number" % name)


def printable(text, limit=80):
    """`text` safe to show a user: unprintable characters escaped, long text shortened."""
    shown = "".join(c if " " <= c <= "~" else ascii(c)[1:-1] for c in text)
    if len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return shown


def parse_event(line):
    """`! <type> <json>` -> Event, or raise ProtocolError."""
    parts = line[2:].split(" ", 1)
    if not _WORD.match(parts[0]):
        raise ProtocolError("unparseable event line from the unit: '%s'" % printable(line))
    data = None
    if len(parts) > 1 and parts[1].strip():
        try:
            data = loads(parts[1])
        except (ValueError, RecursionError):  # a nesting too deep to read is no event either
            raise ProtocolError(
                "unparseable event line from the unit: '%s'" % printable(line)
            ) from None
    return Event(parts[0], data, line)


def parse_reply(line, events=(), command=""):
    """One reply line -> Reply, or raise ProtocolError naming the command it answered."""
    if line == "OK":
        return Reply(line, True, None, None, None, list(events))
    if line.startswith("OK "):
        try:
            payload = loads(line[3:])
        except (ValueError, RecursionError):  # nesting too deep to read: no reply of a unit's
            payload = _BAD
        if payload is not _BAD:
            return Reply(line, True, payload, None, None, list(events))
    elif line.startswith("ERR "):
        code, _, message = line[4:].partition(" ")
        if _CODE.match(code):
            return Reply(line, False, None, code, message, list(events))
    raise ProtocolError(
        "unparseable reply%s: '%s' (is this a bank unit running protocol 1?)"
        % (" to '%s'" % command if command else "", printable(line))
    )


_BAD = object()


def split_keys(keys):
    """Key arguments -> protocol key words. "150K" and "1 5 0 K" both give 1 5 0 K; DEAL is
    one key, and D is DEAL as in the window. Raises ValueError naming the first thing that is
    not a key."""
    words = []
    for arg in keys:
        for part in str(arg).split():
            up = part.upper().replace("\u2212", "-")  # the red key as the docs write it, −
            if up == "DEAL":
                words.append(up)
                continue
            for ch in up:
                if ch == "D":
                    words.append("DEAL")
                    continue
                if ch not in KEYS:
                    raise ValueError("'%s' is not a key (keys: %s; D is DEAL)"
                                     % (printable(part), " ".join(KEYS)))
                words.append(ch)
    if not words:
        raise ValueError("no keys given")
    return words


def bank_hello(info, name):
    """HELLO's payload from `name`, if a bank unit's speaking PROTOCOL; else ProtocolError, and
    nothing more is sent to it (another protocol's commands may mean otherwise: money)."""
    if info.get("device") != "bank-unit":
        raise ProtocolError("%s answered HELLO but is not a bank unit: '%s'"
                            % (name, printable(json.dumps(info))))
    if type(info.get("protocol")) is int and info["protocol"] != PROTOCOL:
        raise ProtocolError("%s speaks serial protocol %d; these host tools speak %d only: use "
                            "the host tools that came with its firmware"
                            % (name, info["protocol"], PROTOCOL))
    return info

