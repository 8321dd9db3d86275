"""The terminal front end: the unit in text, for where there is no display (SSH, CI, a console).

Drawn with Python's own curses (no package to install; the terminal's size, its resize and the
redraw of only what changed are curses's, not escape codes of our own). The display is drawn in
large seven-segment digits, as large as the terminal allows, for a table to read across it (9
rows tall at 80x24); a resize (SIGWINCH) redraws at the new size at once. The lights from
`lights.lit`, the tone by name. A terminal reports no key releases, so keys are taps (down then
up); `n` (or `C`) holds C for 3 s, the new game (B11), `S` holds DEAL for 3 s, maintenance
mode, and `X` holds − for 3 s, a bankruptcy (B21); each asks first and only `y` goes on, since
one stray keystroke next to `m` must not wipe a game. `h` then a key holds that key for 3 s
(`h +` the count, B19; `h k` the game clock's view, B20; C, DEAL and − ask as above). `f`
switches between English and French; with `--table`, `t` shows the table view's QR code for the
phones (and back). Like the window it re-implements no rule: keys and card movements become
events on the simulated board that the unit's own loop (app.App) takes, everything drawn is a
Unit output; a refusal is said in words (desktop/words.py, the window's and the page's
sentences).
"""

import json
import os
import sys
import time

from brain.ledger import CARDS
from desktop import words
from simulator import frontend
from simulator.digits import BOX, big_digits, big_size
from simulator.screen import Curses, loop

HOLD_S = 3.2  # a little over the unit's 3 s holds (unit.hold_ms), as a finger would
TAPS = {"m": "M", "M": "M", "k": "K", "K": "K", "c": "C", "d": "DEAL", "D": "DEAL",
        " ": "DEAL", "+": "+", "=": "+", "-": "-", "_": "-", ".": ".", ",": "."}
for _d in "0123456789":
    TAPS[_d] = _d
ESC = "\x1b"

def wrap(text, width):
    """text in lines of at most width characters, broken at spaces where it can be."""
    out = []
    while len(text) > width:
        cut = text.rfind(" ", 0, width + 1)
        if cut <= 0:
            cut = width
        out.append(text[:cut])
        text = text[cut:].lstrip()
    out.append(text)
    return out


