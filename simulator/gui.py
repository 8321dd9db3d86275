"""The desktop window: the unit drawn on a Tk canvas, played with the mouse and the keyboard.

Everything the unit shows is read from the firmware's outputs (`unit.display()` through
`segments.cells`, `lights.lit`, the tones it announces) and everything a person does becomes an
event on the simulated board (a key down or up, a card in or out) that the unit's own loop,
app.App, takes at the real clock's now (frontend.Session, desktop/simapp.py). The
loop sleeps in Tk until an input, or until the next moment something visible changes by itself
(`unit.deadline()`, a light's next flash, a tone's name going out): no busy loop.
"""

import json
import os
import time

from brain.clock import ticks_diff
from brain.ledger import AMOUNT, FROM, KIND, TO, UNDOES
from protocol import Protocol
from simulator import explain, frontend

try:
    import tkinter as tk
    import tkinter.font as tkfont
except ImportError:  # pragma: no cover - a Python built without Tk
    tk = None

TITLE = "Monopoly bank unit (simulator)"

# Colours. The LCD lights its segments dark on a pale glass; switched off, the glass goes dark.
BODY = "#e9e2cf"
BODY_EDGE = "#a89f86"
BANNER = "#c8102e"
GLASS_ON = "#b9c7a4"
GLASS_OFF = "#2d332a"
SEG_ON = "#18200f"
SEG_GHOST = "#acba97"
SEG_OFF = "#323a2f"  # a dead LCD shows no ghosts, only a faint pattern in the dark glass
RED_ON, RED_OFF = "#ff2a2a", "#5c1a1a"
GREEN_ON, GREEN_OFF = "#27e05a", "#1b4a27"
KEY_FACE, KEY_DOWN, KEY_TEXT = "#fbfaf6", "#c9c4b4", "#222222"
CARD_COLOURS = {1: "#d62828", 2: "#1d4ed8", 3: "#15803d", 4: "#eab308", 5: "#7e22ce",
                6: "#ea580c"}

W, H = 480, 784
SLOT_Y = 92  # the slots' mouths, on the unit's top edge
SLOTS_X = {"L": (70, 210), "R": (270, 410)}
CARD_W, CARD_H = 64, 92
TRAY_Y = 676
DISPLAY = (48, 172, 432, 286)  # the LCD glass
CELL_X0, CELL_W, CELL_GAP, CELL_Y0, CELL_H, SEG_T = 66, 56, 12, 190, 80, 9
KEY_W, KEY_H, KEY_GAP_X, KEY_GAP_Y, KEYS_X0, KEYS_Y0 = 80, 46, 16, 12, 56, 338
KEY_ROWS = (
    ("7", "8", "9", "C"),
    ("4", "5", "6", "M"),
    ("1", "2", "3", "K"),
    ("0", ".", "DEAL"),
    ("+", "-"),
)
HELP = ("keys: 0-9 . m k c (hold c: new game)  d/space: DEAL (hold: maintenance)  + -   "
        "F1-F6: card in/out of L  Shift+F1-F6 or Ctrl+1-6: in/out of R  b: banker panel  "
        "F11: large display")
MIN_SCALE = 0.5  # below it the keys' labels no longer fit their keys
HOLD_TICK_MS = 100  # how often a held C or DEAL redraws its countdown on a real clock
NAME_MAX = 12  # names.MAX_LEN: the unit refuses longer ones

KEYSYMS = {"period": ".", "KP_Decimal": ".", "comma": ".", "m": "M", "M": "M", "k": "K",
           "K": "K", "c": "C", "C": "C", "d": "DEAL", "D": "DEAL", "space": "DEAL",
           "plus": "+", "KP_Add": "+", "equal": "+", "minus": "-", "KP_Subtract": "-",
           "underscore": "-"}
for _d in "0123456789":
    KEYSYMS[_d] = _d
    KEYSYMS["KP_" + _d] = _d
SHIFTED_DIGITS = {"exclam": 1, "at": 2, "numbersign": 3, "dollar": 4, "percent": 5,
                  "asciicircum": 6}
RELEASE_GRACE_MS = 30  # an X autorepeat's release is followed at once by a press: wait that long


def available():
    """A window can be opened: Tk is there and so is a display."""
    if tk is None or not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        r = tk.Tk()
    except tk.TclError:
        return False
    r.destroy()
    return True


def key_rects():
    """{key: (x0, y0, x1, y1)} on the canvas: the keypad's layout (the GUI tests click these)."""
    out = {}
    for row, keys in enumerate(KEY_ROWS):
        y0 = KEYS_Y0 + row * (KEY_H + KEY_GAP_Y)
        if len(keys) == 2:  # + and - are the wide green and red keys at the bottom
            wide = (4 * KEY_W + 3 * KEY_GAP_X - KEY_GAP_X) // 2
            for i, k in enumerate(keys):
                x0 = KEYS_X0 + i * (wide + KEY_GAP_X)
                out[k] = (x0, y0, x0 + wide, y0 + KEY_H + 8)
            continue
        for col, k in enumerate(keys):
            x0 = KEYS_X0 + col * (KEY_W + KEY_GAP_X)
            w = KEY_W if k != "DEAL" else 2 * KEY_W + KEY_GAP_X
            out[k] = (x0, y0, x0 + w, y0 + KEY_H)
    return out


def tray_pos(card):
    """The top-left corner of a card lying on the table below the unit."""
    return (28 + (card - 1) * (CARD_W + 12), TRAY_Y)


