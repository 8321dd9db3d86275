"""The unit's loop: the shared core (brain/, protocol/) in the body it is given (board/).
docs/design.md ("The loop and the board") has a turn's steps, docs/protocol.md what a host sees
(its lines, a host that stops reading, Ctrl-C) and docs/hardware.md the standby switched off.

`main()` is what main.py runs at reset: it needs no host, no `sys.argv`, and prints nothing
until a host asks (output written before a host opens the USB port is lost). `boot(board,
directory)` builds everything (startup.py, dropped after) and returns the App without entering
the loop, so a bench can measure the heap after boot (bench/boot_mp.py).
"""

import gc
import io
import select
import sys
import time

from board import lights
from brain.clock import ticks_diff
from protocol import LineReader, Protocol


class Waker(io.IOBase):
    """Readable when a key or a card contact moved, or the USB host opened, closed or set up
    the serial port: registered with the loop's `select.poll` next to stdin, it ends the wait
    at a pin's IRQ, or the USB one, as a byte on stdin does (on rp2, poll sleeps in WFE, which
    any interrupt ends, and asks each object again)."""

    def __init__(self, app):
        self.app = app

    def ioctl(self, req, arg):
        if req != 3:  # MP_STREAM_POLL; to the rest (GET_FILENO on unix: no fd) EINVAL
            return -22
        board = self.app.board
        pad = board.keypad
        if pad.armed and pad.woke:
            return arg & select.POLLIN
        if board.slots["L"].woke or board.slots["R"].woke:
            return arg & select.POLLIN
        if board.host_session() != self.app.session:
            return arg & select.POLLIN
        return 0


