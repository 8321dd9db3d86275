"""`Bank`: a unit (or a simulator) spoken to over serial protocol v1 (docs/protocol.md).

    with Bank.open("socket://127.0.0.1:5000") as bank:
        bank.insert("L", 1)
        bank.press("1", "5", "0", "K", "+")
        print(bank.balances()[1])

Every call sends one command line and waits for its one reply. Event lines (`! <type> <json>`,
after `EVENTS ON`) that arrive before a reply are collected in `bank.events` (and passed to
`bank.on_event` if set), never mistaken for the reply.
"""

import collections
import json
import time

import serial

from .errors import (BankError, CommandError, DisconnectedError, ProtocolError, Refused,
                     ReplyTimeout, SimulatorFullError)
from . import shapes
from .link import close_socket_quickly, open_port, resolve_port
from .out import balances_or_none, names_of, refusal
from .wire import (KEYS, Event, Reply, bank_hello, parse_event, parse_reply, printable,
                   split_keys)

# Many times a unit's longest reply (BACKUP, LOG 200): a line past this is no reply. One still
# coming is waited for at PACE bytes a second at the least, well under what a Pico sends.
MAX_REPLY, PACE = 256 * 1024, 1000

__all__ = ["Bank", "Event", "Reply", "KEYS", "parse_event", "parse_reply", "printable",
           "split_keys"]

STALE_PEEK = 4096  # bytes of stale input looked at for a refusal before the rest is dropped
MAX_LINE = 200  # host -> unit limit (docs/protocol.md); unit -> host lines may be longer (BACKUP)
POLL = 0.05  # seconds a single read may block; replies still arrive as soon as they are sent