def slot_pos(slot):
    x0, x1 = SLOTS_X[slot]
    return ((x0 + x1 - CARD_W) // 2, SLOT_Y - CARD_H + 14)


def segment_polys(x, y, w, h, t):
    """The 7 segments a-g of one cell as polygons, plus the decimal point's oval."""
    m = y + h // 2
    ht = t // 2

    def horiz(yc):
        return (x + t, yc, x + t + ht, yc - ht, x + w - t - ht, yc - ht, x + w - t, yc,
                x + w - t - ht, yc + ht, x + t + ht, yc + ht)

    def vert(xc, ya, yb):
        return (xc, ya + ht, xc + ht, ya + t, xc + ht, yb - t, xc, yb - ht, xc - ht, yb - t,
                xc - ht, ya + t)

    a = horiz(y + ht)
    g = horiz(m)
    d = horiz(y + h - ht)
    f = vert(x + ht, y, m)
    b = vert(x + w - ht, y, m)
    e = vert(x + ht, m, y + h)
    c = vert(x + w - ht, m, y + h)
    dp = (x + w + 2, y + h - t, x + w + 2 + t, y + h)
    return (a, b, c, d, e, f, g), dp


class Window:
    """The unit on a canvas. `root` may be given (tests); `serve` is a serve.Server or None.

    The canvas is drawn at 1:1 in the coordinates above (W x H) and scaled to the window's size
    as a whole (`scale`); mouse positions are divided back. `large` shows the unit's display
    alone, filling the window, for a table to read from across it.
    """

    def __init__(self, host, root=None, sound=None, panel=False, large=False):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host, sound)
        # The banker panel speaks the protocol, as a host tool would, on a line of its own:
        # its events never mix with those of a client served on a pty or a socket.
        self.desk = Protocol(self.unit, host.clock)
        self.root = root if root is not None else tk.Tk()
        self.root.title(TITLE)
        self.root.configure(bg="#3b3b3b")
        self.root.minsize(int(W * MIN_SCALE), int(H * MIN_SCALE))
        self.server = None
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
        self.last_key = None  # the key a refusal is about
        self.scale = 1.0
        self.large = False
        self.names = {}  # card -> name, from NAMES
        self.log_filter = 0  # 0: every player; else only the transactions of that card
        self.games = None  # GAMES' list, or a string saying why there is none
        self._texts = []  # (canvas item, base size, weight) for the fonts that scale
        self._fonts = {}
        self._message = None
        self._build()
        self.unit.listeners.append(self._on_unit)
        self.panel_shown = False
        self.read_names()
        if panel:
            self.toggle_panel()
        if large:
            self.toggle_large()
        self.refresh()

    # -- building ------------------------------------------------------------------------------

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
        self.panel_button = tk.Button(row, text="banker panel (b)", takefocus=0,
                                      command=self.toggle_panel, font=small)
        self.panel_button.pack(side="right", padx=8)
        self.large_button = tk.Button(row, text="large display (F11)", takefocus=0,
                                      command=self.toggle_large, font=small)
        self.large_button.pack(side="right")
        self.help = tk.Label(main, text=HELP, wraplength=W - 10, justify="left",
                             bg="#3b3b3b", fg="#dddddd", font=self._font("help", 8))
        self.help.pack(side="bottom", fill="x")
        self.status_label = tk.Label(main, text="", bg="#3b3b3b", fg="#ffd166", anchor="w",
                                     justify="left", wraplength=W - 10,
                                     font=self._font("message", 12, "bold"))
        self.status_label.pack(side="bottom", fill="x", padx=6)
        self.canvas = c = tk.Canvas(main, width=W, height=H, bg="#3b3b3b",
                                    highlightthickness=0)
        c.pack(side="top", fill="both", expand=True)
        self.big = tk.Canvas(main, width=W, height=H // 4, bg="#3b3b3b", highlightthickness=0)
        self.panel = tk.Frame(root, bg="#f5f1e6", padx=10, pady=10)
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

    def _round_rect(self, c, x0, y0, x1, y1, r, **kw):
        pts = (x0 + r, y0, x1 - r, y0, x1, y0, x1, y0 + r, x1, y1 - r, x1, y1, x1 - r, y1,
               x0 + r, y1, x0, y1, x0, y1 - r, x0, y0 + r, x0, y0)
        return c.create_polygon(pts, smooth=True, **kw)

    def _text(self, c, x, y, size, weight="bold", **kw):
        """A canvas text whose font follows the scale (canvas.scale moves items, not fonts)."""
        item = c.create_text(x, y, font=("Helvetica", size, weight), **kw)
        self._texts.append((item, size, weight))
        return item

    def _build_unit(self, c):
        self._texts = []
        # The table the cards lie on, the unit's body, its banner and slots.
        self._text(c, W // 2, TRAY_Y - 14, 9, "normal", text="bank cards: drag one to a slot, "
                   "or click it then a slot", fill="#bbbbbb")
        self._round_rect(c, 20, SLOT_Y - 8, W - 20, 644, 40, fill=BODY, outline=BODY_EDGE,
                         width=3, tags="body")
        self._round_rect(c, 36, 118, W - 36, 158, 14, fill=BANNER, outline="")
        self._text(c, W // 2, 138, 15, text="MONOPOLY  BANK", fill="white")
        for slot, (x0, x1) in SLOTS_X.items():
            c.create_rectangle(x0, SLOT_Y - 5, x1, SLOT_Y + 5, fill="#111111", outline="#555555",
                               tags=("slot", "slot-" + slot))
            label = "L  credit  +" if slot == "L" else "R  debit  -"
            self._text(c, (x0 + x1) // 2, SLOT_Y + 16, 10, text=label,
                       fill="#15803d" if slot == "L" else "#b91c1c")
        # The two lights on the banner; maintenance mode is said next to the green one.
        self.light_items = {
            "red": c.create_oval(58, 129, 76, 147, fill=RED_OFF, outline="#330000", width=2,
                                 tags="light-red"),
            "green": c.create_oval(W - 76, 129, W - 58, 147, fill=GREEN_OFF, outline="#002200",
                                   width=2, tags="light-green"),
        }
        self.maint_item = self._text(c, W - 84, 138, 9, text="", anchor="e", fill="#d9f99d",
                                     tags="maintenance")
        # The LCD: 5 cells of 7 segments and a point, and the k and M annunciators.
        self.glass = self._round_rect(c, *DISPLAY, 10, fill=GLASS_ON, outline="#555555", width=3)
        self.seg_items = []
        self.dp_items = []
        for i in range(5):
            x = CELL_X0 + i * (CELL_W + CELL_GAP)
            polys, dp = segment_polys(x, CELL_Y0, CELL_W, CELL_H, SEG_T)
            cell = []
            for s, pts in enumerate(polys):
                cell.append(c.create_polygon(pts, fill=SEG_GHOST, outline="",
                                             tags=("seg", "seg-%d-%s" % (i, "abcdefg"[s]))))
            self.seg_items.append(cell)
            self.dp_items.append(c.create_oval(*dp, fill=SEG_GHOST, outline="",
                                               tags=("seg", "dp-%d" % i)))
        ax = DISPLAY[2] - 20
        self.ann_items = {
            "M": self._text(c, ax, CELL_Y0 + 12, 16, text="M", fill=SEG_GHOST, tags="ann-M"),
            "k": self._text(c, ax, CELL_Y0 + CELL_H - 10, 16, text="k", fill=SEG_GHOST,
                            tags="ann-k"),
        }
        # Switched off (B16), the dark glass says what wakes it.
        self.off_item = self._text(c, (DISPLAY[0] + DISPLAY[2]) // 2, DISPLAY[3] - 12, 9,
                                   "normal", text="", fill="#9aa58c", tags="off-note")
        # The speaker: the volume (B12) and the name of the tone sounding (B18), always shown.
        sy = 306
        c.create_polygon(60, sy - 5, 67, sy - 5, 76, sy - 12, 76, sy + 12, 67, sy + 5, 60,
                         sy + 5, fill="#444444", tags="speaker")
        self.vol_items = [c.create_arc(66 + 8 * i, sy - 6 - 4 * i, 86 + 8 * i, sy + 6 + 4 * i,
                                       start=-45, extent=90, style="arc", width=3,
                                       outline="#444444") for i in range(2)]
        self.mute_item = self._text(c, 100, sy, 14, text="x", fill="#b91c1c")
        self.tone_item = self._text(c, 118, sy, 12, text="", anchor="w", fill="#7c2d12",
                                    tags="tone")
        self.deal_item = self._text(c, W - 60, sy, 10, "normal", text="", anchor="e",
                                    fill="#444444")
        # The keypad; a held C or DEAL fills a bar along its key (the 3 s holds, B11).
        self.key_items = {}
        for k, (x0, y0, x1, y1) in key_rects().items():
            face = {"+": "#16a34a", "-": "#dc2626", "C": "#f4b183"}.get(k, KEY_FACE)
            ink = "white" if k in "+-" else KEY_TEXT
            shape = self._round_rect(c, x0, y0, x1, y1, 10, fill=face, outline="#777777",
                                     width=2, tags=("key", "key-" + k))
            label = {"DEAL": "DEAL  (handshake)", "-": "\u2212"}.get(k, k)
            self._text(c, (x0 + x1) // 2, (y0 + y1) // 2, 11 if k == "DEAL" else 18,
                       text=label, fill=ink, tags=("keytext", "key-" + k))
            self.key_items[k] = (shape, face)
        self.hold_bar = c.create_rectangle(0, 0, 0, 0, fill="#c8102e", outline="",
                                           state="hidden", tags="hold-bar")
        # The six cards.
        self.card_items = {}
        for n in range(1, 7):
            x, y = tray_pos(n)
            tag = "card-%d" % n
            self._round_rect(c, x, y, x + CARD_W, y + CARD_H, 8, fill=CARD_COLOURS[n],
                             outline="#222222", width=2, tags=("card", tag, tag + "-face"))
            self._text(c, x + CARD_W // 2, y + 14, 10, "normal", text="\u25b2", fill="white",
                       tags=("card", tag))
            self._text(c, x + CARD_W // 2, y + CARD_H // 2 + 4, 26, text=str(n), fill="white",
                       tags=("card", tag))
            self.card_items[n] = tag
        self.card_at = {n: tray_pos(n) for n in range(1, 7)}
        c.tag_raise("body")
        c.tag_lower("body")

    def _build_panel(self, p):
        bg = "#f5f1e6"
        title = self._font("panel-title", 14, "bold")
        head = self._font("panel-head", 11, "bold")
        text = self._font("panel", 11)
        mono = self._font("panel-mono", 11, family="Courier")
        small = self._font("panel-small", 10, family="Courier")
        tk.Label(p, text="Banker", font=title, bg=bg).pack(anchor="w")
        grid = tk.Frame(p, bg=bg)
        grid.pack(anchor="w", pady=(6, 4))
        self.bal_labels = {}
        self.name_entries = {}
        for n in range(1, 7):
            tk.Label(grid, text=" %d " % n, bg=CARD_COLOURS[n], fg="white", font=head).grid(
                row=n, column=0, sticky="w", pady=1)
            # The banker names the card here (NAME, kept with the game); Return keeps it.
            ent = tk.Entry(grid, width=NAME_MAX, font=text, relief="flat", bg="#fffdf7")
            ent.grid(row=n, column=1, sticky="w", padx=(6, 0))
            ent.bind("<Return>", lambda ev, n=n: self.name_card(n, ev.widget.get()))
            ent.bind("<KP_Enter>", lambda ev, n=n: self.name_card(n, ev.widget.get()))
            ent.bind("<Escape>", lambda ev: self._entry_done())
            self.name_entries[n] = ent
            lab = tk.Label(grid, text="", bg=bg, font=mono, anchor="e", width=11)
            lab.grid(row=n, column=2, sticky="e", padx=(6, 4))
            short = tk.Label(grid, text="", bg=bg, fg="#555555", font=small, anchor="w", width=8)
            short.grid(row=n, column=3, sticky="w")
            self.bal_labels[n] = (lab, short)
        tk.Label(p, text="name a card: type, then Return", bg=bg, fg="#777777",
                 font=self._font("panel-hint", 9)).pack(anchor="w")
        top = tk.Frame(p, bg=bg)
        top.pack(anchor="w", fill="x", pady=(8, 0))
        tk.Label(top, text="Transactions of", font=head, bg=bg).pack(side="left")
        self.filter_var = tk.StringVar(master=self.root, value="every player")
        self.filter_menu = tk.OptionMenu(top, self.filter_var, "every player")
        self.filter_menu.configure(font=text, takefocus=0, highlightthickness=0)
        self.filter_menu.pack(side="left", padx=(6, 0))
        self.log_text = tk.Text(p, width=36, height=12, font=small, bg="#fffdf7",
                                relief="flat", state="disabled", takefocus=0)
        self.log_text.pack(anchor="w", fill="both", expand=True)
        tk.Label(p, text="Previous games", font=head, bg=bg).pack(anchor="w", pady=(8, 0))
        self.games_frame = tk.Frame(p, bg=bg)
        self.games_frame.pack(anchor="w", fill="x")
        self._panel_key = None

    # -- names ---------------------------------------------------------------------------------

    def ask(self, line):
        """One protocol line from the banker panel: (ok, payload or the ERR line)."""
        reply = self.desk.handle(line)[-1]
        if reply == "OK":
            return True, None
        if reply.startswith("OK "):
            return True, json.loads(reply[3:])
        return False, reply

    def read_names(self):
        ok, got = self.ask("NAMES")
        self.names = {int(k): v for k, v in got.items() if v and k.isdigit()} if ok else {}
        return self.names

    def name_card(self, card, text):
        """The banker panel's NAME: the unit keeps it with the game (protocol/names.py)."""
        text = " ".join(text.split())
        ok, got = self.ask("NAME %d %s" % (card, text) if text else "NAME %d" % card)
        if ok:
            self.names = {int(k): v for k, v in got.items() if v and k.isdigit()}
            self.status = ("card %d is %s" % (card, text)) if text else (
                "card %d has no name now" % card)
        else:
            self.status = "the name was not kept: " + got.split(" ", 2)[-1]
        self._entry_done()
        self._panel_key = None
        self.refresh()
        return ok

    def _entry_done(self):
        self.root.focus_set()  # the keyboard goes back to the unit

    # -- the panel -----------------------------------------------------------------------------

    def toggle_panel(self):
        if self.panel_shown:
            self.panel.pack_forget()
        else:
            self.panel.pack(side="left", fill="y")
        self.panel_shown = not self.panel_shown
        self._panel_key = None
        self._draw_panel()

    def set_filter(self, card):
        """Show only card's transactions in the panel's log (0: every player's)."""
        self.log_filter = card
        self.filter_var.set(self._player(card) if card else "every player")
        self._panel_key = None
        self._draw_panel()

    def _player(self, card):
        return explain.who(card, self.names)

    def _draw_panel(self):
        if not self.panel_shown:
            return
        led = self.unit.ledger
        key = (led.seq, led.store.writes, tuple(led.bal), self.log_filter)
        if key == self._panel_key:
            return
        self._panel_key = key
        self.read_names()
        prof = led.profile
        for n, bal in self.session.balances():
            lab, short = self.bal_labels[n]
            lab.configure(text=frontend.grouped(bal))
            short.configure(text=frontend.amount_text(bal, prof))
            ent = self.name_entries[n]
            if self.root.focus_get() is not ent:
                ent.delete(0, "end")
                ent.insert(0, self.names.get(n, ""))
        menu = self.filter_menu["menu"]
        menu.delete(0, "end")
        for n in range(7):
            menu.add_command(label=self._player(n) if n else "every player",
                             command=lambda n=n: self.set_filter(n))
        self.filter_var.set(self._player(self.log_filter) if self.log_filter else "every player")
        recs = self.session.recent(200 if self.log_filter else 16)
        if self.log_filter:
            recs = [r for r in recs if self.log_filter in (r[FROM], r[TO])][-16:]
        lines = [frontend.txn_text(r, prof, self.names) for r in reversed(recs)]
        self.log_text.configure(state="normal")
        self.log_text.delete("1.0", "end")
        self.log_text.insert("end", "\n".join(lines) if lines else "(none yet)")
        self.log_text.configure(state="disabled")
        self.draw_games()

    def draw_games(self):
        """The previous games the unit keeps (GAMES), each with a button that brings it back
        (RESTORE GAME, maintenance mode); firmware without GAMES says so."""
        ok, got = self.ask("GAMES")
        if ok and isinstance(got, list):
            self.games = got
        elif not ok and got.split()[1:2] == ["unknown-command"]:
            self.games = "not available: this unit's firmware keeps no list of games (GAMES)"
        else:
            self.games = "cannot be read: " + (got if not ok else "an unexpected reply")
        for w in self.games_frame.winfo_children():
            w.destroy()
        bg = "#f5f1e6"
        font = self._fonts["panel-small"][0]
        if isinstance(self.games, str):
            tk.Label(self.games_frame, text=self.games, bg=bg, fg="#777777", font=font,
                     wraplength=300, justify="left").pack(anchor="w")
            return
        if not self.games:
            tk.Label(self.games_frame, text="(none kept yet)", bg=bg, fg="#777777",
                     font=font).pack(anchor="w")
            return
        for g in self.games:
            row = tk.Frame(self.games_frame, bg=bg)
            row.pack(anchor="w", fill="x", pady=1)
            tk.Label(row, text=self.game_text(g), bg=bg, font=font, justify="left",
                     anchor="w").pack(side="left")
            tk.Button(row, text="bring back", takefocus=0, font=self._fonts["button"][0],
                      command=lambda g=g: self.restore_game(g.get("id"))).pack(side="right")

    def game_text(self, g):
        """One previous game in two short lines: what it was, then who had what."""
        prof = g.get("profile") or "world"
        n = g.get("transactions")
        name = g.get("number") or g.get("id")  # firmware from before numbers: its id
        if g.get("damaged"):
            return "game %s: damaged in the unit's memory\ncannot be brought back" % name
        head = "game %s (%s), %s" % (name, prof, "%d transactions" % n
                                     if isinstance(n, int) else "transactions unknown")
        if isinstance(g.get("kept"), int):
            head += ", put away " + time.strftime("%d %b %H:%M", time.localtime(g["kept"]))
        bal = g.get("balances") or {}
        money_of = explain.profiles.get(prof) or explain.profiles.get("world")
        parts = ["%s %s" % (self.names.get(int(c)) or c, explain.amount(v, money_of))
                 for c, v in sorted(bal.items()) if isinstance(v, int)]
        return head + "\n" + "  ".join(parts)

    def restore_game(self, game_id):
        ok, got = self.ask("RESTORE GAME %s" % game_id)
        if ok:
            self.status = "game %s is back (B11)" % game_id
        elif got.split()[1:2] == ["maintenance-required"]:
            self.status = ("bringing a game back needs maintenance mode: hold DEAL for 3 "
                           "seconds on the unit, then try again")
        else:
            self.status = "game %s was not brought back: %s" % (game_id, got[4:])
        self._panel_key = None
        self._view = None
        self.refresh()
        return ok

    # -- sizes ---------------------------------------------------------------------------------

    def _resized(self, ev):
        s = max(MIN_SCALE, min(ev.width / W, ev.height / H))
        if abs(s - self.scale) < 0.01:
            return
        self.rescale(s)

    def rescale(self, s):
        """Everything drawn s times its size: the unit, its fonts, the labels and the panel."""
        c = self.canvas
        self._drag = None
        c.delete("all")
        self._build_unit(c)
        c.scale("all", 0, 0, s, s)
        self.scale = s
        for item, size, weight in self._texts:
            c.itemconfigure(item, font=("Helvetica", -max(6, round(size * s * 4 / 3)), weight))
        for font, size in self._fonts.values():
            font.configure(size=max(6, round(size * max(1.0, s * 0.85))))
        wrap = max(200, int(W * s) - 10)
        self.status_label.configure(wraplength=wrap)
        self.help.configure(wraplength=wrap)
        self._view = None
        self.refresh()

    def toggle_large(self):
        """The unit's display alone, filling the window (F11 again: the whole unit)."""
        self.large = not self.large
        if self.large:
            self.canvas.pack_forget()
            self.status_label.pack_forget()  # the large display says it, larger
            self.big.pack(side="top", fill="both", expand=True)
        else:
            self.big.pack_forget()
            self.status_label.pack(side="bottom", fill="x", padx=6, before=self.help)
            self.canvas.pack(side="top", fill="both", expand=True)
        self.large_button.configure(text="whole unit (F11)" if self.large else
                                    "large display (F11)")
        self._view = None
        self.refresh()

    def _draw_big(self, v, force=False):
        """The large display: the five cells, the annunciators and the lights, as big as the
        window allows, and the sentence under them."""
        if not self.large or v is None:
            return
        c = self.big
        c.delete("all")
        bw, bh = max(c.winfo_width(), 100), max(c.winfo_height(), 100)
        margin = bw // 24
        cell_w = (bw - 3 * margin) / 6.7  # 5 cells, their 4 gaps and the annunciators' column
        cell_h = min(cell_w * 1.45, bh * 0.5)
        cell_w = cell_h / 1.45
        gap = cell_w * 0.2
        width = 5 * cell_w + 4 * gap + cell_w * 0.9
        x0 = (bw - width) / 2
        # The lights' row, the glass, the cards' line and the sentence, centred as a block.
        block = cell_h * 0.3 + cell_h + margin + cell_h * 0.6
        y0 = max(margin / 2 + cell_h * 0.3, (bh - block) / 2 + cell_h * 0.3)
        on = v.power
        ghost = SEG_GHOST if on else SEG_OFF
        self._round_rect(c, x0 - margin / 2, y0 - margin / 2, x0 + width + margin / 2,
                         y0 + cell_h + margin / 2, 16, fill=GLASS_ON if on else GLASS_OFF,
                         outline="#555555", width=3, tags="big-glass")
        t = max(4, int(cell_w * 0.16))
        for i, byte in enumerate(v.cells):
            x = x0 + i * (cell_w + gap)
            polys, dp = segment_polys(int(x), int(y0), int(cell_w), int(cell_h), t)
            for s, pts in enumerate(polys):
                c.create_polygon(pts, outline="", fill=SEG_ON if byte >> s & 1 else ghost,
                                 tags="big-seg")
            c.create_oval(*dp, outline="", fill=SEG_ON if byte & 0x80 else ghost,
                          tags="big-dp")
        ax = x0 + 5 * (cell_w + gap) + cell_w * 0.3
        size = -max(10, int(cell_h * 0.22))
        c.create_text(ax, y0 + cell_h * 0.15, text="M", font=("Helvetica", size, "bold"),
                      fill=SEG_ON if v.M else ghost, tags="big-M")
        c.create_text(ax, y0 + cell_h * 0.85, text="k", font=("Helvetica", size, "bold"),
                      fill=SEG_ON if v.k else ghost, tags="big-k")
        r = max(8, int(cell_h * 0.08))
        ly = y0 - margin / 2 - cell_h * 0.12
        c.create_oval(x0, ly - r, x0 + 2 * r, ly + r, fill=RED_ON if v.red else RED_OFF,
                      outline="#330000", width=2, tags="big-red")
        c.create_oval(x0 + width - 2 * r, ly - r, x0 + width, ly + r,
                      fill=GREEN_ON if v.green else GREEN_OFF, outline="#002200", width=2,
                      tags="big-green")
        label = "MONOPOLY  BANK" + ("   \u2014   maintenance" if self.unit.maintenance else "")
        c.create_text(bw / 2, ly, text=label, fill="white",
                      font=("Helvetica", -max(10, int(r * 1.6)), "bold"))
        slots = []
        for slot, n in zip(("L", "R"), v.slots, strict=True):
            slots.append("%s: %s" % (slot, self._player(n) if n else "\u2014"))
        info = "   ".join(slots)
        if v.tone:
            info += "   \u266a " + v.tone
        if v.deal != "idle":
            info += "   deal: " + v.deal
        fy = y0 + cell_h + margin
        c.create_text(bw / 2, fy, text=info, fill="#eeeeee", anchor="n",
                      font=("Helvetica", -max(10, int(cell_h * 0.13)), "bold"), tags="big-info")
        c.create_text(bw / 2, fy + cell_h * 0.25, text=self.message_text(), fill="#ffd166",
                      anchor="n", width=bw - 2 * margin, justify="center",
                      font=("Helvetica", -max(10, int(cell_h * 0.13)), "bold"),
                      tags="big-message")

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
        self._after = None
        self._flush_releases()
        self.refresh()

    def _draw(self, v, old):
        c = self.canvas
        on = v.power
        ghost = SEG_GHOST if on else SEG_OFF
        c.itemconfigure(self.glass, fill=GLASS_ON if on else GLASS_OFF)
        for i, byte in enumerate(v.cells):
            for s in range(7):
                c.itemconfigure(self.seg_items[i][s], fill=SEG_ON if byte >> s & 1 else ghost)
            c.itemconfigure(self.dp_items[i], fill=SEG_ON if byte & 0x80 else ghost)
        c.itemconfigure(self.ann_items["k"], fill=SEG_ON if v.k else ghost)
        c.itemconfigure(self.ann_items["M"], fill=SEG_ON if v.M else ghost)
        c.itemconfigure(self.light_items["red"], fill=RED_ON if v.red else RED_OFF)
        c.itemconfigure(self.light_items["green"], fill=GREEN_ON if v.green else GREEN_OFF)
        c.itemconfigure(self.maint_item, text="MAINTENANCE" if self.unit.maintenance else "")
        c.itemconfigure(self.off_item, text="" if on else
                        "switched off: a key or a card wakes it")
        for i, item in enumerate(self.vol_items):
            c.itemconfigure(item, outline="#444444" if v.volume > i else BODY)
        c.itemconfigure(self.mute_item, text="" if v.volume else "x")
        c.itemconfigure(self.tone_item, text=("\u266a " + v.tone) if v.tone else "")
        c.itemconfigure(self.deal_item, text="" if v.deal == "idle" else "deal: " + v.deal)
        if old is None or old.slots != v.slots:
            self._place_cards(v.slots)

    def _place_cards(self, slots):
        c = self.canvas
        s = self.scale
        where = {slots[0]: "L", slots[1]: "R"}
        for n in range(1, 7):
            if self._drag is not None and self._drag[0] == n:
                continue
            slot = where.get(n)
            x, y = slot_pos(slot) if slot else tray_pos(n)
            ox, oy = self.card_at[n]
            c.move(self.card_items[n], (x - ox) * s, (y - oy) * s)
            self.card_at[n] = (x, y)
            if slot:
                c.tag_lower(self.card_items[n], "body")  # its lower half is inside the unit
            else:
                c.tag_raise(self.card_items[n])
            face = self.card_items[n] + "-face"
            c.itemconfigure(face, outline="#ffffff" if self.selected == n else "#222222",
                            width=4 if self.selected == n else 2)

    def say(self, text):
        self.status = text
        self.refresh()

    # -- what the window says in words (explain.py) --------------------------------------------

    def message_text(self):
        """The line under the unit: a refusal explained, a hold counting down, what just
        happened by itself, or the mode the unit is in."""
        u = self.unit
        if self.status:
            return self.status
        if u.error:
            return self.explain(u.error)
        shown = explain.on_display(u.display()[0])
        if shown and shown != "insufficient-funds":
            return explain.explain(shown)
        hold = self.hold_text()
        if hold:
            return hold
        if not u.power:
            return ("switched itself off after a minute without use (B16): the next key only "
                    "wakes it, a card wakes it and counts")
        if self.note:
            return self.note
        if u.maintenance:
            return ("maintenance mode: host tools may set balances and the profile; hold DEAL "
                    "for 3 seconds to leave it")
        return ""

    def explain(self, code, key=None):
        u = self.unit
        return explain.explain(code, u.entry, u.slots, dict(self.session.balances()),
                               u.ledger.profile, key=key or self.last_key, names=self.names)

    def _holding(self):
        return any(k in self._held for k in ("C", "DEAL"))

    def hold_text(self):
        """While C or DEAL is held: what the hold will do, and in how long (B11, maintenance)."""
        now = self.host.clock.now()
        for key in ("C", "DEAL"):
            at = self._held_at.get(key)
            if at is None or key not in self._held or not self.unit.power:
                continue
            left = self.unit.hold_ms - ticks_diff(now, at)
            if left <= 0:
                continue
            if key == "C":
                return ("holding C: a new game in %.1f s, every card back to the start (B11); "
                        "let go now for a plain C" % (left / 1000.0))
            what = "off" if self.unit.maintenance else "on"
            return ("holding DEAL: maintenance mode %s in %.1f s; let go now to only run the "
                    "deal timer" % (what, left / 1000.0))
        return ""

    def _draw_hold(self):
        c = self.canvas
        now = self.host.clock.now()
        for key in ("C", "DEAL"):
            at = self._held_at.get(key)
            if at is None or key not in self._held or not self.unit.power:
                continue
            done = min(1.0, max(0.0, ticks_diff(now, at) / float(self.unit.hold_ms)))
            x0, y0, x1, y1 = key_rects()[key]
            s = self.scale
            c.coords(self.hold_bar, (x0 + 6) * s, (y1 - 8) * s,
                     (x0 + 6 + (x1 - x0 - 12) * done) * s, (y1 - 4) * s)
            c.itemconfigure(self.hold_bar, state="normal")
            c.tag_raise(self.hold_bar)
            return
        c.itemconfigure(self.hold_bar, state="hidden")

    def _on_unit(self, kind, arg):
        """What happens by itself gets a line of its own (undo, new game, switch-off)."""
        if kind == "txn" and arg[KIND] == "undo":
            prof = self.unit.ledger.profile

            def side(c):
                return self._player(c) if c else "the bank"

            self.note = ("C reversed #%d: %s back from %s to %s (B10)" % (
                arg[UNDOES], explain.amount(arg[AMOUNT], prof), side(arg[FROM]), side(arg[TO])))
        elif kind == "txn":
            self.note = ""
        elif kind == "game":
            self.note = "a new game: every card back to %s (B11)" % explain.amount(
                self.unit.ledger.profile.start, self.unit.ledger.profile)
        elif kind == "power" and arg == "off":
            self.note = ""

    # -- reading the drawing back (what a person sees; the GUI tests use it) -------------------

    def shown(self):
        """(text, k, M, power look) decoded from the canvas items' colours, not from the unit."""
        return self._decode(self.canvas, self.seg_items, self.dp_items, self.ann_items,
                            self.glass)

    def big_shown(self):
        """The same, read from the large display's canvas."""
        c = self.big
        segs = c.find_withtag("big-seg")
        cells = [segs[i * 7:i * 7 + 7] for i in range(5)]
        dps = c.find_withtag("big-dp")
        ann = {"k": c.find_withtag("big-k")[0], "M": c.find_withtag("big-M")[0]}
        return self._decode(c, cells, dps, ann, c.find_withtag("big-glass")[0])

    def _decode(self, c, seg_items, dp_items, ann_items, glass):
        from board.segments import CHARS, CODES

        by_byte = {}
        for ch, g in zip(CHARS, CODES, strict=True):
            by_byte.setdefault(g, ch)
        text = ""
        for i in range(5):
            byte = 0
            for s in range(7):
                if c.itemcget(seg_items[i][s], "fill") == SEG_ON:
                    byte |= 1 << s
            if byte:
                text += by_byte.get(byte, "?")
            if dp_items[i] is not None and c.itemcget(dp_items[i], "fill") == SEG_ON:
                text += "."
        k = c.itemcget(ann_items["k"], "fill") == SEG_ON
        m = c.itemcget(ann_items["M"], "fill") == SEG_ON
        dark = c.itemcget(glass, "fill") == GLASS_OFF
        return text.strip(), k, m, not dark

    def light_shown(self, which):
        fill = self.canvas.itemcget(self.light_items[which], "fill")
        return fill in (RED_ON, GREEN_ON)

    def card_shown_at(self, n):
        """'L', 'R' or None: where card n is drawn."""
        x, y = self.card_at[n]
        for slot in ("L", "R"):
            if (x, y) == slot_pos(slot):
                return slot
        return None

    # -- the keypad ----------------------------------------------------------------------------

    def press(self, key):
        if self._held.get(key):
            return
        self._held[key] = True
        self._held_at[key] = self.host.clock.now()
        self._key_look(key, True)
        self.status = ""
        self.note = ""
        self.last_key = key
        was_on = self.unit.power
        self.session.key_down(key)
        if not was_on and self.unit.power:
            self.note = ("the unit was switched off (B16): that %s only woke it; press it "
                         "again" % ("key" if len(key) > 1 else "key " + key))
        self.refresh()

    def release(self, key, now=None):
        if not self._held.pop(key, None):
            return
        self._held_at.pop(key, None)
        self._key_look(key, False)
        self.session.key_up(key, now)
        self.refresh()

    def _key_look(self, key, down):
        shape, face = self.key_items[key]
        self.canvas.itemconfigure(shape, fill=KEY_DOWN if down else face)

    def _typing(self, ev):
        # A name being typed into the banker panel is not the unit's keypad.
        return isinstance(ev.widget, tk.Entry)

    def _key_press(self, ev):
        if self._typing(ev):
            return
        sym = ev.keysym
        ctrl = ev.state & 0x4
        shift = ev.state & 0x1
        if sym == "F11":
            self.toggle_large()
            return
        if sym.startswith("F") and sym[1:].isdigit() and 1 <= int(sym[1:]) <= 6:
            self.move_card(int(sym[1:]), "R" if shift else "L")
            return
        if sym in SHIFTED_DIGITS:
            self.move_card(SHIFTED_DIGITS[sym], "L")
            return
        if ctrl and sym in "123456" and len(sym) == 1:
            self.move_card(int(sym), "R")
            return
        if ctrl:
            return
        if sym in ("b", "B"):
            self.toggle_panel()
            return
        key = KEYSYMS.get(sym)
        if key is None:
            return
        pending = self._pending_up.pop(key, None)
        if pending is not None:
            # X autorepeat: a release and a press at once. The key never went up.
            self.root.after_cancel(pending[0])
            return
        self.press(key)

    def _key_release(self, ev):
        if self._typing(ev):
            return
        key = KEYSYMS.get(ev.keysym)
        if key is None or not self._held.get(key) or key in self._pending_up:
            return
        now = self.host.clock.now()
        aid = self.root.after(RELEASE_GRACE_MS, lambda: self._real_release(key))
        self._pending_up[key] = (aid, now)

    def _real_release(self, key):
        pending = self._pending_up.pop(key, None)
        if pending is not None:
            self.release(key, pending[1])

    def _flush_releases(self):
        # A timer is due while a release waits out its grace: the release happened first.
        for key in list(self._pending_up):
            aid, _now = self._pending_up[key]
            self.root.after_cancel(aid)
            self._real_release(key)

    def _focus_out(self, ev):
        # Keys held when the window loses the keyboard would never see their release.
        if ev.widget is self.root:
            self._flush_releases()
            for key in list(self._held):
                if key != self._mouse_key:
                    self.release(key)

    # -- the mouse: keys, cards, slots ---------------------------------------------------------

    def _at(self, ev):
        """The event's position in the drawing's own coordinates (before scaling)."""
        return ev.x / self.scale, ev.y / self.scale

    def _key_at(self, x, y):
        for k, (x0, y0, x1, y1) in key_rects().items():
            if x0 <= x <= x1 and y0 <= y <= y1:
                return k
        return None

    def _card_at(self, x, y):
        # The topmost card under the pointer, the one being picked up.
        for n in range(6, 0, -1):
            cx, cy = self.card_at[n]
            if cx <= x <= cx + CARD_W and cy <= y <= cy + CARD_H:
                slot = self.card_shown_at(n)
                if slot is None or y < SLOT_Y:  # a card in a slot is held by what sticks out
                    return n
        return None

    def _slot_at(self, x, y):
        for slot, (x0, x1) in SLOTS_X.items():
            if x0 - 30 <= x <= x1 + 30 and y <= SLOT_Y + 40:
                return slot
        return None

    def _mouse_down(self, ev):
        x, y = self._at(ev)
        key = self._key_at(x, y)
        if key is not None:
            self._mouse_key = key
            self.press(key)
            return
        card = self._card_at(x, y)
        if card is not None:
            self._drag = [card, x, y, False]
            self.canvas.tag_raise(self.card_items[card])
            return
        slot = self._slot_at(x, y)
        if slot is not None and self.selected is not None:
            card, self.selected = self.selected, None
            self.insert(card, slot)

    def _mouse_move(self, ev):
        d = self._drag
        if d is None:
            return
        x, y = self._at(ev)
        dx, dy = x - d[1], y - d[2]
        if not d[3] and abs(dx) + abs(dy) < 6:
            return
        d[3] = True
        self.canvas.move(self.card_items[d[0]], dx * self.scale, dy * self.scale)
        cx, cy = self.card_at[d[0]]
        self.card_at[d[0]] = (cx + dx, cy + dy)
        d[1], d[2] = x, y

    def _mouse_up(self, ev):
        if self._mouse_key is not None:
            key, self._mouse_key = self._mouse_key, None
            self.release(key)
            return
        d = self._drag
        if d is None:
            return
        self._drag = None
        card, moved = d[0], d[3]
        was = self._slot_of(card)
        self.status = ""
        self.note = ""
        if moved:
            x, y = self.card_at[card]
            target = self._slot_at(x + CARD_W // 2, y + CARD_H // 2 - 20)
            if was is not None and target != was:
                self.session.card_out(was)
                if target is not None:
                    self.insert(card, target, refresh=False)
            elif was is None and target is not None:
                self.insert(card, target, refresh=False)
        elif was is not None:
            self.session.card_out(was)  # a click on a card in a slot takes it out
        else:
            self.selected = None if self.selected == card else card  # then click a slot
        self._view = None  # cards back to where the unit says they are
        self.refresh()

    def _slot_of(self, card):
        s = self.unit.slots
        return "L" if s["L"] == card else "R" if s["R"] == card else None

    def insert(self, card, slot, refresh=True):
        self.selected = None
        self.note = ""
        err = self.session.card_in(slot, card)
        self.status = self.explain(err, key=slot) if err else ""
        if refresh:
            self._view = None
            self.refresh()
        return err

    def move_card(self, card, slot):
        """The keyboard's card keys: in if on the table, out if in a slot."""
        if self._slot_of(card) is None:
            self.insert(card, slot)
            return
        self.status = ""
        self.note = ""
        self.session.toggle_card(card, slot)
        self._view = None
        self.refresh()

    # -- running -------------------------------------------------------------------------------

    def serve(self, mode, port=0):
        from simulator.serve import Server

        tkapp = self.root.tk

        def watch(fd):
            tkapp.createfilehandler(fd, tk.READABLE, lambda _fd, _mask: self.server.ready(fd))

        def unwatch(fd):
            tkapp.deletefilehandler(fd)

        self.server = Server(self.host, mode, port, watch, unwatch, self._served,
                             self.session.app)
        return self.server.start()

    def _served(self):
        self.last_key = None  # what a host tool sent is not a key pressed here
        self.read_names()
        self._panel_key = None  # a host tool may have named a card or changed a balance
        self.refresh()  # a host tool moved something: draw it, and re-plan the next wake

    def close(self):
        if self._after is not None:
            self.root.after_cancel(self._after)
            self._after = None
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
    if opts.mode in ("pty", "tcp"):
        frontend.say(win.serve(opts.mode, opts.port))
    win.root.protocol("WM_DELETE_WINDOW", win.close)
    try:
        win.root.mainloop()
    except KeyboardInterrupt:
        pass
    finally:
        win.close()
    return 0
