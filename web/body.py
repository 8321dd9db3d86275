"""The page's body for the brain: the unit, its store and clock put together as the headless
simulator's Host does (simulator/host.py), run by the unit's own loop under MicroPython's
webassembly port.

The loop is app.App's, as on the Pico and in the other desktop bodies: desktop/simapp.py's
SimApp on a simulated board (desktop/simboard.py). The page (unit.js) calls `call(op, a, b)`
for every input, which becomes an event on the board (press, release, insert, remove) that
App's step takes after the timers that are due; what App drew, lit and sounded is read back
as one JSON view, with SimApp's wait until the next step. The page's serial port is its
console (`send`). Nothing here decides anything a rule decides. The store is the firmware's
own FileStore on the port's in-memory file system; the page copies each file it changed into
the browser's storage before the write returns (docs/web.md, "The game kept").
"""

import json
import os
import sys
import time

try:
    import select  # noqa: F401 (only to see whether the port has it)
except ImportError:
    # This port has no select, which app.py and desktop/ports.py import for the Pico's USB
    # poll and the desktop's ports. The page polls nothing (the browser's events are its
    # wait), so their flags are all it needs.
    class _Flags:
        POLLIN = 1
        POLLPRI = 2
        POLLOUT = 4
        POLLERR = 8
        POLLHUP = 16

    sys.modules["select"] = _Flags()

from board import lights  # noqa: E402 (after the stand-in above)
from board import segments  # noqa: E402
from brain import clock as fwclock  # noqa: E402
from brain.clock import ticks_diff  # noqa: E402
from brain import profiles  # noqa: E402
from brain import tones  # noqa: E402
from brain.ledger import CARDS, POT  # noqa: E402
from desktop import seeded  # noqa: E402
from desktop import vclock  # noqa: E402
from desktop import words  # noqa: E402
from desktop.reads import TableFeed  # noqa: E402
from desktop.simapp import SimApp  # noqa: E402
from desktop.simboard import SimBoard  # noqa: E402
from protocol import Protocol  # noqa: E402
import startup  # noqa: E402
from store import FileStore, OsFS  # noqa: E402
from store.slot import MARK_NAME, MARK_TEXT  # noqa: E402

import js  # noqa: E402  # the webassembly port's bridge to the page

LOG_LINES = 12
HOLD_TICK_MS = 100  # how often a held C or DEAL redraws its countdown on a real clock
# The window's words the page shows as they are (the maintenance label, the dark glass's, the
# kept games'): its sentences, not copies of them.
SHARED = ("win.maintenance", "win.off-glass", "win.previous", "win.none-kept", "win.bring-back",
          "panel.pot")


def _said(later):
    """The sentence of `later` (a function of none, or None for no sentence) in the language
    spoken now: a line is kept as what says it, so that the Language switch says again in the
    new language the lines already on the page."""
    return later() if later else ""


def _ticks_ms():
    return int(js.performance.now())


def _sleep_ms(ms):
    # HOLD over the page's console holds the key for real: the page freezes for that long, as
    # the desktop window does (README, "Status").
    end = js.performance.now() + ms
    while js.performance.now() < end:
        pass


class WebFS(OsFS):
    """The port's in-memory file system, each file the store finished writing copied into the
    browser's storage before done() returns: a write is kept when the store says it is (B17),
    and the store's format and its power-cut rules are the ones the unit has."""

    def __init__(self):
        OsFS.__init__(self)
        self._os_remove = self.remove
        self.open = self._open
        self.remove = self._remove
        self.writing = None

    def _open(self, path, mode="r"):
        try:
            f = open(path, mode)
        except OSError as e:
            # Emscripten's ENOENT is 44: the store knows a file not there by the unit's, 2.
            raise (OSError(2) if e.args[:1] == (44,) else e) from None
        if "w" in mode or "a" in mode:
            self.writing = path
        return f

    def done(self, f):
        try:
            OsFS.done(self, f)
        finally:
            path = self.writing
            self.writing = None
            if path is not None and not js.bankPersist(path):
                # Not kept (the browser's storage full, say): the write failed, as a full
                # flash's would, and the file is back as kept. The store refuses the change.
                raise OSError(28)

    def _remove(self, path):
        self._os_remove(path)
        js.bankForget(path)


