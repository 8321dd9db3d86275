"""The desktop window: the unit drawn on a Tk canvas, played with the mouse and the keyboard.

Everything the unit shows is read from the firmware's outputs (`unit.display()` through
`segments.cells`, `lights.lit`, the tones it announces) and everything a person does becomes one
of the firmware's events (`key_down`/`key_up`, `card_in`/`card_out`) at the real clock's now. The
loop sleeps in Tk until an input, or until the next moment something visible changes by itself
(`unit.deadline()`, a light's next flash, a tone's name going out): no busy loop.
"""

import os

from simulator import frontend

try:
    import tkinter as tk
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
HELP = ("keys: 0-9 . m k c (hold c: new game)  d/space: DEAL  + -   "
        "F1-F6: card in/out of L  Shift+F1-F6 or Ctrl+1-6: in/out of R  b: banker panel")

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
    """The unit on a canvas. `root` may be given (tests); `serve` is a serve.Server or None."""

    def __init__(self, host, root=None, sound=None, panel=False):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host, sound)
        self.root = root if root is not None else tk.Tk()
        self.root.title(TITLE)
        self.root.configure(bg="#3b3b3b")
        self.server = None
        self._after = None
        self._view = None
        self._held = {}  # key -> True while held down by the keyboard or the mouse
        self._mouse_key = None
        self._pending_up = {}  # key -> (after id, now, event time): a release that may be a repeat
        self._drag = None  # (card, x0, y0, moved) while a card is under the mouse
        self.selected = None  # a card picked up with a click, waiting for a slot
        self.status = ""
        self._build()
        self.panel_shown = False
        if panel:
            self.toggle_panel()
        self.refresh()

    # -- building ------------------------------------------------------------------------------

    def _build(self):
        root = self.root
        main = tk.Frame(root, bg="#3b3b3b")
        main.pack(side="left", fill="y")
        self.canvas = c = tk.Canvas(main, width=W, height=H, bg="#3b3b3b",
                                    highlightthickness=0)
        c.pack(side="top")
        self.help = tk.Label(main, text=HELP, wraplength=W - 10, justify="left",
                             bg="#3b3b3b", fg="#dddddd", font=("Helvetica", 9))
        self.help.pack(side="top", fill="x")
        self.status_label = tk.Label(main, text="", bg="#3b3b3b", fg="#ffd166", anchor="w",
                                     font=("Helvetica", 10, "bold"))
        self.status_label.pack(side="top", fill="x")
        # takefocus=0: the keyboard stays with the unit (space is DEAL, not this button).
        self.panel_button = tk.Button(main, text="banker panel (b)", takefocus=0,
                                      command=self.toggle_panel, font=("Helvetica", 9))
        self.panel_button.pack(side="top", anchor="e", padx=8, pady=(0, 6))
        self.panel = tk.Frame(root, bg="#f5f1e6", padx=10, pady=10)
        self._build_unit(c)
        self._build_panel(self.panel)
        c.bind("<ButtonPress-1>", self._mouse_down)
        c.bind("<B1-Motion>", self._mouse_move)
        c.bind("<ButtonRelease-1>", self._mouse_up)
        root.bind("<KeyPress>", self._key_press)
        root.bind("<KeyRelease>", self._key_release)
        root.bind("<FocusOut>", self._focus_out)

    def _round_rect(self, c, x0, y0, x1, y1, r, **kw):
        pts = (x0 + r, y0, x1 - r, y0, x1, y0, x1, y0 + r, x1, y1 - r, x1, y1, x1 - r, y1,
               x0 + r, y1, x0, y1, x0, y1 - r, x0, y0 + r, x0, y0)
        return c.create_polygon(pts, smooth=True, **kw)

    def _build_unit(self, c):
        # The table the cards lie on, the unit's body, its banner and slots.
        c.create_text(W // 2, TRAY_Y - 14, text="bank cards: drag one to a slot, or click it "
                      "then a slot", fill="#bbbbbb", font=("Helvetica", 9))
        self._round_rect(c, 20, SLOT_Y - 8, W - 20, 644, 40, fill=BODY, outline=BODY_EDGE,
                         width=3, tags="body")
        self._round_rect(c, 36, 118, W - 36, 158, 14, fill=BANNER, outline="")
        c.create_text(W // 2, 138, text="MONOPOLY  BANK", fill="white",
                      font=("Helvetica", 15, "bold"))
        for slot, (x0, x1) in SLOTS_X.items():
            c.create_rectangle(x0, SLOT_Y - 5, x1, SLOT_Y + 5, fill="#111111", outline="#555555",
                               tags=("slot", "slot-" + slot))
            label = "L  credit  +" if slot == "L" else "R  debit  -"
            c.create_text((x0 + x1) // 2, SLOT_Y + 16, text=label,
                          fill="#15803d" if slot == "L" else "#b91c1c",
                          font=("Helvetica", 10, "bold"))
        # The two lights on the banner.
        self.light_items = {
            "red": c.create_oval(58, 129, 76, 147, fill=RED_OFF, outline="#330000", width=2,
                                 tags="light-red"),
            "green": c.create_oval(W - 76, 129, W - 58, 147, fill=GREEN_OFF, outline="#002200",
                                   width=2, tags="light-green"),
        }
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
            "M": c.create_text(ax, CELL_Y0 + 12, text="M", font=("Helvetica", 16, "bold"),
                               fill=SEG_GHOST, tags="ann-M"),
            "k": c.create_text(ax, CELL_Y0 + CELL_H - 10, text="k",
                               font=("Helvetica", 16, "bold"), fill=SEG_GHOST, tags="ann-k"),
        }
        # The speaker: the volume (B12) and the name of the tone sounding (B18), always shown.
        sy = 306
        c.create_polygon(60, sy - 5, 67, sy - 5, 76, sy - 12, 76, sy + 12, 67, sy + 5, 60,
                         sy + 5, fill="#444444", tags="speaker")
        self.vol_items = [c.create_arc(66 + 8 * i, sy - 6 - 4 * i, 86 + 8 * i, sy + 6 + 4 * i,
                                       start=-45, extent=90, style="arc", width=3,
                                       outline="#444444") for i in range(2)]
        self.mute_item = c.create_text(100, sy, text="x", fill="#b91c1c",
                                       font=("Helvetica", 14, "bold"))
        self.tone_item = c.create_text(118, sy, text="", anchor="w", fill="#7c2d12",
                                       font=("Helvetica", 12, "bold"), tags="tone")
        self.deal_item = c.create_text(W - 60, sy, text="", anchor="e", fill="#444444",
                                       font=("Helvetica", 10))
        # The keypad.
        self.key_items = {}
        for k, (x0, y0, x1, y1) in key_rects().items():
            face = {"+": "#16a34a", "-": "#dc2626", "C": "#f4b183"}.get(k, KEY_FACE)
            ink = "white" if k in "+-" else KEY_TEXT
            shape = self._round_rect(c, x0, y0, x1, y1, 10, fill=face, outline="#777777",
                                     width=2, tags=("key", "key-" + k))
            label = {"DEAL": "DEAL  (handshake)", "-": "\u2212"}.get(k, k)
            size = 11 if k == "DEAL" else 18
            c.create_text((x0 + x1) // 2, (y0 + y1) // 2, text=label, fill=ink,
                          font=("Helvetica", size, "bold"), tags=("keytext", "key-" + k))
            self.key_items[k] = (shape, face)
        # The six cards.
        self.card_items = {}
        for n in range(1, 7):
            x, y = tray_pos(n)
            tag = "card-%d" % n
            self._round_rect(c, x, y, x + CARD_W, y + CARD_H, 8, fill=CARD_COLOURS[n],
                             outline="#222222", width=2, tags=("card", tag, tag + "-face"))
            c.create_text(x + CARD_W // 2, y + 14, text="\u25b2", fill="white",
                          font=("Helvetica", 10), tags=("card", tag))
            c.create_text(x + CARD_W // 2, y + CARD_H // 2 + 4, text=str(n), fill="white",
                          font=("Helvetica", 26, "bold"), tags=("card", tag))
            self.card_items[n] = tag
        self.card_at = {n: tray_pos(n) for n in range(1, 7)}
        c.tag_raise("body")
        c.tag_lower("body")

    def _build_panel(self, p):
        tk.Label(p, text="Banker", font=("Helvetica", 14, "bold"), bg="#f5f1e6").pack(
            anchor="w")
        grid = tk.Frame(p, bg="#f5f1e6")
        grid.pack(anchor="w", pady=(6, 10))
        self.bal_labels = {}
        for n in range(1, 7):
            tk.Label(grid, text=" %d " % n, bg=CARD_COLOURS[n], fg="white",
                     font=("Helvetica", 11, "bold")).grid(row=n, column=0, sticky="w", pady=1)
            lab = tk.Label(grid, text="", bg="#f5f1e6", font=("Courier", 11), anchor="e",
                           width=12)
            lab.grid(row=n, column=1, sticky="e", padx=(8, 4))
            short = tk.Label(grid, text="", bg="#f5f1e6", fg="#555555", font=("Courier", 10),
                             anchor="w", width=9)
            short.grid(row=n, column=2, sticky="w")
            self.bal_labels[n] = (lab, short)
        tk.Label(p, text="Recent transactions", font=("Helvetica", 11, "bold"),
                 bg="#f5f1e6").pack(anchor="w")
        self.log_text = tk.Text(p, width=34, height=16, font=("Courier", 9), bg="#fffdf7",
                                relief="flat", state="disabled")
        self.log_text.pack(anchor="w", fill="y", expand=True)
        self._panel_key = None

    # -- the panel -----------------------------------------------------------------------------

    def toggle_panel(self):
        if self.panel_shown:
            self.panel.pack_forget()
        else:
            self.panel.pack(side="left", fill="y")
        self.panel_shown = not self.panel_shown
        self._panel_key = None
        self._draw_panel()

    def _draw_panel(self):
        if not self.panel_shown:
            return
        led = self.unit.ledger
        key = (led.seq, led.store.writes, tuple(led.bal))
        if key == self._panel_key:
            return
        self._panel_key = key
        prof = led.profile
        for n, bal in self.session.balances():
            lab, short = self.bal_labels[n]
            lab.configure(text=frontend.grouped(bal))
            short.configure(text=frontend.amount_text(bal, prof))
        lines = [frontend.txn_text(r, prof) for r in reversed(self.session.recent(16))]
        self.log_text.configure(state="normal")
        self.log_text.delete("1.0", "end")
        self.log_text.insert("end", "\n".join(lines) if lines else "(none yet)")
        self.log_text.configure(state="disabled")

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self):
        """Draw whatever changed and sleep until the next change that needs no input."""
        self.session.tick()
        if self.server is not None:
            self.server.flush()
        v = self.session.view()
        if v != self._view:
            self._draw(v, self._view)
            self._view = v
        self._draw_panel()
        self._schedule()

    def _schedule(self):
        if self._after is not None:
            self.root.after_cancel(self._after)
            self._after = None
        ms = self.session.ms_to_change()
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
        for i, item in enumerate(self.vol_items):
            c.itemconfigure(item, outline="#444444" if v.volume > i else BODY)
        c.itemconfigure(self.mute_item, text="" if v.volume else "x")
        c.itemconfigure(self.tone_item, text=("\u266a " + v.tone) if v.tone else "")
        c.itemconfigure(self.deal_item, text="" if v.deal == "idle" else "deal: " + v.deal)
        if old is None or old.slots != v.slots:
            self._place_cards(v.slots)

    def _place_cards(self, slots):
        c = self.canvas
        where = {slots[0]: "L", slots[1]: "R"}
        for n in range(1, 7):
            if self._drag is not None and self._drag[0] == n:
                continue
            slot = where.get(n)
            x, y = slot_pos(slot) if slot else tray_pos(n)
            ox, oy = self.card_at[n]
            c.move(self.card_items[n], x - ox, y - oy)
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
        self.status_label.configure(text=text)

    # -- reading the drawing back (what a person sees; the GUI tests use it) -------------------

    def shown(self):
        """(text, k, M, power look) decoded from the canvas items' colours, not from the unit."""
        from segments import CHARS, CODES

        c = self.canvas
        by_byte = {}
        for ch, g in zip(CHARS, CODES, strict=True):
            by_byte.setdefault(g, ch)
        text = ""
        for i in range(5):
            byte = 0
            for s in range(7):
                if c.itemcget(self.seg_items[i][s], "fill") == SEG_ON:
                    byte |= 1 << s
            if byte:
                text += by_byte.get(byte, "?")
            if c.itemcget(self.dp_items[i], "fill") == SEG_ON:
                text += "."
        k = c.itemcget(self.ann_items["k"], "fill") == SEG_ON
        m = c.itemcget(self.ann_items["M"], "fill") == SEG_ON
        dark = c.itemcget(self.glass, "fill") == GLASS_OFF
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
        self._key_look(key, True)
        self.say("")
        self.session.key_down(key)
        self.refresh()

    def release(self, key, now=None):
        if not self._held.pop(key, None):
            return
        self._key_look(key, False)
        self.session.key_up(key, now)
        self.refresh()

    def _key_look(self, key, down):
        shape, face = self.key_items[key]
        self.canvas.itemconfigure(shape, fill=KEY_DOWN if down else face)

    def _key_press(self, ev):
        sym = ev.keysym
        ctrl = ev.state & 0x4
        shift = ev.state & 0x1
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
        key = self._key_at(ev.x, ev.y)
        if key is not None:
            self._mouse_key = key
            self.press(key)
            return
        card = self._card_at(ev.x, ev.y)
        if card is not None:
            self._drag = [card, ev.x, ev.y, False]
            self.canvas.tag_raise(self.card_items[card])
            return
        slot = self._slot_at(ev.x, ev.y)
        if slot is not None and self.selected is not None:
            card, self.selected = self.selected, None
            self.insert(card, slot)

    def _mouse_move(self, ev):
        d = self._drag
        if d is None:
            return
        dx, dy = ev.x - d[1], ev.y - d[2]
        if not d[3] and abs(dx) + abs(dy) < 6:
            return
        d[3] = True
        self.canvas.move(self.card_items[d[0]], dx, dy)
        x, y = self.card_at[d[0]]
        self.card_at[d[0]] = (x + dx, y + dy)
        d[1], d[2] = ev.x, ev.y

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
        err = self.session.card_in(slot, card)
        if err == "slot-occupied":
            self.say("slot %s holds card %d already" % (slot, self.unit.slots[slot]))
        elif err == "card-in-use":
            self.say("card %d is in the other slot" % card)
        else:
            self.say("")
        if refresh:
            self._view = None
            self.refresh()
        return err

    def move_card(self, card, slot):
        """The keyboard's card keys: in if on the table, out if in a slot."""
        if self._slot_of(card) is None:
            self.insert(card, slot)
            return
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

        self.server = Server(self.host, mode, port, watch, unwatch, self._served)
        return self.server.start()

    def _served(self):
        self.refresh()  # a host tool moved something: draw it, and re-plan the next wake

    def close(self):
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
    win = Window(host, panel=os.environ.get("BANK_SIM_PANEL") == "1")
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