class Bank:
    """A connection to one unit. Build it with `Bank.open(port)`; `Bank(port_object)` takes
    anything with pyserial's `read`/`write`/`in_waiting`/`close` (tests use in-process ports)."""

    def __init__(self, port, timeout=2.0, name="unit"):
        self.port = port
        self.name = name
        self.timeout = timeout
        self.events = collections.deque(maxlen=10000)
        self.on_event = None
        self.info = None  # the last HELLO payload
        self._buf = bytearray()
        self._closed = False
        self._busy = None  # the message of an `ERR busy` found among the stale input

    # -- opening and closing -------------------------------------------------------------------
    @classmethod
    def open(cls, port=None, timeout=2.0, hello=True):
        """Open `port` (device path, pyserial URL, or None: find the Pico) and, unless
        hello=False, check with HELLO that a bank unit answers."""
        url = resolve_port(port)
        ser = open_port(url, timeout=POLL, write_timeout=max(timeout, 1.0))
        bank = cls(ser, timeout=timeout, name=url)
        try:
            try:
                bank.discard_input()
                if bank._busy is not None:
                    raise bank._full(None)
                if hello:
                    bank.hello(first=True)
            except (CommandError, DisconnectedError) as exc:
                raise bank._full(exc) from None
        except BaseException:
            bank.close()
            raise
        return bank

    def _full(self, exc):
        """SimulatorFullError when the simulator refused us for having the most hosts it takes
        (`ERR busy` on connecting, then closed: the line comes as the reply to our HELLO, or
        before it, among the stale input); else exc itself."""
        busy = isinstance(exc, CommandError) and exc.code == "busy"
        message = exc.message if busy else self._busy
        if message is None:
            return exc
        why = message.split(";")[0].strip()
        return SimulatorFullError(
            "%s: the simulator already serves the most hosts it takes%s; close one of them, "
            "or try again once one has closed" % (self.name, " (%s)" % printable(why) if why
                                                   else "")
        )

    def close(self):
        if not self._closed:
            self._closed = True
            try:
                close_socket_quickly(self.port)
                self.port.close()
            except (serial.SerialException, OSError):
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the line layer ------------------------------------------------------------------------
    def discard_input(self):
        """Drop whatever the unit sent before we asked (stale replies, old events). An
        `ERR busy` among it (a simulator's refusal of one host too many) is kept: _full."""
        self._buf.clear()
        seen = bytearray()
        try:
            while len(seen) < STALE_PEEK and self.port.in_waiting:
                chunk = self.port.read(self.port.in_waiting)
                if not chunk:
                    break
                seen += chunk
            self.port.reset_input_buffer()
        except (serial.SerialException, OSError) as exc:
            self._note_busy(seen)
            raise DisconnectedError("%s went away: %s" % (self.name, exc)) from None
        self._note_busy(seen)

    def _note_busy(self, seen):
        for raw in bytes(seen).split(b"\n"):
            if raw.startswith(b"ERR busy"):
                self._busy = raw[9:].decode("ascii", "replace").strip()

    def send_raw(self, data):
        """Write bytes as they are (tests and `run` use it to send what a command cannot)."""
        try:
            self.port.write(data)
            flush = getattr(self.port, "flush", None)
            if flush:
                flush()
        except serial.SerialTimeoutException:
            raise ReplyTimeout(
                "%s did not take our input within %.1f s" % (self.name, self.timeout)
            ) from None
        except (serial.SerialException, OSError, ValueError) as exc:
            raise DisconnectedError(
                "%s went away while we were sending (unplugged?): %s" % (self.name, exc)
            ) from None

    def read_line(self, timeout=None):
        """The next line without its end, or None once `timeout` passes and its bytes stop."""
        began = time.monotonic()
        deadline = began + (self.timeout if timeout is None else timeout)
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                raw = bytes(self._buf[:nl])
                del self._buf[: nl + 1]
                return raw.replace(b"\r", b"").decode("utf-8", "replace")
            if len(self._buf) > MAX_REPLY:
                raise ProtocolError("%s sent a line of over %d bytes, longer than any reply "
                                    "(is this a bank unit running protocol 1?)"
                                    % (self.name, MAX_REPLY))
            if time.monotonic() >= deadline:
                return None
            try:
                chunk = self.port.read(1)
                if chunk:
                    self._buf += chunk
                    most = min(time.monotonic(), began + (len(self._buf) + 4096) / PACE)
                    deadline = max(deadline, most + self.timeout)
                    waiting = self.port.in_waiting
                    if waiting:
                        self._buf += self.port.read(waiting)
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                if b"\n" in self._buf:
                    continue  # the lines it sent before it went (ERR busy, a last reply)
                # pyserial raises SerialException for an unplugged USB device or a closed
                # socket; a pty whose other end died raises OSError (EIO).
                raise DisconnectedError(
                    "%s went away (unplugged, or the simulator stopped): %s"
                    % (self.name, printable(str(exc), 120))
                ) from None

    def _event(self, line):
        event = parse_event(line)
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)
        return event

    def exchange(self, command, timeout=None):
        """Send one command line, return its Reply (ERR included); raise only for link trouble.
        The command is sent as given: `run` scripts may send lines the unit must refuse. The
        events that came before the reply are handed over in it (Reply.events), so
        wait_event() does not give them again."""
        reply = self._exchange(command, timeout)
        for event in reversed(reply.events):  # the newest collected, at the right end
            if self.events and self.events[-1] is event:
                self.events.pop()
        return reply

    def _exchange(self, command, timeout=None):
        if isinstance(command, str):
            data = command.encode("utf-8", "replace")
        else:
            data = bytes(command)
        self.send_raw(data + b"\n")
        shown = printable(data.decode("utf-8", "replace"), 60)
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait  # for the reply: events and blank lines use it up
        events = []
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise ReplyTimeout(
                    "no reply from %s to '%s' within %.1f s" % (self.name, shown, wait)
                )
            if not line.strip():
                continue
            if line.startswith("! "):
                events.append(self._event(line))
                continue
            return parse_reply(line, events, shown)

    def request(self, command, timeout=None, check=False):
        """Send a well-formed command; return the JSON payload of `OK` (None for a bare `OK`),
        raise CommandError for `ERR`. check=True: also raise Refused when the state it answers
        with says the unit refused the keys (`KEY 2 0 M -` from a card without 20 M is `OK`
        with STATE's `error`: the unit refuses what a player does, not the line). The events
        before the reply stay in bank.events, for wait_event()."""
        # Only a name may be other than ASCII (NAME's text, as UTF-8); the line limit is bytes.
        wide = not command.isascii()
        if (wide and not command[:5].upper() == "NAME ") or "\n" in command \
                or len(command.encode("utf-8", "surrogatepass")) > MAX_LINE:
            raise BankError("command too long or not plain ASCII: '%s'" % printable(command))
        reply = self._exchange(command, timeout)
        if not reply.ok:
            raise CommandError(command, reply.code, reply.message)
        if check and isinstance(reply.payload, dict) and reply.payload.get("error"):
            state = shapes.check(reply.payload, shapes.STATE, command)
            words = command.split()  # KEY <keys> or HOLD <key> <ms>: the key it is about
            key = words[-1] if words[0].upper() == "KEY" else words[1]
            raise Refused(command, state["error"], self.refusal(state, key), state)
        return reply.payload

    def refusal(self, state, key=None):
        """STATE's `error` in the window's words with its code (`card 2 cannot pay 20 M: it has
        15 M (insufficient-funds)`) after key; None when the unit refused nothing."""
        if state.get("error"):  # the balances read only then: a round trip
            return refusal(state, (self.info or {}).get("profile"), balances_or_none(self),
                           names_of(self), key and key.upper())

    def _object(self, command, timeout=None):
        payload = self.request(command, timeout)
        if not isinstance(payload, dict):
            raise ProtocolError(
                "unexpected reply to %r: expected a JSON object, got '%s'"
                % (command, printable(json.dumps(payload)))
            )
        return payload

    def _shaped(self, command, shape, timeout=None, check=False):
        """The payload of OK, checked against the shape of the command's reply (shapes.py)."""
        return shapes.check(self.request(command, timeout, check), shape, command)

    def _state(self, command, timeout=None, check=False):
        return self._shaped(command, shapes.STATE, timeout, check)

    def wait_event(self, timeout=None):
        """The next event (already collected ones first), or None when `timeout` passes.
        Use it when no command is outstanding, e.g. to monitor a unit."""
        if self.events:
            return self.events.popleft()
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                return None
            if not line.strip():
                continue
            if not line.startswith("! "):
                raise ProtocolError(
                    "unexpected line from %s while waiting for events: '%s'"
                    % (self.name, printable(line))
                )
            event = parse_event(line)
            if self.on_event is not None:
                self.on_event(event)
            return event

    # -- the core protocol ---------------------------------------------------------------------
    def hello(self, first=False):
        try:
            got = self._object("HELLO")
        except (ProtocolError, ReplyTimeout):  # docs/protocol.md, "A host that stops reading"
            if not first:
                raise
            self.discard_input()
            got = self._object("HELLO")
        info = bank_hello(got, self.name)
        self.info = shapes.check(info, shapes.HELLO, "HELLO")
        return info

    def press(self, *keys, check=False):
        """Press keys in order, exactly as on the keypad; each argument is one key or several
        separated by spaces ("DEAL", "1 5 0 K +"). Returns the state after the last; with
        check=True, raises Refused if the unit refused them (its code and the words for it)."""
        words = split_keys(keys)
        return self._state("KEY " + " ".join(words), check=check)

    def hold(self, key, ms, check=False):
        """Hold one key down for `ms` milliseconds (a real unit takes that long to answer)."""
        (word,) = split_keys([key])
        return self._state("HOLD %s %d" % (word, int(ms)), self.timeout + int(ms) / 1000.0, check)

    def insert(self, slot, card):
        return self._state("INSERT %s %d" % (str(slot).upper(), int(card)))

    def remove(self, slot):
        return self._state("REMOVE %s" % str(slot).upper())

    def state(self):
        return self._state("STATE")

    def balances(self):
        """{card number: balance}, cards 1-6, as ints."""
        raw = self._shaped("BALANCES", shapes.BALANCES)
        return {int(card): raw[card] for card in shapes.CARDS}

    def log(self, n=None):
        """The last n transactions (the unit's default, 20, when n is None), oldest first."""
        return self._shaped("LOG" if n is None else "LOG %d" % int(n), shapes.LOG)

    def advance(self, ms):
        """Move a simulator's virtual clock on (`ERR unsupported` on a real unit)."""
        return self.request("ADVANCE %d" % int(ms))

    def events_on(self):
        self.request("EVENTS ON")

    def events_off(self):
        self.request("EVENTS OFF")

    # -- conveniences built on the core ----------------------------------------------------------
    def wake(self):
        """If the unit is switched off (B16), wake it with a key that is not taken as input, so
        the next KEY line's first key counts. Returns the state."""
        state = self.state()
        if state.get("power") == "off":
            state = self._state("KEY C")  # the waking key is not input (B16)
        return state

    def new_game(self):
        """Start a new game (B11) the way the banker does: hold C for 3 seconds."""
        return self.hold("C", 3000)

    # -- maintenance extensions (docs/protocol-extensions.md) ------------------------------------
    def maintenance(self):
        """True when the unit is in maintenance mode (entered on its own keypad)."""
        return self._shaped("MAINT", shapes.MAINT)["maintenance"]

    def backup(self):
        """The whole state as a dict (extension BACKUP)."""
        return self._object("BACKUP")

    def memory(self):
        """A unit's heap in bytes (extension MEM): firmware, boot, now, free; a simulator
        refuses it (UnitError unsupported)."""
        return self._shaped("MEM", shapes.MEM)

    def set_balance(self, card, amount):
        return self._state("SET BALANCE %d %d" % (int(card), int(amount)))

    def set_sound(self, level):
        return self._state("SET SOUND %d" % int(level))

    def set_profile(self, name):
        return self._state("SET PROFILE %s" % name)

    # -- player names (extension NAME / NAMES) ---------------------------------------------------
    def names(self):
        """{card: name or None}, cards 1-6, as the banker named them."""
        raw = self._shaped("NAMES", shapes.NAMES)
        # Only the cards: a damaged names file adds "store": "damaged"
        return {int(card): raw[card] for card in shapes.CARDS}

    def set_name(self, card, text=""):
        """Name card (1-6); an empty text clears its name. Returns names() after."""
        line = ("NAME %d %s" % (int(card), text)).rstrip()
        raw = self._shaped(line, shapes.NAMES)
        return {int(card): raw[card] for card in shapes.CARDS}

    def restore_previous(self):
        return self._state("RESTORE PREVIOUS")

    def games(self):
        """The games the unit keeps (B11), newest first: dicts of id, profile, seq,
        transactions and balances ({"1": n, ...}); a damaged one with nulls for what is lost."""
        return self._shaped("GAMES", shapes.GAMES)

    def restore_game(self, game_id):
        """Bring back the kept game game_id (maintenance mode); the current one is kept."""
        return self._state("RESTORE GAME %d" % int(game_id))