class App:
    # The keypad's and slots' scan period while a key is down or a card settling: a turn is all
    # the loop's Python, so a longer period costs a held key less of the core, and a release, a
    # second key or a settled card is still seen within it (docs/performance.md).
    scan_ms = 20
    standby_ms = 100  # scan period while off: a key press lasts longer than this
    idle_ms = 1000  # the longest wait with nothing due: a pin's IRQ ends it anyway
    rescans = 6  # scans straight after a column's edge until the bouncing contact reads closed
    burst = 64  # bytes read from serial per turn at most, so keys are never starved
    burst_out = 64  # ... and written to it
    # Lines kept for a host that stops reading with its port open; later events are dropped and
    # counted (docs/protocol.md, "A host that stops reading").
    unsent_max = 32
    # The garbage is collected in a pause this long after the unit last changed or answered a
    # line, rather than when the heap runs out: a collection sweeps the heap up to the
    # highest block allocated since the last one (py/gc.c), so one per pause sweeps only what
    # that bout of play allocated and keeps what lives packed low (docs/performance.md has the
    # times). A second: typing an amount has shorter gaps, so a collection does not fall inside
    # a key press, where it would hold the digit back.
    quiet_ms = 1000
    lines_per_collect = 4  # ... or after this many lines a host sent without a pause between

    def __init__(self, board, unit, clock):
        self.board = board
        self.unit = unit
        self.clock = clock
        # A host's session starts at its first byte (_connect).
        self.protocol = None  # type: Protocol | None
        self.unit.listeners.append(self._on_event)
        self.eof = False
        self.vbus_blind = False  # a host spoke with VBUS low: this board's VBUS pin never tells
        self._rev = -1
        self._power = None
        self._tone = None  # a tone the unit asked for, started once the display is drawn
        self.heap = None  # (in use before the firmware, after boot), bytes: MEM (main())
        self._seen = -1  # the unit's rev at the last turn; -1: a line was answered since
        self._active_at = 0  # ticks the unit last changed or answered
        self._garbage = True  # something ran since the last collection
        self._lines = 0  # lines answered since the last collection
        self.open_serial()

    def open_serial(self):
        """The serial side of the loop: on the Pico its one USB port (the simulator's loop,
        desktop/simapp.py, serves any number of ports instead)."""
        self.reader = None  # type: LineReader | None
        self.stdin = getattr(sys.stdin, "buffer", sys.stdin)
        # The raw stream: the text one turns each "\n" into "\r\n" on rp2.
        self.stdout = getattr(sys.stdout, "buffer", sys.stdout)
        self.poller = select.poll()  # stdin alone: whether a read(1) would return at once
        self.poller.register(self.stdin, select.POLLIN)
        self.waiter = select.poll()  # the loop's sleep: ends at a byte, a key or a card
        self.waiter.register(self.stdin, select.POLLIN)
        self.waiter.register(Waker(self), select.POLLIN)
        # On rp2 a write the USB port has no room for waits for the host, up to a timeout, and
        # the keys with it: a line goes out only once poll says the port takes bytes.
        self.writable = select.poll()
        self.writable.register(self.stdout, select.POLLOUT)
        self.unsent = []  # lines the port has not taken whole, oldest first
        self._at = 0  # bytes of the first the port took
        self._open = False  # the port took a line's first pieces, not its end
        self._one = bytearray(1)
        self._kicked = False  # a write with no room took nothing: wait for room, not again
        self.lost = 0  # event lines dropped since the port last took everything
        self.stalled = False  # the host has left lines unread: its next ones wait
        self.unread = False  # ... and it sent bytes since, which wait unread (flow control)
        self._prev = 10  # the byte before: the stream starts as if after a line end
        self.session = self.board.host_session()

    # -- the loop -------------------------------------------------------------------------------

    def run(self):
        while self.turn():
            pass

    def turn(self):
        """One turn of the loop: step, then sleep until the next thing due or an input. False
        at the end of input (the unix port's stdin; on the Pico it never ends)."""
        now = self.clock.now()
        self.step(now)
        self.sleep(now)
        return not self.eof

    def step(self, now):
        """A turn's work at now, without sleeping: the inputs read, the timers due fired, the
        picture drawn, the events sent (the module's docstring, steps 1-4)."""
        u = self.unit
        keys = self.read_keys(now)
        cards = self.read_cards(now)
        due = u.deadline() if u.power else None
        if keys or cards or (due is not None and ticks_diff(due, now) <= 0):
            # Their work may be long (a checkpoint, a new game): keys typed meanwhile count.
            self.board.keypad.watch()
        u.tick(now)  # first: C held past 3 s is a new game even if this scan finds it let go (B11)
        for kind, key in keys:
            if kind == "down":
                u.key_down(key, now, "key")
            else:
                u.key_up(key, now, "key")
        for name, ev in cards:
            kind = ev[0]
            if kind == "in":
                u.card_in(name, ev[1], now)
            elif kind == "out":
                u.card_out(name, now)
            else:
                u.tag_refused(name, now, ev[1])  # an RFID tag with no number, or a twin
        if not keys:
            self.serial()
        self.render(now)
        self.drain()

    def wait_ms(self, now, timers=True):
        """How long the loop may sleep: 0 when a key or a card moved (an IRQ came), scan_ms
        while one settles (a key down or its debounce, a card's contacts), else until the
        unit's next timer, the beeper's next note, a light's next blink or an RFID reader's
        next look (timers False: none
        of those, a clock whose time moves only when told); None: until an input."""
        board = self.board
        pad = board.keypad
        left, right = board.slots["L"], board.slots["R"]
        if (pad.armed and pad.woke) or left.woke or right.woke:
            return 0
        wait = self.scan_ms if not pad.armed or left.due(now) or right.due(now) else None
        if not timers:
            return wait
        modes = board.leds.modes
        for due in (self.unit.deadline(), board.beeper.deadline(),
                    lights.next_change(modes[0], now), lights.next_change(modes[1], now),
                    left.deadline(), right.deadline()):
            if due is not None:
                ms = ticks_diff(due, now)
                ms = ms if ms > 0 else 0
                if wait is None or ms < wait:
                    wait = ms
        return wait

    def sleep(self, now):
        """Until the next thing due or an input: in poll on USB serial and the pins' IRQs
        (Waker), switched off on battery in the board's light sleep."""
        if self.unit.power:
            wait = self.wait_ms(now)
            self._wait(self._collect(now, self.idle_ms if wait is None or wait > self.idle_ms
                                     else wait))
        elif self.vbus_blind or self.board.usb_powered():
            # A host may be on USB: a light sleep would drop its serial port. Where VBUS told
            # of the host, a cable pulled lets a unit on batteries sleep light again.
            self._wait(self.standby_ms)
        else:
            self.board.sleep(self.standby_ms)

    def _wait(self, ms):
        if ms:
            for _ in self.waiter.ipoll(ms):
                break  # ipoll: the wait without a list allocated

    def _collect(self, now, wait):
        """Collect once the unit has been quiet for quiet_ms; the wait, cut short to then."""
        rev = self.unit.rev
        if rev != self._seen:
            self._seen = rev
            self._active_at = now
            self._garbage = True
        if not self._garbage:
            return wait
        left = self.quiet_ms - ticks_diff(now, self._active_at)
        if left > 0 and self._lines < self.lines_per_collect:
            return left if left < wait else wait
        gc.collect()
        self._garbage = False
        self._lines = 0
        return wait

    # -- the unit's inputs ----------------------------------------------------------------------

    def read_keys(self, now):
        """The keypad's events, when it needs a scan: on, only after a column's IRQ and while a
        key is down (or its debounce lockout runs); switched off, at every standby turn (rp2's
        timed lightsleep). Idle again, the matrix is armed for the next edge."""
        pad = self.board.keypad
        if self.unit.power and pad.armed and not pad.woke:
            return ()
        woken = self.unit.power and pad.armed and not pad.held  # at rest: a contact just closed
        events = pad.scan(now)
        tries = self.rescans if woken else 0
        while not events and tries:
            # The contact bounces for a few ms after the edge: a scan in an open spell sees
            # nothing. Look again at once rather than at the next edge or turn, judged by the
            # clock as it reads now: a scan takes milliseconds on the Pico, and a press that
            # came past its key's lockout meanwhile read, by the turn's time, as its bounce.
            tries -= 1
            events = pad.scan(self.clock.now())
        pad.idle(now)
        return events

    def read_cards(self, now):
        """The slots' events, [(slot, event)], from those that need a poll (on: after a
        contact's IRQ and while the reading settles; off: every standby turn); () for none."""
        got = ()
        on = self.unit.power
        for name in ("L", "R"):
            slot = self.board.slots[name]
            if on and not slot.due(now):
                continue
            ev = slot.poll(now)
            if ev is not None:
                if not got:
                    got = []
                got.append((name, ev))
        return got

    def serial(self):
        """Answer every complete line the host has sent, up to burst bytes."""
        session = self.board.host_session()
        if session != self.session:
            # The host closed, opened or set up the port: a line it left unfinished is no
            # command (docs/protocol.md, "Lines"); what comes next starts a new one.
            self.session = session
            if self.reader is not None:
                self.reader.drop()
            if self.board.replug and self.unread:
                # Bytes the old host sent that a stalled unit left unread: its half line too.
                # Only those: a re-plugged host may send its first line before the unit sees
                # the re-plug, and a unit that left none unread has only the new host's.
                for _ in range(4096):
                    if not self.poller.poll(0):
                        break
                    self.stdin.read(1)
            self.unread = False
            # ... and the lines left unsent for it are not the next host's. The port still
            # sends what it took of them: a line it took part of is ended, so that the next
            # host's first reply starts a line of its own.
            self.unsent = [b"\n"] if self._at or self._open else []
            self._open = False
            self._at = self.lost = 0
            self._kicked = False
            self.send()
            self._listen()
        if self.stalled:
            if not self.unread and self.poller.poll(0):
                self.unread = True  # the loop no longer wakes for them
                self._listen()
            return
        if not self.poller.poll(0):
            return
        # Every read(1) follows a poll that said a byte is there: on rp2 a read with nothing
        # waiting blocks (a longer one even after a poll), and with it the keys, the timers and
        # the display.
        for _ in range(self.burst):
            b = self.stdin.read(1)
            if not b:
                self.eof = True  # the unix port's stdin ended; on the Pico it never does
                return
            c = b[0] if isinstance(b, bytes) else ord(b)
            if not self.vbus_blind:
                self.vbus_blind = not self.board.usb_powered()
            reader = self.reader
            if c == 3 and self._interrupt(reader):
                raise KeyboardInterrupt  # mpremote (or a person) wants the REPL
            self._prev = c
            if reader is None and c != 10 and c != 13:
                # A line end before anything else is no line: no session yet.
                reader = self._connect()  # mpremote's "\r\x03" never gets here
            if reader is not None:
                line = reader.push(c)
                if line is not None:
                    protocol = self.protocol
                    assert protocol is not None
                    self.board.keypad.watch()  # a reply (LOG) may take longer than a tap
                    self.write(protocol.handle(line))
                    self._seen = -1  # an answer allocates: a collection in the next pause
                    self._lines += 1
            if self.stalled or not self.poller.poll(0):
                return

    def _connect(self):
        protocol = self.protocol = Protocol(self.unit, self.clock)
        protocol.pieces = True
        protocol.heap = self.heap or (None, None)  # MEM reports it: this is a unit
        reader = self.reader = LineReader()
        return reader

    def _interrupt(self, reader):
        """Whether a Ctrl-C byte means "stop the program" rather than line noise.

        The REPL's own Ctrl-C handling is switched off while the unit runs (main.py): from the
        REPL a host could write any balance, so only a unit in maintenance, which takes someone
        at its keypad (DEAL held, B-rules' "SErv"), lets a host stop the program. There
        mpremote's "\r\x03" at the start of a line, or Ctrl-C typed twice, stops it; in play
        every 0x03 is line noise."""
        if not self.unit.maintenance:
            return False
        at_line_start = reader is None or (not reader.buf and not reader.over)
        return self._prev == 3 or (self._prev == 13 and at_line_start)

    # -- the unit's outputs ---------------------------------------------------------------------

    def _on_event(self, kind, arg):
        if kind == "tone":
            # Started after the turn's frame (render): a key's digit is on the glass first,
            # its click a millisecond later, which no ear tells apart.
            self._tone = arg

    def render(self, now):
        u = self.unit
        board = self.board
        if u.power != self._power:
            self._power = u.power
            self._rev = -1
            if not u.power:
                board.blank()
                self._tone = None  # silenced with the rest, as blank() silences one playing
                clock = u.game_clock
                if board.latch is not None and (clock is None or not clock.running):
                    # With a latch fitted the power goes here; not while the game clock runs
                    # (B20: it keeps time switched off), only at the next switch-off after it.
                    board.latch.release()
        if u.power:
            if u.rev != self._rev:
                self._rev = u.rev
                text, k, m = u.display()
                board.show(text, k, m)
                board.lights(u.red(), u.green())
            board.leds.update(now)
        name = self._tone
        if name is not None:
            self._tone = None
            board.tone(name, u.ledger.volume, self.clock.now())
        board.beeper.update(now)

    def write(self, lines):
        for line in lines:
            if isinstance(line, str):
                self.unsent.append(line.encode() + b"\n")
            else:
                # A long reply (LOG, BACKUP) comes as pieces made while it is sent (_chunks):
                # its making (docs/performance.md, "A long game") is spread over turns that
                # read the keys, and no heap a long game has cut small must hold it whole.
                self.unsent.append(_chunks(line))
        self.send()

    def send(self):
        """Write what the port takes now, a byte at a time while poll says it has room: on
        rp2 a write it has no room for waits for the host, up to half a second, and the keys
        with it. At most burst_out bytes a turn; the rest on the next."""
        unsent = self.unsent
        one = self._one
        write = self.stdout.write
        room = self._room
        board = self.board
        sending = board.usb_sending
        left = self.burst_out
        while unsent and left:
            data = unsent[0]
            if not isinstance(data, bytes):
                # A long reply: its next piece made now; its last, which ends the line, takes
                # its place (one line waiting, not two), so it is never found spent.
                piece = next(data)
                if piece[-1] == 10:
                    unsent[0] = piece
                else:
                    unsent.insert(0, piece)
                continue
            at = self._at
            while at < len(data) and left:
                # The look and a write with room are one step: a host's bus reset (a re-plug)
                # between them left the write starting a transfer on an endpoint the USB
                # interrupt had just cleared, and TinyUSB panics at that (MicroPython v1.25 to
                # v1.28); the look's poll first hands TinyUSB a bus reset that came before.
                one[0] = data[at]
                held = board.hold_irqs()
                n = write(one) if room() else -1  # with room, a byte never waits
                board.free_irqs(held)
                if n == -1 and not (self._kicked or sending()):
                    # No room and no packet waiting (a bus reset keeps the buffer and sends
                    # nothing): the write sends it and waits for the host (v1.28; v1.25 only
                    # waits, once: the port stays full until a host reads it). Not held: a
                    # wait with the interrupts off may never end.
                    n = write(one)
                if n == -1:
                    left = 0  # no room, and a packet waits for the host: it is not reading
                    break
                if not n:
                    self._kicked = True
                    left = 0
                    break
                self._kicked = False
                at += 1
                left -= 1
            self._at = at
            if at < len(data):
                break
            unsent.pop(0)
            self._at = 0
            self._open = data[-1] != 10  # a long reply's first pieces sent, not its end
            if not unsent and self.lost:
                unsent.append(('! lost {"events": %d}\n' % self.lost).encode())
                self.lost = 0
        stalled = len(unsent) > 0
        if stalled != self.stalled:
            self.stalled = stalled
            self.unread = False
            self._listen()

    def _listen(self):
        """What ends the loop's sleep on the port: room for a line the host has not taken, and
        a byte, unless a stalled unit found the host's bytes waiting unread (it reads them once
        the host reads again). On rp2 stdin.buffer is stdout.buffer: one entry, both masks."""
        inp = 0 if self.unread else select.POLLIN
        out = select.POLLOUT if self.stalled else 0
        if self.stdin is self.stdout:
            self.waiter.register(self.stdin, inp | out)
        else:
            self.waiter.register(self.stdout, out)
            self.waiter.register(self.stdin, inp)

    def _room(self):
        for _ in self.writable.ipoll(0):
            return True
        return False

    def drain(self):
        """Send the events of keys, cards and timers to the host (the serial port)."""
        if self.protocol is not None and self.protocol.pending:
            events = self.protocol.drain()
            # A command's lines all wait (the host's next is not read until they are out); the
            # keys' and timers' past unsent_max unsent lines are dropped, and counted.
            waiting = 0  # lines, not pieces: a long reply is many (App.write)
            for data in self.unsent:
                waiting += not isinstance(data, bytes) or data[-1] == 10
            room = max(self.unsent_max - waiting, 0)
            if len(events) > room:
                self.lost += len(events) - room
                events = events[:room]
            self.write(events)
        else:
            self.send()


