"""What every phone at the table shows, kept from the unit's own protocol (docs/table.md).

One `Table` per served game: whatever feeds it (the simulator's own unit over a read-only line,
a real unit through host_tools.Bank, the page that is itself a unit) hands it the replies to
the protocol's read-only commands (`snapshot`: HELLO, STATE, BALANCES, LOG, NAMES; `state`,
`names` when polled) and its events (`event`: `! txn` with the balances it left, `! newgame`,
`! power`, game night's `! pot`, `! clock` and `! count`), and says when the unit stops
answering (`lost`). The phones' stream subscribes (`subscribe`): its first message is the whole
view, the history included, then one message a change, each numbered (`v`), so a phone that
misses one knows to ask for the whole again.

Nothing here decides a rule: balances are the unit's, amounts are put in words by the unit's
own money format (desktop/words.py, as the window shows them), the count's places by the
unit's own ranking (brain/count.py, B19). Input is checked before it is kept (a feed that
sends nonsense changes nothing). Thread-safe: the feeds and the phones' stream run in threads
of their own.
"""

import json
import queue
import threading

from brain.count import ranking
from brain.ledger import CARDS
from desktop import words
from desktop.reads import LOG_KEPT

CLOSED = object()  # what a subscriber's queue holds when the stream must end
QUEUE_MAX = 2000  # messages waiting for one phone before it is let go (it asks again)
CARD_KEYS = tuple(str(c) for c in range(1, CARDS + 1))
ACCOUNT_KEYS = CARD_KEYS + ("pot",)  # a transaction's balances: the cards', the pot's (B22)


class Bad(ValueError):
    """What a feed sent is not what the protocol gives: nothing kept."""


def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _card(v):
    # The Free Parking pot is an account too (B22): money goes into it and is collected
    return v if v in ("bank", "pot") or (_whole(v) and 1 <= v <= CARDS) else None


def checked_txn(t):
    """A transaction as the protocol shows it (docs/protocol.md, "A transaction"), checked;
    Bad otherwise."""
    if not isinstance(t, dict) or not _whole(t.get("seq")) or not isinstance(t.get("kind"), str):
        raise Bad("not a transaction")
    if _card(t.get("from")) is None or _card(t.get("to")) is None or not _whole(t.get("amount")):
        raise Bad("not a transaction")
    bal = t.get("balances")
    if not isinstance(bal, dict) or not all(k in ACCOUNT_KEYS and _whole(v)
                                            for k, v in bal.items()):
        raise Bad("not a transaction's balances")
    out = {"seq": t["seq"], "kind": t["kind"][:16], "from": t["from"], "to": t["to"],
           "amount": t["amount"], "balances": dict(bal)}
    if _whole(t.get("undoes")):
        out["undoes"] = t["undoes"]
    if isinstance(t.get("profile"), str):
        out["profile"] = t["profile"][:16]
    return out


def checked_balances(b):
    if not isinstance(b, dict) or sorted(b) != sorted(CARD_KEYS) or \
            not all(_whole(v) for v in b.values()):
        raise Bad("not the six balances")
    return {int(k): v for k, v in b.items()}


def checked_names(n):
    if not isinstance(n, dict):
        raise Bad("not the names")
    out = {}
    for c in range(1, CARDS + 1):
        name = n.get(str(c))
        out[c] = name[:48] if isinstance(name, str) and name else None
    return out


def checked_state(s):
    if not isinstance(s, dict) or s.get("power") not in ("on", "off"):
        raise Bad("not a state")
    shown = s.get("display")
    # What the phones say of the unit's state: only what changes it (not the display's every
    # digit), and Err6, the one thing the display alone says (no good copy of the game).
    return {"power": s["power"], "maintenance": s.get("maintenance") is True,
            "deal": s.get("deal") if s.get("deal") in ("idle", "running", "ending", "done")
            else "idle",
            "damaged": s.get("error") == "store-damaged",
            "no_game": isinstance(shown, dict) and shown.get("text") == "Err6"}


def _flag(v):
    return v is True or v is False


def checked_pot(v):
    """STATE's "pot": None while the pot is off and empty, else the money in it (B22)."""
    if v is not None and not _whole(v):
        raise Bad("not the pot")
    return v


def checked_clock(c):
    """STATE's "clock" (B20) as the phones show it: None, or its length, the minutes left as
    the other bodies say them (whole minutes, rounded up), whether it runs, whether it is over.
    Kept in minutes so that a STATE polled while it runs changes nothing between minutes."""
    if c is None:
        return None
    if not isinstance(c, dict) or not _whole(c.get("minutes")) or not _whole(c.get("left")) \
            or not _flag(c.get("running")) or not _flag(c.get("over")):
        raise Bad("not the game clock")
    return {"minutes": c["minutes"], "min_left": words.minutes_left(c["left"]),
            "running": c["running"], "over": c["over"]}