class Terminal:
    def __init__(self, host, announce="term.front-end"):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host)
        self.announce = announce
        self.server = None
        self.table = None  # the table view being served (--table)
        self.qr = False  # its QR code shown instead of the unit (t)
        self.mode = None  # 'L' or 'R' after l / r: the next digit is a card; 'hold' after h
        self.last_key = None  # the key a refusal is about
        self.panel = False
        self.desk = None  # the panel's protocol line, made when it is first shown
        self._games = None  # (the store's writes, GAMES' list) the panel last read
        self.status = ""
        self.held = None  # the key held down for 3 s (C or DEAL) ...
        self.release_at = None  # ... and the wall time it comes up
        self.asking = None  # the key whose 3 s hold waits for a `y`
        self.note = ""  # what happened by itself (an undo, a new game, a key that only woke)
        if host.new_game:  # --profile's, at the start (B15)
            self.note = words.note("game", None, self.unit.ledger.profile)
        self.quit = False
        self.unit.listeners.append(self._on_unit)

    def _on_unit(self, kind, arg):
        said = words.note(kind, arg, self.unit.ledger.profile, self._names())
        if said is not None:
            self.note = said

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
                if self.mode is not None or self.asking is not None:
                    # the prompt goes with its words: a y (or a digit) after it is no answer
                    self.status = words.say("term.not-done") if self.asking else ""
                self.mode = self.asking = None
                continue
            self.char(ch)

    def char(self, ch):
        s = self.session
        if self.held is not None and (ch in TAPS or ch in "lLrRhHnCSX"):
            # A hold is the 3 s of one key: the unit's keys and cards typed meanwhile are not
            # taken (a new game would wipe them, a bankruptcy be given up); the hold stays said.
            self.status = words.say("term.holding", key=self.held)
            return
        if self.asking is not None:
            key, self.asking = self.asking, None
            if ch in ("y", "Y"):
                self._hold(key)
            else:
                self.status = words.say("term.not-done")
            return
        if self.mode == "hold":
            self.mode = None
            key = TAPS.get(ch)
            asks = {"C": "n", "DEAL": "S", "-": "X"}
            if key in asks:
                self.char(asks[key])
            elif key is not None and self.held is None:
                self.note = ""
                self.last_key = key
                self._hold(key)
            else:
                self.status = ""
            return
        if self.mode is not None:
            slot, self.mode = self.mode, None
            self.note = ""
            if len(ch) == 1 and "1" <= ch <= "9" and int(ch) <= CARDS:
                err = s.card_in(slot, int(ch))
                self.status = self._explain(err, slot) if err else ""
                return
            if ch in ("0", "x", slot.lower(), slot):
                self._out(slot)
                return
            # No card: the prompt stays (Esc leaves it), and the key is not typed into an
            # amount as if the prompt had never been.
            self.mode = slot
            self.status = words.say("term.no-card", key=ch, slot=slot)
            return
        if ch in ("l", "r"):
            self.mode = ch.upper()
            self.status = words.say("term.card-into", slot=self.mode)
            return
        if ch in ("h", "H"):
            self.mode = "hold"
            self.status = words.say("term.hold-which")
            return
        if ch in ("L", "R"):
            self.note = ""
            self._out(ch)
            return
        if ch == "X" and self.unit.power and self.unit.slots["R"] is None:
            self.status = words.say("term.minus.no-card")  # B21: not offered, then refused
            return
        if ch in ("n", "C", "S", "X"):
            if self.held is None:
                self.asking = {"S": "DEAL", "X": "-"}.get(ch, "C")
                if ch == "S":
                    self.status = words.say("term.ask.deal.off" if self.unit.maintenance
                                            else "term.ask.deal.on")
                elif ch == "X":
                    self.status = words.say("term.ask.minus")
                else:
                    self.status = words.say("term.ask.c")
            return
        if ch in ("b", "B"):
            self.panel = not self.panel
            return
        if ch in ("t", "T") and self.table is not None:
            self.qr = not self.qr
            return
        if ch in ("f", "F"):
            words.set_lang("en" if words.lang() == "fr" else "fr")
            self.status = ""
            return
        if ch in ("q", "Q", "\x04"):
            self.quit = True
            return
        key = TAPS.get(ch)
        if key is not None:
            self.status = ""
            self.note = ""
            self.last_key = key
            was_on = self.unit.power
            s.key_down(key)
            s.key_up(key)
            if not was_on:
                self.note = words.woke(key)

    def _hold(self, key):
        was_on = self.unit.power
        self.session.key_down(key)
        if not was_on and self.unit.power:  # a waking key holds nothing (B16): said, let go
            self.session.key_up(key)
            self.note = words.woke(key)
            self.status = ""
            return
        self.note = ""
        self.held = key
        self.release_at = time.monotonic() + HOLD_S
        self.status = words.say("term.holding", key=key)

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

    def _kept(self, named):
        """The previous games the unit keeps (GAMES, as the window's panel lists them), in
        words; read again only when the store has written."""
        writes = self.unit.ledger.store.writes
        if self._games is None or self._games[0] != writes:
            if self.desk is None:  # the banker's own line, as the window's panel has it
                from protocol import Protocol

                self.desk = Protocol(self.unit, self.host.clock, via="key")
            reply = self.desk.handle("GAMES")[-1]
            self._games = (writes, json.loads(reply[3:]) if reply.startswith("OK ") else reply)
        games = self._games[1]
        if isinstance(games, str):  # the unit's words why it could not list them
            return [(games, ())]
        return [words.kept_game(g, named) for g in games]

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

    def said(self):
        """The sentence under the unit: the window's for the same state."""
        if self.status:
            return self.status
        refused = words.refused(self.unit, self.last_key, self._names())
        if refused:
            return refused
        if self.unit.power and self.note:
            return self.note
        return words.what_now(self.unit, names=self._names())

    def screen(self, cols, rows):
        """The screen for a terminal of cols x rows: a list of (text, kind) lines, kind one of
        'title', 'digits', 'text', 'said', the unit's lights as (col, 'red'|'green') in the
        title's kind list. The lines are cut to cols; the caller cuts them to rows."""
        s = self.session
        s.step()
        if self.server is not None:
            self.server.flush()
        v = s.view()
        out = []
        maint = "  " + words.say("win.maintenance") if self.unit.maintenance else ""
        red = "(*)" if v.red else "( )"
        green = "(*)" if v.green else "( )"
        out.append((" MONOPOLY BANK   %s %s%s   %s" % (red, green, maint,
                                                    words.say(self.announce)), "title"))
        if self.qr and self.table is not None:
            from simulator.lan import qr_block

            out.extend((" " + line, "text") for line in qr_block(self.table.url).splitlines())
            out.append((" " + words.say("term.table", url=self.table.url), "text"))
            out.append((" " + words.say("term.table-back"), "help"))
            return [(text[:cols], kind) for text, kind in out], (v.red, v.green)
        width = max(10, cols - 2)
        below = []

        def add(text, kind="text", most=4):
            below.extend((" " + line, kind) for line in wrap(text, width)[:most])

        add(words.say("term.power.on" if v.power else "term.power.off"))
        empty = words.say("term.empty")
        left = words.who(v.slots[0]) if v.slots[0] else empty
        right = words.who(v.slots[1]) if v.slots[1] else empty
        add(words.say("term.slots", left=left, right=right))
        tone = ("~ " + words.tone_name(v.tone)) if v.tone else "-"
        deal = {"idle": "deal.idle", "running": "deal.run", "ending": "deal.end",
                "done": "deal.over"}.get(v.deal)
        add(words.say("term.sound", volume=v.volume, tone=tone,
                      deal=words.say(deal) if deal else v.deal))
        add(words.say("term.entry", entry=v.entry or "-"))
        add("> " + self.said(), "said", 3)  # above the help: a small screen shows it first
        add(words.say("term.help1"), "help")
        add(words.say("term.help2"), "help")
        if self.server is not None and self.server.mode is not None:
            add(words.say("term.serving", mode=self.server.mode, address=self.server.address))
        if self.table is not None:
            add(words.say("term.table", url=self.table.url))
        if self.panel:
            prof = s.profile
            add(words.say("term.balances"))
            named = self._names()
            ready = self.unit.ledger.ready  # no game (Err6): no balance invented (B17)
            for n, bal in s.balances():
                add("  %s %-16s %12s  %s" % (words.who(n), named.get(n, ""),
                                            words.grouped(bal) if ready else words.NO_BALANCE,
                                            words.amount(bal, prof) if ready else ""))
            add(words.say("term.recent"))
            for rec in reversed(s.recent(8)):
                add("  " + words.txn_line(rec, prof, named))
            add(words.say("term.previous"))
            for head, parts in self._kept(named) or [(words.say("win.none-kept"), ())]:
                add("  " + "  ".join((head,) + tuple(parts)), most=2)
        size = big_size(cols, rows - 3 - len(below))
        if size is None:  # the display in one line: the room is the words'
            text, k, m = self.unit.display()
            out.append((" [ %5s %s ]" % (text if v.power else "", "M" if m else "k" if k else " "),
                        "digits"))
        else:
            cw, h = size
            digits = big_digits(v.cells, v.power, cw, h)
            inner = len(digits[0]) + 4
            out.append((" " + BOX[0] + BOX[1] * inner + BOX[2], "digits"))
            for i, row in enumerate(digits):
                ann = "M" if i == 0 and v.M else "k" if i == h - 1 and v.k else " "
                out.append((" " + BOX[3] + " " + row + " " + ann + " " + BOX[3], "digits"))
            out.append((" " + BOX[4] + BOX[1] * inner + BOX[5], "digits"))
        out.extend(below)
        return [(text[:cols], kind) for text, kind in out], (v.red, v.green)