def _chunks(pieces):
    """A long reply's pieces (strings) as the port is given them: some burst_out bytes each,
    the last ending the line (and only the last: App.send knows the end of the reply by it)."""
    part, size = [], 0
    for piece in pieces:
        if size >= App.burst_out:
            yield b"".join(part)
            part, size = [], 0
        part.append(piece.encode())
        size += len(piece)
    part.append(b"\n")
    yield b"".join(part)


def boot(board, directory):
    """Build the board (from pins.py when None) and the core, the store in directory (None: the
    default, startup.state_dir); boot; return the App with the first picture drawn."""
    import startup

    try:
        board, unit, clock = startup.build(board, directory)
    finally:
        startup.forget_boot()  # boot-only code and data, startup.py itself among them
    del startup
    gc.collect()
    app = App(board, unit, clock)
    app.render(clock.now())
    return app


def main(before):
    """The unit: boot, then the loop for ever. before: the heap in use before main.py imported
    the firmware (MEM reports what the firmware took)."""
    app = boot(None, None)
    app.heap = (before, gc.mem_alloc())  # boot() has collected
    try:  # 0x03 is data from main.py's first line on; App._interrupt decides what it is
        from micropython import kbd_intr
    except ImportError:  # CPython: nothing turns 0x03 into KeyboardInterrupt
        kbd_intr = None
    try:
        app.run()
    except KeyboardInterrupt:
        if kbd_intr is not None:
            kbd_intr(3)
        app.board.blank()  # Ctrl-C (mpremote): leave the unit dark, then stop as asked
        raise
    except Exception as exc:  # noqa: BLE001 - a unit in the field restarts rather than dies
        if sys.platform != "rp2":
            raise
        app.board.blank()
        try:
            with open(app.unit.ledger.store.dir + "crash.txt", "w") as f:
                sys.print_exception(exc, f)  # type: ignore[attr-defined]
        except OSError:
            pass
        if kbd_intr is not None:
            kbd_intr(3)
        time.sleep_ms(2000)  # a window for Ctrl-C before the reset
        import machine

        machine.reset()