def checked_count(c):
    """STATE's "count" (B19): None, or whether it is on and each card's count."""
    if c is None:
        return None
    cards = c.get("cards") if isinstance(c, dict) else None
    if not isinstance(cards, dict) or not _flag(c.get("on")) or \
            not all(k in CARD_KEYS and _whole(v) for k, v in cards.items()):
        raise Bad("not the count")
    return {"on": c["on"], "cards": {int(k): v for k, v in cards.items()}}


NIGHT = {"pot": checked_pot, "clock": checked_clock, "count": checked_count}


def checked_snapshot(hello, state, balances, log, names=None):
    """Table.snapshot's parts checked: (state, night, balances, log, names); Bad at the first
    that is not what the protocol gives."""
    if not isinstance(hello, dict) or hello.get("device") != "bank-unit":
        raise Bad("not a bank unit's HELLO")
    bal = {} if balances is None else checked_balances(balances)  # None: Err6's none
    if not isinstance(log, list):
        raise Bad("not a log")
    named = checked_names(names) if names is not None else {c: None for c in range(1, CARDS + 1)}
    return (checked_state(state), checked_night(state), bal,
            [checked_txn(t) for t in log][-LOG_KEPT:], named)


def checked_event(kind, data):
    """An event's data as the table keeps it (a txn's, a new game's with its balances checked,
    a power event's, game night's value); Bad, and nothing changed, when a unit sends no such
    event. Others (a tone) are kept as they come: they change nothing."""
    if kind == "txn":
        return checked_txn(data)
    if kind in ("newgame", "power") or kind in NIGHT:
        if not isinstance(data, dict):
            raise Bad("not a %s event" % kind)
    if kind == "newgame":
        return dict(data, balances=checked_balances(data.get("balances")))
    if kind == "power" and data.get("power") not in ("on", "off"):
        raise Bad("not a power event")
    if kind in NIGHT:
        return NIGHT[kind](data.get(kind))
    return data


def checked_night(s):
    """Game night's keys of a STATE (B19-B22), each checked; a unit from before game night has
    none of them: nothing on."""
    return {k: check(s.get(k)) for k, check in NIGHT.items()}


class Subscriber:
    """One phone's stream: the messages for it, in order."""

    def __init__(self):
        self.q = queue.Queue(QUEUE_MAX)
        self.dropped = False

    def put(self, msg):
        try:
            self.q.put_nowait(msg)
        except queue.Full:
            self.dropped = True  # it reads too slowly: let go, it asks for the whole again

    def get(self, timeout):
        """The next message, None when timeout passed, or CLOSED."""
        if self.dropped:
            return CLOSED
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return None