class Console:
    """The page's serial port, as SimApp serves ports (desktop/ports.py): one Protocol, its
    lines typed in the console or sent from JavaScript (`send`), answered at once; the events
    of keys, cards and timers that App's step drains are kept for the next view."""

    def __init__(self, protocol):
        self.protocol = protocol
        self.events = []

    def more(self):
        return False  # a line is answered when it comes: nothing left over for the next step

    def waiting(self):
        return False  # the console is always there: no client to look for again

    def drain(self):
        if self.protocol.pending:
            self.events.extend(self.protocol.drain())

    def take(self):
        out = self.events
        self.events = []
        return out


class PageBoard(SimBoard):
    """The simulated board, with every tone App started kept for the page to play (the piezo's
    one at a time is the page's Web Audio, which a new tone cuts)."""

    def __init__(self):
        SimBoard.__init__(self)
        self.heard = []

    def tone(self, name, volume, now):
        self.heard.append(name)
        SimBoard.tone(self, name, volume, now)


class Page:
    def __init__(self, state_dir, seed, virtual, profile, maintenance):
        # The games it puts away are dated, as the simulator's; not on a virtual clock's run.
        self.store = FileStore(state_dir, WebFS(), wall=None if virtual else time.time)
        self.rng = seeded.Seeded(seed)
        if virtual:
            self.clock = vclock.VirtualClock()
        else:
            self.clock = fwclock.RealClock(_ticks_ms, _sleep_ms)
        self.unit = startup.make_unit(self.store, self.rng, self.clock, profile, maintenance)
        self.protocol = Protocol(self.unit, self.clock)
        # The banker panel's own line to the unit, as the window's: a game it brings back is
        # the banker's at the unit, logged "key" as the keypad's changes are.
        self.desk = Protocol(self.unit, self.clock, via="key")
        self.console = Console(self.protocol)
        self.table = None  # the line to the table view, from the first table_lines()
        self.board = PageBoard()
        self.app = SimApp(self.unit, self.clock, self.console, self.board)  # the first picture
        self._log_key = None
        self._log = []
        self._games = []
        self._kept = []  # GAMES' list as the panel last read it
        self.names = self._names()
        # What the line under the unit says, as the window's (desktop/words.py): the key a
        # refusal is about, a refused card movement or the panel's outcome, what the unit did
        # by itself; and when C or DEAL went down on the keypad (the holds' countdown). The
        # sentences are kept as what says them (_said).
        self.key = None
        self.status = None
        self.panel_said = None
        self.pot_said = None  # the pot switch's outcome, beside it
        self.note = None
        self.held_at = {}
        self.unit.listeners.append(self._on_unit)

    def _names(self):
        """The six names the banker gave (protocol NAME), or None when the store cannot read
        them."""
        from protocol import names

        try:
            return list(names.get(self.store))
        except OSError:
            return None

    def _named(self):
        return {c: n for c, n in enumerate(self.names or (), 1) if n}

    def _on_unit(self, kind, arg):
        profile = self.unit.ledger.profile
        named = self._named()
        said = words.note(kind, arg, profile, named)
        if said is not None:
            self.note = (lambda: words.note(kind, arg, profile, named)) if said else None

    def explain(self, code, key):
        """The refusal as the unit stands now, to be said (_said) in any language later."""
        u = self.unit
        bal = {c: u.ledger.bal[c] for c in range(1, CARDS + 1)}
        said = (code, u.entry, dict(u.slots), bal, u.ledger.profile, key, self._named())
        return lambda: words.explain(*said)

    def holding(self):
        """(the key held, how far along its hold is from 0 to 1, what it will do in words) while
        C or DEAL (or game night's +, K, -) is held on the keypad with the unit on, as the
        window draws its bar; None."""
        now = self.clock.now()
        for key in words.HOLDS:
            at = self.held_at.get(key)
            if at is None or not self.unit.power:
                continue
            ms = ticks_diff(now, at)
            said = words.holding(self.unit, key, ms)
            if said or key in ("C", "DEAL"):
                return key, min(1.0, max(0.0, ms / self.unit.hold_ms)), said
        return None

    def said(self, held=None):
        """The sentence under the unit: the window's for the same state (simulator/window/
        words.py)."""
        return words.under_unit(self.unit, _said(self.status), self.key, self._named(),
                                held[2] if held else "", _said(self.note))

    def restore(self, gid):
        """The panel's "bring back": RESTORE GAME over the panel's own line, as the window's
        banker panel does (maintenance mode, entered on the keypad), said in words."""
        game = {"id": gid}
        for g in self._kept:
            if g.get("id") == gid:
                game = g  # said by the number the panel lists it by
        reply = self.desk.handle("RESTORE GAME %s" % gid)[-1]
        self.status = self.panel_said = lambda: words.brought_back(game, reply)

    def switch_pot(self, on):
        """The panel's pot switch: SET POT on the panel's own line, as the window's (B22): the
        unit decides (maintenance mode, never off while the pot holds money), said in words."""
        reply = self.desk.handle("SET POT %s" % ("ON" if on else "OFF"))[-1]
        led = self.unit.ledger
        pot, profile = led.bal[POT], led.profile
        self.status = self.pot_said = lambda: words.pot_switched(on, reply, pot, profile)

    def step(self):
        """App's step at the clock's now: the timers that are due, the events put on the board,
        the picture, the tones, the protocol's events."""
        self.app.step(self.clock.now())

    # -- the outputs, as one view ---------------------------------------------------------

    def _recent(self):
        """The log's last lines, with the banker's names (as the window's panel), and the kept
        games (GAMES) in words; read again only when the store or the names changed."""
        led = self.unit.ledger
        named = self._named()
        key = (led.seq, self.store.writes, tuple(self.names or ()))
        if key != self._log_key:
            self._log_key = key
            recs = self.store.records(LOG_LINES)
            prof = led.profile
            self._log = [words.txn_line(r, prof, named) for r in reversed(recs)]
            reply = self.desk.handle("GAMES")[-1]
            kept = json.loads(reply[3:]) if reply.startswith("OK ") else []
            self._kept = kept
            self._games = []
            for g in kept:
                head, parts = words.kept_game(g, named)
                self._games.append({"id": g.get("id"), "head": head, "who": parts})
        return self._log

    def _amount(self, amount):
        return words.amount(amount, self.unit.ledger.profile)

    def view(self):
        """What the unit shows and lights (as the window and the terminal draw it), the tones
        App sounded on the board, the unit's state for the panel, and how long the page may
        sleep before the next step (SimApp.wait; -1: until input)."""
        u = self.unit
        board = self.board
        now = self.clock.now()
        text, k, m = u.display()
        led = u.ledger
        heard = board.heard
        board.heard = []
        held = self.holding()
        wait = self.app.wait(now)
        if held is not None and not self.clock.virtual:
            wait = HOLD_TICK_MS if wait < 0 else min(wait, HOLD_TICK_MS)
        return json.dumps({
            "power": u.power, "text": text, "cells": segments.cells(text) if u.power else [],
            "k": k, "M": m, "red": lights.lit(u.red(), now), "green": lights.lit(u.green(), now),
            "slots": [u.slots["L"], u.slots["R"]], "deal": u.deal_phase(), "volume": led.volume,
            "error": u.error, "entry": u.entry, "tones": heard,
            "profile": led.profile.name, "seq": led.seq, "store": u.store_status,
            # none where the unit has no good copy of the game (Err6): none invented (B17)
            "balances": [[words.grouped(b), self._amount(b)] if led.ready else
                         [words.NO_BALANCE, ""] for b in led.bal[1:CARDS + 1]],
            "log": self._recent(), "games": self._games, "wait": wait, "names": self.names,
            "events": self.console.take(), "said": self.said(held),
            "hold": [held[0], held[1]] if held else None, "maintenance": u.maintenance,
            "panel_said": _said(self.panel_said), "pot_on": led.pot_on,
            "pot_said": _said(self.pot_said),
            # the pot's money whenever it holds some, as STATE shows it
            "pot": self._amount(led.bal[POT]) if led.ready and (led.pot_on or led.bal[POT])
            else None,
        })


