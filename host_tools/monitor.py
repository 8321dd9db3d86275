"""`bank monitor`: what happens on the unit, live, as its events come (docs/protocol.md,
"Events": tones, transactions, new games, switch-off), and the cards and the deal timer, which
the unit sends no event for: read from STATE every POLL seconds, and said when they change
(a card in and out between two readings is not seen).
"""

import datetime
import json
import signal
import sys
import time

from .errors import EXIT_OK, BankError, CommandError, UsageError
from .out import say

POLL = 0.5  # seconds between two readings of the cards and the deal timer


def _seen(state):
    """What monitor follows in a state: the card in each slot, the deal timer's phase."""
    slots = state["slots"]
    return {"L": slots["L"], "R": slots["R"], "deal": state["deal"]}


def _changes(before, now):
    """The events read from two states: ("card", {"slot", "card"}), ("deal", {"deal"})."""
    got = [("card", {"slot": s, "card": now[s]}) for s in ("L", "R") if now[s] != before[s]]
    if now["deal"] != before["deal"]:
        got.append(("deal", {"deal": now["deal"]}))
    return got


def _show(kind, data, json_out, read=False):
    stamp = datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]
    if json_out:
        doc = {"time": stamp, "type": kind, "data": data}
        if read:
            doc["read"] = "STATE"  # the host's reading, not an event line of the unit's
        say(json.dumps(doc))
    else:
        shown = "" if data is None else json.dumps(data)
        say(("%s  %-12s %s" % (stamp, kind, shown)).rstrip())


def cmd_monitor(bank, args):
    if args.seconds is not None and not args.seconds > 0:  # NaN too
        raise UsageError("--seconds is how long to watch: a number above 0")
    if args.count is not None and args.count < 1:
        raise UsageError("--count is how many events to show: a whole number above 0")
    bank.events.clear()  # only what happens from now on
    bank.events_on()
    sys.stderr.write("monitoring %s, Ctrl-C to stop\n" % bank.name)
    sys.stderr.flush()
    # A service manager's stop (or `timeout`'s) is Ctrl-C's: the unit's events turned off, the
    # count said, status 0.
    term = signal.signal(signal.SIGTERM, signal.default_int_handler)
    count = 0
    stop_at = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        last = _seen(bank.state())
        poll_at = time.monotonic() + POLL
    except CommandError:
        last = poll_at = None  # a unit that will not say its state: its events alone
    try:
        while args.count is None or count < args.count:
            now = time.monotonic()
            wait = min(0.5, max(0.0, poll_at - now)) if last is not None else 0.5
            if stop_at is not None:
                wait = min(wait, stop_at - now)
                if wait <= 0:
                    break
            event = bank.wait_event(wait)
            if event is not None:
                count += 1
                _show(event.type, event.data, args.json)
            if last is not None and time.monotonic() >= poll_at:
                seen = _seen(bank.state())  # events on the way stay for wait_event
                for kind, data in _changes(last, seen):
                    if args.count is None or count < args.count:
                        count += 1
                        _show(kind, data, args.json, read=True)
                last = seen
                poll_at = time.monotonic() + POLL
    except KeyboardInterrupt:
        pass
    try:
        bank.timeout = min(bank.timeout, 1.0)
        bank.events_off()
    except (BankError, KeyboardInterrupt):
        pass  # the unit may be gone; we are leaving anyway
    finally:
        signal.signal(signal.SIGTERM, term)
    sys.stderr.write("stopped after %d event%s\n" % (count, "" if count == 1 else "s"))
    return EXIT_OK