class Table:
    def __init__(self, ping_ms=5000, most=64):
        self.lock = threading.Lock()
        self.ping_ms = ping_ms  # how often a phone hears from the stream when nothing moves
        self.most = most  # phones at once
        self.subs = []
        self.v = 0
        self.unit = "waiting"  # "live": the unit answers; "gone": it stopped (unplugged...)
        self.profile = None
        self.state = None
        self.balances = None
        self.names = {c: None for c in range(1, CARDS + 1)}
        self.log = []
        self.night = checked_night({})  # the pot, the game clock, the count (B19-B22)
        self.closed = False

    # -- what the feeds hand in ---------------------------------------------------------------

    def snapshot(self, hello, state, balances, log, names=None):
        """The whole game as the unit answers HELLO, STATE, BALANCES, LOG and NAMES (None: a
        unit without NAMES); Bad, and nothing kept, when any is not what the protocol gives."""
        st, night, bal, recs, named = checked_snapshot(hello, state, balances, log, names)
        with self.lock:
            self.profile = hello.get("profile") if isinstance(hello.get("profile"), str) \
                else None
            self.state = st
            self.night = night
            self.balances = bal
            self.log = recs
            self.names = named
            self.unit = "live"
            self._publish("snapshot")

    def event(self, kind, data):
        """An event line of the unit's (`! txn`, `! newgame`, `! power`, `! pot`, `! clock`,
        `! count`, `! lost`; others change nothing here). Returns True when what it says needs
        the whole game read again (a restore: the history it brought back is not in the event;
        events the unit dropped while this line was not read)."""
        with self.lock:
            if self.balances is None:
                return False  # no snapshot yet: the one coming has it
            if kind == "lost":
                return True
            got = checked_event(kind, data)
            if kind == "txn":
                t = got
                self._moved(t["balances"])
                if t["kind"] == "restore" and isinstance(t.get("profile"), str):
                    self.profile = t["profile"]
                fresh = not self.log or t["seq"] > self.log[-1]["seq"]
                if fresh:
                    self.log.append(t)
                    del self.log[:-LOG_KEPT]
                self._publish("update", t if fresh else None)
                return t["kind"] == "restore"
            if kind == "newgame":
                self.balances = got["balances"]
                if isinstance(got.get("profile"), str):
                    self.profile = got["profile"]
                self.log = []
                # B11: the pot emptied (its setting stays), the clock and the count gone
                pot = self.night["pot"]
                self.night = {"pot": None if pot is None else 0, "clock": None, "count": None}
                self._publish("snapshot")
                return False
            if kind == "power":
                if self.state is not None and self.state["power"] != got["power"]:
                    self.state = dict(self.state, power=got["power"])
                    if got["power"] == "off":
                        self.state.update(maintenance=False, deal="idle")
                    self._publish("update")
            if kind in NIGHT:
                if got != self.night[kind]:
                    self.night = dict(self.night, **{kind: got})
                    self._publish("update")
            return False

    def _moved(self, after):
        """Under the lock: the balances a transaction left (a card's, the pot's). A count
        follows its card's balance (B19: its balance plus what was added), so it moves by as
        much."""
        count = self.night["count"]
        if count is not None:
            count = dict(count, cards=dict(count["cards"]))
        for k, v in after.items():
            if k == "pot":
                self.night = dict(self.night, pot=v)
                continue
            card = int(k)
            if count is not None and card in count["cards"] and card in self.balances:
                count["cards"][card] += v - self.balances[card]
            self.balances[card] = v
        if count is not None:
            self.night = dict(self.night, count=count)

    def polled_state(self, state):
        st = checked_state(state)
        night = checked_night(state)
        with self.lock:
            if self.state is not None and (st != self.state or night != self.night):
                self.state = st
                self.night = night
                self._publish("update")

    def polled_names(self, names):
        named = checked_names(names)
        with self.lock:
            if named != self.names:
                self.names = named
                self._publish("update")

    def lost(self):
        """The unit stopped answering (unplugged, restarting, its page closed): the phones say
        so, with what it last gave."""
        with self.lock:
            if self.unit != "gone":
                self.unit = "gone"
                self._publish("update")

    def close(self):
        """The server stops: every phone's stream ends (the phones say they are not
        connected, and come back by themselves when a server serves the game again)."""
        with self.lock:
            self.closed = True
            for s in self.subs:
                s.put(CLOSED)
            self.subs = []

    # -- what the phones get ------------------------------------------------------------------

    def subscribe(self):
        """A new phone's stream, its first message the whole view; None when `most` phones
        are already following (or the server is stopping)."""
        with self.lock:
            if self.closed or len(self.subs) >= self.most:
                return None
            s = Subscriber()
            s.put(("snapshot", self.v, self._text(True)))
            self.subs.append(s)
            return s

    def unsubscribe(self, s):
        with self.lock:
            if s in self.subs:
                self.subs.remove(s)

    def whole(self):
        """The whole view as a phone's first message has it (tests, the bench)."""
        with self.lock:
            return json.loads(self._text(True))

    def _shown(self, amount):
        return words.amount(amount, self.profile)

    def _night(self):
        """Game night as a phone shows it: the pot's money, the clock in minutes, the count's
        ranking (places shared by equal counts, as the unit names them: B19), each amount in
        the unit's words."""
        pot, clock, count = self.night["pot"], self.night["clock"], self.night["count"]
        out = {"pot": pot, "pot_shown": None if pot is None else self._shown(pot),
               "clock": clock, "count": None}
        if count is not None:
            rows = ranking(sorted(count["cards"].items()))
            out["count"] = {"on": count["on"], "rows": [
                [place, card, n, self._shown(n)] for place, card, n in rows]}
        return out

    def _view(self):
        bal = self.balances or {}
        state = dict(self.state) if self.state else None
        return {"v": self.v, "unit": self.unit, "profile": self.profile, "state": state,
                "names": {str(c): n for c, n in self.names.items()},
                "balances": {str(c): v for c, v in sorted(bal.items())},
                "shown": {str(c): self._shown(v) for c, v in sorted(bal.items())},
                "night": self._night(), "ping_ms": self.ping_ms}

    def _txn(self, t):
        return dict(t, shown=self._shown(t["amount"]),
                    shown_balances={k: self._shown(v) for k, v in t["balances"].items()})

    def _text(self, whole, txn=None):
        view = self._view()
        if whole:
            view["log"] = [self._txn(t) for t in self.log]
        else:
            view["txn"] = None if txn is None else self._txn(txn)
        return json.dumps(view, separators=(",", ":"))

    def _publish(self, kind, txn=None):
        """Under the lock: one message more, numbered, to every phone."""
        self.v += 1
        text = self._text(kind == "snapshot", txn)
        for s in self.subs:
            s.put((kind, self.v, text))
