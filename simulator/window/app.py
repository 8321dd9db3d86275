"""The desktop window: the unit drawn on a Tk canvas, played with the mouse and the keyboard.

This module puts the window together; each part has a module of its own: layout.py (the
drawing's geometry and colours), unit.py (the drawn unit), panel.py (the banker panel), big.py
(the large display), inputs.py (keys, autorepeat, the mouse and the cards), words.py (the
sentences), sizes.py (the window's size on the screen).

Everything the unit shows is read from the firmware's outputs (`unit.display()` through
`segments.cells`, `lights.lit`, the tones it announces) and everything a person does becomes an
event on the simulated board (a key down or up, a card in or out) that the unit's own loop,
app.App, takes at the real clock's now (frontend.Session, desktop/simapp.py). The
loop sleeps in Tk until an input, or until the next moment something visible changes by itself
(`unit.deadline()`, a light's next flash, a tone's name going out): no busy loop.
"""

import os
import signal
import tkinter as tk  # a Python built without Tk: cli.py falls back to the terminal
import tkinter.font as tkfont

from desktop import words
from protocol import Protocol
from simulator import frontend
from simulator.window.big import LargeDisplay
from simulator.window.inputs import Inputs
from simulator.window.layout import H, TITLE, W
from simulator.window.panel import BankerPanel
from simulator.window.sizes import WindowSize
from simulator.window.unit import UnitDrawing
from simulator.window.words import Worded, Words

HOLD_TICK_MS = 100  # how often a held C or DEAL redraws its countdown on a real clock