page = None


def start(state_dir, seed, virtual, profile, maintenance, lang="en", pot="", ask=False,
          written=False):
    """The page's unit; pot: "on" or "off" turns the Free Parking pot so (B22: ?pot=, where
    the profile is chosen), "" leaves it as the game kept it. ask: the options came in a link,
    which any web page can make, so with a game kept in this browser the unit starts as it was
    kept and the info's "asks" lists what they would change ([option, value]), for the banker
    to take (start again without ask) or leave; with none kept they are the new game's.
    written: the browser's number of this game's writes says it kept files here."""
    global page
    if written and not os.listdir(state_dir):
        # Every file gone but that number (deleted by hand, or in part by the browser): the
        # store's mark, where only the unit writes, says a game was kept, and the store boots
        # damaged with nothing invented (B17), not as a new game.
        with open(state_dir + "/" + MARK_NAME, "wb") as f:
            f.write(MARK_TEXT)
    if profile and profiles.get(profile) is None:
        # Said in words on the page, as a bad ?game= is: no traceback, nothing started.
        words.set_lang(words.lang_of(lang))
        return json.dumps({"refused": words.say("page.bad-profile", profile=profile[:40],
                                                names=", ".join(profiles.NAMES))})
    if ask and FileStore(state_dir, WebFS()).load()[0] == "new":
        ask = False  # nothing kept in this browser: the options are the new game's
    page = Page(state_dir, seed, virtual and not ask, None if ask else profile or None,
                maintenance and not ask)
    led = page.unit.ledger
    asks = []
    if ask:
        if profile and profiles.get(profile) is not led.profile:
            asks.append(["profile", profile])
        # only a switch the unit would take: on with a game to keep it in, off with none in it
        if pot in ("on", "off") and (pot == "on") != led.pot_on and led.ready and not (
                pot == "off" and led.bal[POT]):
            asks.append(["pot", pot])
        if maintenance:
            asks.append(["maintenance", "on"])
        if virtual:  # a kept game's deal timer, game clock and switch-off would stand still
            asks.append(["clock", "virtual"])
    elif pot in ("on", "off"):
        from brain import pot as brain_pot

        brain_pot.set_on(page.unit, pot == "on")  # refused (money in it): as it was
    info = json.loads(set_lang(lang))
    info["tones"] = tones.TONES
    info["asks"] = asks
    return json.dumps(info)


