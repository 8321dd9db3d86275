"""The simulator's TCP places (desktop/ports.py, docs/simulator.md "Serving"): eight clients at
once, and a place that a client holds without a word given to the next when all are taken."""

import time

from desktop.ports import IN, MAX_CLIENTS, SILENT_S, Link, Ports
from harness import Rig
from protocol import Protocol

LISTENER = 99


def served(silent_since):
    """Ports with MAX_CLIENTS clients, the first silent since silent_since (a time.time()), the
    rest having said HELLO; a next one waits on the listener. (ports, closed, the next's)"""
    rig = Rig()
    closed = []
    made = []

    def link(lines):
        proto = Protocol(rig.unit, rig.clock)
        got = list(lines)
        made.append(None)
        one = Link(proto, len(made), lambda: got.pop(0) if got else None, lambda b: len(b),
                   close=lambda: closed.append(one))
        return one

    nxt = []

    def accept():
        if ports.clients() >= MAX_CLIENTS:
            return None  # headless.accept's ERR busy
        nxt.append(link([b"HELLO\n"]))
        return nxt[0]

    ports = Ports(LISTENER, accept)
    first = link([])
    first.since = silent_since
    ports.links.append(first)
    for _ in range(MAX_CLIENTS - 1):
        ports.links.append(link([b"HELLO\n"]))
    ports.io([(link.key, IN) for link in ports.links])  # their HELLOs read and answered
    assert closed == [] and len(ports.links) == MAX_CLIENTS
    return ports, closed, nxt


def test_a_client_silent_for_seconds_gives_its_place_when_all_are_taken():
    # A web page's browser opens idle connections ahead (preconnect): they must not hold every
    # place from the banker's host tools
    ports, closed, nxt = served(time.time() - SILENT_S - 1)
    silent = ports.links[0]
    assert silent.silent and not [one for one in ports.links[1:] if one.silent]
    ports.io([(LISTENER, IN)])
    assert closed == [silent] and silent not in ports.links
    assert nxt and nxt[0] in ports.links and ports.clients() == MAX_CLIENTS


def test_a_client_that_just_came_keeps_its_place_and_the_next_is_told_busy():
    ports, closed, nxt = served(time.time())
    ports.io([(LISTENER, IN)])
    assert closed == [] and nxt == [] and ports.clients() == MAX_CLIENTS