def available():
    """A window can be opened: Tk is there and so is a display."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        r = tk.Tk()
    except tk.TclError:
        return False
    r.destroy()
    return True


class Window(Words, Worded, BankerPanel, LargeDisplay, UnitDrawing, Inputs, WindowSize):
    """The unit on a canvas. `root` may be given (tests); `serve` is a serve.Server or None.

    The canvas is drawn at 1:1 in layout.py's coordinates (W x H) and scaled to the window's
    size as a whole (`scale`); mouse positions are divided back. `large` shows the unit's
    display alone, filling the window, for a table to read from across it. Each part is a class
    of its own module, and this one holds their state and wires them together.
    """

    def __init__(self, host, root=None, sound=None, panel=False, large=False):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host, sound)
        # The banker panel speaks the protocol, as a host tool would, on a line of its own:
        # its events never mix with those of a client served on a pty or a socket. Its changes
        # (a game brought back) are the banker's at the unit, logged "key" as the keypad's are.
        self.desk = Protocol(self.unit, host.clock, via="key")
        self.root = root if root is not None else tk.Tk()
        self.root.title(TITLE)
        self.root.configure(bg="#3b3b3b")
        self.server = None
        self.table = None  # the table view being served (--table)
        self._after = None
        self._view = None
        self._held = {}  # key -> True while held down by the keyboard or the mouse
        self._held_at = {}  # key -> ticks it went down (the 3 s holds' countdown)
        self._mouse_key = None
        self._pending_up = {}  # key -> (after id, now, event time): a release that may be a repeat
        self._drag = None  # (card, x0, y0, moved) while a card is under the mouse
        self.selected = None  # a card picked up with a click, waiting for a slot
        self.status = ""  # a refused card movement, said until the next input
        self.note = ""  # what just happened by itself (an undo, a new game, a wake)
        if host.new_game:  # --profile's, at the start (B15)
            self.note = words.note("game", None, self.unit.ledger.profile)
        self.last_key = None  # the key a refusal is about
        self.scale = 1.0
        self.origin = (0, 0)  # where the drawing's (0, 0) is on the canvas: the unit is centred
        self._room = (W, H)  # the canvas's size
        self.large = False
        self.names = {}  # card -> name, from NAMES
        self.log_filter = 0  # 0: every player; else only the transactions of that card
        self.games = None  # GAMES' list, as the panel last read it
        self._texts = []  # (canvas item, base size, weight) for the fonts that scale
        self._fonts = {}
        self._message = None
        self._worded = []  # (widget, or (canvas, item)), sentence id: said again on F12
        self._build()
        self.unit.listeners.append(self._on_unit)
        self.panel_shown = False
        self._sized = False
        self.read_names()
        if panel:
            self.toggle_panel()
        if large:
            self.toggle_large()
        self._fit_screen()
        self.refresh()

    def _font(self, name, size, weight="normal", family="Helvetica"):
        f = tkfont.Font(root=self.root, family=family, size=size, weight=weight)
        self._fonts[name] = (f, size)
        return f

    def _build(self):
        root = self.root
        self.main = main = tk.Frame(root, bg="#3b3b3b")
        main.pack(side="left", fill="both", expand=True)
        # The lines under the unit are packed first, from the bottom: when the window is made
        # smaller it is the drawing that gives way (and scales), not the words.
        row = tk.Frame(main, bg="#3b3b3b")
        row.pack(side="bottom", fill="x", pady=(0, 6))
        # takefocus=0: the keyboard stays with the unit (space is DEAL, not these buttons).
        small = self._font("button", 9)
        self.panel_button = self.worded(tk.Button(row, takefocus=0, command=self.toggle_panel,
                                                  font=small), "win.panel")
        self.panel_button.pack(side="right", padx=8)
        self.large_button = tk.Button(row, text=words.say("win.large"), takefocus=0,
                                      command=self.toggle_large, font=small)
        self.large_button.pack(side="right")
        self.lang_button = self.worded(tk.Button(row, takefocus=0, command=self.other_lang,
                                                 font=small), "win.other-lang")
        self.lang_button.pack(side="right", padx=(0, 8))
        self.help = self.worded(tk.Label(main, wraplength=W - 20, justify="left", anchor="w",
                                         bg="#3b3b3b", fg="#dddddd",
                                         font=self._font("help", 8)), "win.help")
        self.help.pack(side="bottom", fill="x", padx=6)
        # The sentence has the window's whole width under the unit, and a room of SAY_LINES
        # lines kept for it (more only for a longer one).
        self.say_box = tk.Frame(main, bg="#3b3b3b")
        self.say_box.pack(side="bottom", fill="x", padx=6)
        self.say_box.pack_propagate(False)
        self.status_label = tk.Label(self.say_box, text="", bg="#3b3b3b", fg="#ffd166",
                                     anchor="nw", justify="left", wraplength=W - 20,
                                     font=self._font("message", 12, "bold"))
        self.status_label.pack(side="top", fill="both", expand=True)
        main.bind("<Configure>", self._wrap)
        self.canvas = c = tk.Canvas(main, width=W, height=H, bg="#3b3b3b",
                                    highlightthickness=0)
        c.pack(side="top", fill="both", expand=True)
        self.big = tk.Canvas(main, width=W, height=H // 4, bg="#3b3b3b", highlightthickness=0)
        self.panel = tk.Frame(root, bg="#f5f1e6", padx=10, pady=8)
        self._build_unit(c)
        self._build_panel(self.panel)
        c.bind("<ButtonPress-1>", self._mouse_down)
        c.bind("<B1-Motion>", self._mouse_move)
        c.bind("<ButtonRelease-1>", self._mouse_up)
        c.bind("<Configure>", self._resized)
        self.big.bind("<Configure>", lambda ev: self._draw_big(self._view, force=True))
        root.bind("<KeyPress>", self._key_press)
        root.bind("<KeyRelease>", self._key_release)
        root.bind("<FocusOut>", self._focus_out)

    # -- the language spoken -------------------------------------------------------------------

    def set_lang(self, code):
        """Speak code ('en', 'fr') from now on: every label and sentence said again."""
        words.set_lang(code)
        self.say_again()
        self.large_button.configure(text=words.say("win.whole" if self.large else "win.large"))
        self.status = ""  # said in the other language: the next input says anew
        self._panel_key = None
        self._view = None
        self._message = None
        self.refresh()

    def other_lang(self):
        self.set_lang("fr" if words.lang() == "en" else "en")

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self):
        """Draw whatever changed and sleep until the next change that needs no input."""
        self.session.step()
        if self.server is not None:
            self.server.flush()
        v = self.session.view()
        changed = v != self._view
        if changed:
            self._draw(v, self._view)
            self._view = v
        self._draw_hold()
        msg = self.message_text()
        if msg != self._message:
            self._message = msg
            self.status_label.configure(text=msg)
            self._say_room()
            changed = True
        if changed:
            self._draw_big(v)
        self._draw_panel()
        self._schedule()

    def _schedule(self):
        if self._after is not None:
            self.root.after_cancel(self._after)
            self._after = None
        ms = self.session.ms_to_change()
        if self._holding() and not self.host.clock.virtual:
            ms = HOLD_TICK_MS if ms is None else min(ms, HOLD_TICK_MS)
        if ms is not None:
            self._after = self.root.after(max(1, ms), self._wake)

    def _wake(self):
        self._after = self._waits_for_releases(self._wake)
        if self._after is None:
            self.refresh()

    # -- running -------------------------------------------------------------------------------

    def serve(self, mode, port=0):
        """Serve the protocol on a pty or a TCP port (mode None: neither, only the links a
        front end adds, the table's); the line headless prints first, or None."""
        from simulator.serve import Server

        tkapp = self.root.tk

        def watch(fd):
            tkapp.createfilehandler(fd, tk.READABLE, lambda _fd, _mask: self.server.ready(fd))

        def unwatch(fd):
            tkapp.deletefilehandler(fd)

        self.server = Server(self.host, mode, port, watch, unwatch, self._served,
                             self.session.app)
        line = self.server.start()
        self._schedule()  # a pty with no client yet is looked at again soon (Ports.recheck_ms)
        return line

    def serve_table(self, table):
        """The table view (table: simulator/table's starter) on the served ports: its line
        printed, the phones following the unit this window is."""
        self.table = table(self.server.ports)
        self.server.sync()

    def _served(self):
        self.last_key = None  # what a host tool sent is not a key pressed here
        self.read_names()
        self._panel_key = None  # a host tool may have named a card or changed a balance
        self.refresh()  # a host tool moved something: draw it, and re-plan the next wake

    def close(self):
        if self._after is not None:
            self.root.after_cancel(self._after)
            self._after = None
        if self.table is not None:
            self.table.stop()
            self.table = None
        if self.server is not None:
            self.server.close()
            self.server = None
        self.session.sound.stop()
        try:
            self.root.destroy()
        except tk.TclError:
            pass



def run(host, opts):
    host = frontend.interactive_host(host, opts)
    win = Window(host, panel=os.environ.get("BANK_SIM_PANEL") == "1",
                 large=os.environ.get("BANK_SIM_LARGE") == "1")
    table = None
    if opts.table is not None:
        from simulator import table as tables

        table = tables.starter(host, opts)
    if opts.mode in ("pty", "tcp") or table is not None:
        line = win.serve(opts.mode, opts.port)
        if line:
            frontend.say(line)  # first, as headless prints it
        if table is not None:
            win.serve_table(table)
    return live(win)


def live(win):
    """win's Tk loop until the window is closed (or Ctrl-C), then win closed; exit status 0."""
    win.root.protocol("WM_DELETE_WINDOW", win.close)
    # Tk waits in C for its next event, which may be a minute off (B16's switch-off), and a
    # signal is seen only once Python runs: a quarter-second beat lets Ctrl-C and SIGTERM in.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: win.root.quit())

    def beat():
        win.root.after(250, beat)

    beat()
    try:
        win.root.mainloop()
    except KeyboardInterrupt:
        pass
    finally:
        win.close()
    return 0