def set_lang(lang):
    """Speak lang from now on ('fr-CA' is French; anything but French, English); the page's
    own words in it: {"lang": ..., "texts": {sentence id: text}} (the page.*, deal.* and
    tone.* ones, a {field} left for the page to fill)."""
    words.set_lang(words.lang_of(lang))
    if page is not None:
        page._log_key = None  # the log's lines said again
    texts = words.sentences(("page.", "deal.", "tone."), SHARED)
    return json.dumps({"lang": words.lang(), "texts": texts})


def call(op, a=None, b=None):
    """One input from the page, as an event on the board that App's step takes, then the view.
    op: 'down'/'up' (a: the key), 'in' (a: the slot, b: the card), 'out' (a: the slot),
    'tick' (a step: the page's timer, set at the view's wait, ran out), 'view', 'restore'
    (a: a kept game's id, the panel's "bring back"), 'pot' (a: "on" or "off", the panel's
    switch)."""
    p = page
    app = p.app
    if op in ("down", "in", "out", "restore", "pot"):  # as the window's (window/inputs.py)
        p.status = None
        p.panel_said = None
        p.pot_said = None
        p.note = None
    if op == "down":
        p.key = a
        was_on = p.unit.power
        app.press(a)
        if not was_on and p.unit.power:
            p.note = lambda: words.woke(a)  # said in the language chosen when shown
        elif a in words.HOLDS:
            p.held_at[a] = p.clock.now()  # the waking key holds nothing (B16)
    elif op == "up":
        p.held_at.pop(a, None)
        app.release(a)
    elif op == "in":
        err = app.insert(a, int(b))
        if err:
            p.status = p.explain(err, a)
    elif op == "out":
        err = app.remove(a)
        if err:
            p.status = p.explain(err, a)
    elif op == "restore":
        p.key = None
        p.restore(int(a))
    elif op == "pot":
        p.key = None
        p.switch_pot(a == "on")
    elif op == "tick":
        p.step()
    return p.view()


def table_lines(whole=False):
    """What the table view of the simulator serving the page has not heard yet, as JSON
    (TableFeed.lines); unit.js posts it there (web/feed.js)."""
    p = page
    if p.table is None:
        p.table = TableFeed(p.unit, p.clock)
        whole = True
    return json.dumps(p.table.lines(whole, p.names))


def table_stop():
    """The page feeds no table (none serves it, or another page is its unit)."""
    if page.table is not None:
        page.table.stop()
        page.table = None


def name_refused(text):
    """Why the unit would refuse text as a name, as the window's panel says it, or ""."""
    said = words.name_refused(text)
    return words.say("panel.name-refused", why=said) if said else ""


def send(line):
    """One protocol line, as the serial port takes it: the reply lines, as the other bodies
    give them, joined by newlines. As in the other bodies' loops, a step before (the timers
    that are due happen first) and one after (the picture, tones and events the line made)."""
    page.step()
    page.key = None  # what a host sent is not a key pressed here
    page.status = None
    out = page.protocol.handle(line)
    page.step()
    page.names = page._names()  # NAME is the only way they change
    return "\n".join(out)


if "--selftest" in sys.argv:  # pragma: no cover - a quick look under the unix port
    print(start("/tmp/web-body", 1, True, None, False))