def run(host, opts):
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        # Not asked for: the window did not open (the display does not answer, or no Tk).
        announce = "term.front-end" if getattr(opts, "terminal", False) else "term.no-window"
    else:
        announce = "term.no-display"
    fd = sys.stdin.fileno()
    if not os.isatty(fd) or not os.isatty(sys.stdout.fileno()):
        from simulator import served

        host = frontend.interactive_host(host, opts)  # the game kept, as the front end keeps it
        where = {"tcp": "on TCP port %d" % opts.port if opts.port else
                 "on a TCP port picked for it (the listening line says which)",
                 "pty": "on a pty"}.get(opts.mode, "on stdio")
        sys.stderr.write("simulator: %s needs a terminal; serving the protocol %s (%s)\n"
                         % (words.say(announce, "en"), where, "the game kept in " + opts.state
                            if opts.state else "nothing kept"))
        return served.serve(host, opts)  # --tcp, --pty and --table as asked
    host = frontend.interactive_host(host, opts)
    term = Terminal(host, announce=announce)
    table = None
    if opts.table is not None:
        from simulator import table as tables

        table = tables.starter(host, opts)
    if opts.mode in ("pty", "tcp") or table is not None:
        from simulator.serve import Server

        term.server = Server(host, opts.mode, opts.port, app=term.session.app)
        line = term.server.start()
        if line:
            frontend.say(line)
        if table is not None:
            term.table = table(term.server.ports)
            term.server.sync()
    frontend.say(words.say(announce))
    screen = Curses(term, fd)
    try:
        screen.start()
        loop(term, screen, fd)
    except KeyboardInterrupt:
        pass
    finally:
        screen.stop()
        if term.table is not None:
            term.table.stop()
        if term.server is not None:
            term.server.close()
        term.session.sound.stop()
    return 0
