"""What every phone at the table shows, kept from the unit's own protocol (docs/table.md).

One `Table` per served game: whatever feeds it (the simulator's own unit over a read-only line,
a real unit through host_tools.Bank, the page that is itself a unit) hands it the replies to
the protocol's read-only commands (`snapshot`: HELLO, STATE, BALANCES, LOG, NAMES; `state`,
`names` when polled) and its events (`event`: `! txn` with the balances it left, `! newgame`,
`! power`), and says when the unit stops answering (`lost`). The phones' stream subscribes
(`subscribe`): its first message is the whole view, the history included, then one message a
change, each numbered (`v`), so a phone that misses one knows to ask for the whole again.

Nothing here decides a rule: balances are the unit's, amounts are put in words by the unit's
own money format (desktop/words.py, as the window shows them). Input is checked before it is
kept (a feed that sends nonsense changes nothing). Thread-safe: the feeds and the phones'
stream run in threads of their own.
"""

import json
import queue
import threading

from brain.ledger import CARDS
from desktop import words
from desktop.reads import LOG_KEPT
CLOSED = object()  # what a subscriber's queue holds when the stream must end
QUEUE_MAX = 2000  # messages waiting for one phone before it is let go (it asks again)
CARD_KEYS = tuple(str(c) for c in range(1, CARDS + 1))


class Bad(ValueError):
    """What a feed sent is not what the protocol gives: nothing kept."""


def _whole(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _card(v):
    return v if v == "bank" or (_whole(v) and 1 <= v <= CARDS) else None


def checked_txn(t):
    """A transaction as the protocol shows it (docs/protocol.md, "A transaction"), checked;
    Bad otherwise."""
    if not isinstance(t, dict) or not _whole(t.get("seq")) or not isinstance(t.get("kind"), str):
        raise Bad("not a transaction")
    if _card(t.get("from")) is None or _card(t.get("to")) is None or not _whole(t.get("amount")):
        raise Bad("not a transaction")
    bal = t.get("balances")
    if not isinstance(bal, dict) or not all(k in CARD_KEYS and _whole(v) for k, v in bal.items()):
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
        self.closed = False

    # -- what the feeds hand in ---------------------------------------------------------------

    def snapshot(self, hello, state, balances, log, names=None):
        """The whole game as the unit answers HELLO, STATE, BALANCES, LOG and NAMES (None: a
        unit without NAMES); Bad, and nothing kept, when any is not what the protocol gives."""
        if not isinstance(hello, dict) or hello.get("device") != "bank-unit":
            raise Bad("not a bank unit's HELLO")
        st = checked_state(state)
        bal = {} if balances is None else checked_balances(balances)  # None: Err6's none
        if not isinstance(log, list):
            raise Bad("not a log")
        recs = [checked_txn(t) for t in log][-LOG_KEPT:]
        named = checked_names(names) if names is not None else \
            {c: None for c in range(1, CARDS + 1)}
        with self.lock:
            self.profile = hello.get("profile") if isinstance(hello.get("profile"), str) \
                else None
            self.state = st
            self.balances = bal
            self.log = recs
            self.names = named
            self.unit = "live"
            self._publish("snapshot")

    def event(self, kind, data):
        """An event line of the unit's (`! txn`, `! newgame`, `! power`; others change nothing
        here). Returns True when what it says needs the whole game read again (a restore: the
        history it brought back is not in the event)."""
        with self.lock:
            if self.balances is None:
                return False  # no snapshot yet: the one coming has it
            if kind == "txn":
                t = checked_txn(data)
                for k, v in t["balances"].items():
                    self.balances[int(k)] = v
                if t["kind"] == "restore" and isinstance(t.get("profile"), str):
                    self.profile = t["profile"]
                fresh = not self.log or t["seq"] > self.log[-1]["seq"]
                if fresh:
                    self.log.append(t)
                    del self.log[:-LOG_KEPT]
                self._publish("update", t if fresh else None)
                return t["kind"] == "restore"
            if kind == "newgame":
                if not isinstance(data, dict):
                    raise Bad("not a new game")
                bal = checked_balances(data.get("balances"))
                self.balances = bal
                if isinstance(data.get("profile"), str):
                    self.profile = data["profile"]
                self.log = []
                self._publish("snapshot")
                return False
            if kind == "power":
                if not isinstance(data, dict) or data.get("power") not in ("on", "off"):
                    raise Bad("not a power event")
                if self.state is not None and self.state["power"] != data["power"]:
                    self.state = dict(self.state, power=data["power"])
                    if data["power"] == "off":
                        self.state.update(maintenance=False, deal="idle")
                    self._publish("update")
            return False

    def polled_state(self, state):
        st = checked_state(state)
        with self.lock:
            if self.state is not None and st != self.state:
                self.state = st
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

    def _view(self):
        bal = self.balances or {}
        state = dict(self.state) if self.state else None
        return {"v": self.v, "unit": self.unit, "profile": self.profile, "state": state,
                "names": {str(c): n for c, n in self.names.items()},
                "balances": {str(c): v for c, v in sorted(bal.items())},
                "shown": {str(c): self._shown(v) for c, v in sorted(bal.items())},
                "ping_ms": self.ping_ms}

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
