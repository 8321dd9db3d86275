"""The terminal front end: the unit in text, for where there is no display (SSH, CI, a console).

Plain ANSI, no curses: every change redraws the whole screen from the home position, so any
terminal (and a test reading a pseudo-terminal) sees the same frames. The display is drawn as
big seven-segment digits from `segments.cells`, the lights from `lights.lit`, the tone by name.
A terminal reports no key releases, so keys are taps (down then up); `n` (or `C`) holds C for
3 s, the new game (B11), and `S` holds DEAL for 3 s, maintenance mode; each asks first and
only `y` goes on, since one stray keystroke next to `m` must not wipe a game. Like the window
it re-implements no rule: keys and card movements become events on the simulated board that
the unit's own loop (app.App) takes, everything drawn is a Unit output; a refusal is said in
words (desktop/words.py, the window's and the page's sentences).
"""

import os
import select
import sys
import time

from desktop import words
from simulator import frontend

HOLD_S = 3.2  # a little over the unit's 3 s holds (unit.hold_ms), as a finger would
HELP = (
    "keys: 0-9 . m k c  +/= -  d/space: DEAL   n: new game (hold C 3 s)   S: maintenance "
    "(hold DEAL 3 s)",
    "cards: l then 1-6 = into L, r then 1-6 = into R, L / R = take out   b: banker   q: quit",
)
ASK = {
    "C": "start a NEW GAME? every card back to the start, the log cleared: "
         "y = yes, any other key = no",
    "DEAL": "hold DEAL 3 s for maintenance mode %s? y = yes, any other key = no",
}
TAPS = {"m": "M", "M": "M", "k": "K", "K": "K", "c": "C", "d": "DEAL", "D": "DEAL",
        " ": "DEAL", "+": "+", "=": "+", "-": "-", "_": "-", ".": ".", ",": "."}
for _d in "0123456789":
    TAPS[_d] = _d

ESC = "\x1b"
CLEAR_TO_EOL = ESC + "[K"


def big_digits(cells, lit=True):
    """The 5 cells as 5 rows of text: '###' for a lit horizontal segment, '#' for a vertical
    one, 'o' for a decimal point. Unlit segments are blank."""
    rows = [""] * 5
    for byte in cells:
        if not lit:
            byte = 0

        def on(bit, ch, byte=byte):
            return ch if byte >> bit & 1 else " " * len(ch)

        rows[0] += " " + on(0, "###") + "  "
        rows[1] += on(5, "#") + "   " + on(1, "#") + " "
        rows[2] += " " + on(6, "###") + "  "
        rows[3] += on(4, "#") + "   " + on(2, "#") + " "
        rows[4] += " " + on(3, "###") + " " + ("o" if byte & 0x80 else " ")
        for i in range(5):
            rows[i] += " "
    return rows


def read_big_digits(rows):
    """The inverse of big_digits: the text the rows show (the tests read the screen with it)."""
    from board.segments import CHARS, CODES

    by_byte = {}
    for ch, g in zip(CHARS, CODES, strict=True):
        by_byte.setdefault(g, ch)
    text = ""
    for i in range(5):
        x = i * 7
        cell = [r[x:x + 7].ljust(7) for r in rows]
        byte = 0
        for bit, (r, c) in enumerate(((0, 2), (1, 4), (3, 4), (4, 2), (3, 0), (1, 0), (2, 2))):
            if cell[r][c] == "#":
                byte |= 1 << bit
        if byte:
            text += by_byte.get(byte, "?")
        if cell[4][5] == "o":
            text += "."
    return text


class Terminal:
    def __init__(self, host, out=None, announce=""):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host)
        self.out = out or sys.stdout
        self.announce = announce
        self.server = None
        self.mode = None  # 'L' or 'R' after l / r: the next digit is a card
        self.last_key = None  # the key a refusal is about
        self.panel = False
        self.status = ""
        self.held = None  # the key held down for 3 s (C or DEAL) ...
        self.release_at = None  # ... and the wall time it comes up
        self.asking = None  # the key whose 3 s hold waits for a `y`
        self.note = ""  # what happened by itself (a key that only woke the unit)
        self.frame = None
        self.quit = False

    # -- input ---------------------------------------------------------------------------------

    def feed(self, text):
        i = 0
        while i < len(text):
            ch = text[i]
            i += 1
            if ch == ESC:  # an escape sequence (arrows, F-keys): skip it; a lone Esc cancels
                if i < len(text) and text[i] in "[O":
                    i += 1
                    while i < len(text) and not ("@" <= text[i] <= "~"):
                        i += 1
                    i += 1
                self.mode = None
                continue
            self.char(ch)

    def char(self, ch):
        s = self.session
        if self.asking is not None:
            key, self.asking = self.asking, None
            if ch in ("y", "Y"):
                self._hold(key)
            else:
                self.status = "not done"
            return
        self.note = ""
        if self.mode is not None:
            slot, self.mode = self.mode, None
            if ch in "123456":
                err = s.card_in(slot, int(ch))
                self.status = self._explain(err, slot) if err else ""
                return
            if ch in ("0", "x", slot.lower(), slot):
                self._out(slot)
                return
            self.status = ""
        if ch in ("l", "r"):
            self.mode = ch.upper()
            self.status = "card into %s: 1-6 (0: take out, Esc: never mind)" % self.mode
            return
        if ch in ("L", "R"):
            self._out(ch)
            return
        if ch in ("n", "C", "S"):
            if self.held is None:
                self.asking = "DEAL" if ch == "S" else "C"
                self.status = ASK[self.asking]
                if ch == "S":
                    self.status %= "off" if self.unit.maintenance else "on"
            return
        if ch in ("b", "B"):
            self.panel = not self.panel
            return
        if ch in ("q", "Q", "\x04"):
            self.quit = True
            return
        key = TAPS.get(ch)
        if key is not None:
            self.status = ""
            self.last_key = key
            was_on = self.unit.power
            s.key_down(key)
            s.key_up(key)
            if not was_on:
                self.note = ("the unit was switched off: that key only woke it; press it "
                             "again")

    def _hold(self, key):
        self.session.key_down(key)
        self.held = key
        self.release_at = time.monotonic() + HOLD_S
        self.status = "holding %s for 3 s ..." % key

    def _out(self, slot):
        err = self.session.card_out(slot)
        self.status = self._explain(err, slot) if err else ""

    def _explain(self, code, key):
        u = self.unit
        return words.explain(code, u.entry, u.slots, dict(self.session.balances()),
                             u.ledger.profile, key=key, names=self._names())

    def _names(self):
        """The names the banker gave the cards (NAME, kept by the unit: protocol/names.py)."""
        from protocol import names

        try:
            return {c: n for c, n in enumerate(names.get(self.unit.ledger.store), 1) if n}
        except OSError:
            return {}

    def timers(self):
        if self.release_at is not None and time.monotonic() >= self.release_at:
            key, self.held, self.release_at = self.held, None, None
            self.session.key_up(key)
            self.status = ""

    def wait_ms(self):
        ms = self.session.ms_to_change()
        if self.release_at is not None:
            c = max(0, int((self.release_at - time.monotonic()) * 1000) + 1)
            ms = c if ms is None else min(ms, c)
        return ms

    # -- output --------------------------------------------------------------------------------

    def render(self):
        s = self.session
        s.step()
        if self.server is not None:
            self.server.flush()
        v = s.view()
        text_lines = []
        red = "(*)" if v.red else "( )"
        green = "(*)" if v.green else "( )"
        red = (ESC + "[1;31m" + red + ESC + "[0m") if v.red else red
        green = (ESC + "[1;32m" + green + ESC + "[0m") if v.green else green
        maint = "  MAINTENANCE" if self.unit.maintenance else ""
        text_lines.append(" MONOPOLY BANK   red %s  green %s%s   %s" % (red, green, maint,
                                                                       self.announce))
        text_lines.append(" +" + "-" * 40 + "+")
        digits = big_digits(v.cells, v.power)
        ann = (("M" if v.M else " "), " ", " ", " ", ("k" if v.k else " "))
        for i, row in enumerate(digits):
            text_lines.append(" | " + row + "  " + ann[i] + " |")
        text_lines.append(" +" + "-" * 40 + "+")
        text_lines.append(" power: %s" % ("on" if v.power else
                                          "off (dark): the next key only wakes it"))
        left = "card %d" % v.slots[0] if v.slots[0] else "empty"
        right = "card %d" % v.slots[1] if v.slots[1] else "empty"
        text_lines.append(" slot L (credit +): %-8s  slot R (debit -): %-8s" % (left, right))
        tone = ("~ " + v.tone) if v.tone else ""
        text_lines.append(" sound: %d   tone: %-14s deal: %s" % (v.volume, tone, v.deal))
        text_lines.append(" entry: %-8s error: %s" % (v.entry or "-", v.error or "-"))
        text_lines.extend(" " + h for h in HELP)
        said = self.status or words.refused(self.unit, self.last_key, self._names())
        text_lines.append(" > " + (said or self.note))
        if self.server is not None:
            text_lines.append(" serving %s %s" % (self.server.mode, self.server.address))
        if self.panel:
            prof = s.profile
            text_lines.append(" -- banker: balances --")
            named = self._names()
            for n, bal in s.balances():
                text_lines.append("   card %d %-12s %12s  %s" % (
                    n, named.get(n, ""), words.grouped(bal), words.amount(bal, prof)))
            text_lines.append(" -- recent transactions --")
            for rec in reversed(s.recent(8)):
                text_lines.append("   " + words.txn_line(rec, prof, named))
        frame = ESC + "[H" + "".join(line + CLEAR_TO_EOL + "\r\n" for line in text_lines)
        frame += ESC + "[J"
        if frame != self.frame:
            self.frame = frame
            self.out.write(frame)
            self.out.flush()

    # -- the loop ------------------------------------------------------------------------------

    def loop(self, fd):
        while not self.quit:
            self.render()
            fds = [fd] + (self.server.fds() if self.server is not None else [])
            # Replies a client has yet to take: wake when it takes them (render() sends).
            wfds = self.server.wfds() if self.server is not None else []
            ms = self.wait_ms()
            ready, _, _ = select.select(fds, wfds, [], None if ms is None else ms / 1000.0)
            self.timers()
            for r in ready:
                if r == fd:
                    data = os.read(fd, 1024)
                    if not data:
                        return
                    self.feed(data.decode("utf-8", "replace"))
                elif self.server is not None:
                    self.server.ready(r)


def run(host, opts):
    import termios
    import tty

    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        announce = "terminal front end"
    else:
        announce = "no display found: terminal front end"
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        from simulator import headless

        sys.stderr.write("simulator: %s needs a terminal; serving the protocol on stdio\n"
                         % announce)
        return headless.run_stdio(host)
    host = frontend.interactive_host(host, opts)
    term = Terminal(host, announce=announce)
    if opts.mode in ("pty", "tcp"):
        from simulator.serve import Server

        term.server = Server(host, opts.mode, opts.port, app=term.session.app)
        frontend.say(term.server.start())
    sys.stdout.write(announce + "\n")
    sys.stdout.flush()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stdout.write(ESC + "[?1049h" + ESC + "[?25l" + ESC + "[2J")
        term.loop(fd)
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        sys.stdout.write(ESC + "[?25h" + ESC + "[?1049l")
        sys.stdout.flush()
        if term.server is not None:
            term.server.close()
        term.session.sound.stop()
    return 0
