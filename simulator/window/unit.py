"""The unit drawn on a Tk canvas: its body, slots, lights, LCD, speaker line, keypad and cards,
drawn at 1:1 in layout.py's coordinates, scaled as a whole to the window's size and centred in
it (`scale`, `origin`); and read back from the drawn items' colours (what a person sees; the GUI
tests use it).
"""

from brain.clock import ticks_diff
from brain.ledger import CARDS
from desktop import words
from simulator.window.layout import (
    BANNER, BANNER_BOX, BODY, BODY_EDGE, CARD_COLOURS, CARD_H, CARD_W, CELL_H, CELL_W, CELL_GAP,
    CELL_X0, CELL_Y0, DISPLAY, GLASS_OFF, GLASS_ON, GREEN_OFF, GREEN_ON, H, KEY_FACE, KEY_TEXT,
    MIN_SCALE, RED_OFF, RED_ON, SEG_GHOST, SEG_OFF, SEG_ON, SEG_T, SLOT_Y, SLOTS_X, TRAY_Y, W,
    key_rects, segment_polys, slot_pos, tray_pos)


class UnitDrawing:
    """The Window's drawing of the unit on `self.canvas` (app.py builds the canvas)."""

    def off_glass(self):
        """What the dark glass says: switched off (B16), a key or a card wakes it."""
        return words.say("win.off-glass")

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
        self.worded(c, "win.cards-hint", self._text(c, W // 2, TRAY_Y - 14, 9, "normal",
                                                     text="", fill="#bbbbbb"))
        self._round_rect(c, 20, SLOT_Y - 8, W - 20, 644, 40, fill=BODY, outline=BODY_EDGE,
                         width=3, tags="body")
        self._round_rect(c, *BANNER_BOX, 14, fill=BANNER, outline="", tags="banner")
        self._text(c, W // 2, 138, 15, text="MONOPOLY  BANK", fill="white", tags="banner-text")
        for slot, (x0, x1) in SLOTS_X.items():
            c.create_rectangle(x0, SLOT_Y - 5, x1, SLOT_Y + 5, fill="#111111", outline="#555555",
                               tags=("slot", "slot-" + slot))
            self.worded(c, "win.slot." + slot, self._text(
                c, (x0 + x1) // 2, SLOT_Y + 16, 10, text="",
                fill="#15803d" if slot == "L" else "#b91c1c"))
        # The two lights on the banner.
        self.light_items = {
            "red": c.create_oval(58, 129, 76, 147, fill=RED_OFF, outline="#330000", width=2,
                                 tags="light-red"),
            "green": c.create_oval(W - 76, 129, W - 58, 147, fill=GREEN_OFF, outline="#002200",
                                   width=2, tags="light-green"),
        }
        # Maintenance mode is said on the top edge, between the slots' names, where nothing
        # else is drawn: on the banner it would cover the unit's name.
        self.maint_badge = self._round_rect(c, W // 2 - 46, SLOT_Y + 7, W // 2 + 46, SLOT_Y + 24,
                                            6, fill="#166534", outline="", state="hidden",
                                            tags="maintenance-badge")
        self.maint_item = self._text(c, W // 2, SLOT_Y + 16, 8, text="", fill="white",
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
            item = self._text(c, (x0 + x1) // 2, (y0 + y1) // 2, 11 if k == "DEAL" else 18,
                              text={"-": "\u2212"}.get(k, k), fill=ink,
                              tags=("keytext", "key-" + k))
            if k == "DEAL":  # the key's own name, and the rulebook's word for what it times
                self.worded(c, "win.deal-key", item)
            self.key_items[k] = (shape, face)
        self.hold_bar = c.create_rectangle(0, 0, 0, 0, fill="#c8102e", outline="",
                                           state="hidden", tags="hold-bar")
        # The six cards.
        self.card_items = {}
        for n in range(1, CARDS + 1):
            x, y = tray_pos(n)
            tag = "card-%d" % n
            self._round_rect(c, x, y, x + CARD_W, y + CARD_H, 8, fill=CARD_COLOURS[n],
                             outline="#222222", width=2, tags=("card", tag, tag + "-face"))
            self._text(c, x + CARD_W // 2, y + 14, 10, "normal", text="\u25b2", fill="white",
                       tags=("card", tag))
            self._text(c, x + CARD_W // 2, y + CARD_H // 2 + 4, 26, text=str(n), fill="white",
                       tags=("card", tag))
            self.card_items[n] = tag
        self.card_at = {n: tray_pos(n) for n in range(1, CARDS + 1)}
        c.tag_raise("body")
        c.tag_lower("body")

    # -- sizes ---------------------------------------------------------------------------------

    def _resized(self, ev):
        self._room = (ev.width, ev.height)
        s = max(MIN_SCALE, min(ev.width / W, ev.height / H))
        if abs(s - self.scale) < 0.01:
            self._centre()
            return
        self.rescale(s)

    def _centre(self):
        """The unit in the middle of its canvas, however wide or tall the window is made."""
        s = self.scale
        ox = max(0, round((self._room[0] - W * s) / 2))
        oy = max(0, round((self._room[1] - H * s) / 2))
        dx, dy = ox - self.origin[0], oy - self.origin[1]
        if dx or dy:
            self.canvas.move("all", dx, dy)
            self.origin = (ox, oy)

    def to_canvas(self, x, y):
        """Where the point (x, y) of the drawing (layout.py) is on the canvas now."""
        return x * self.scale + self.origin[0], y * self.scale + self.origin[1]

    def rescale(self, s):
        """Everything drawn s times its size: the unit, its fonts, the labels and the panel."""
        c = self.canvas
        self._drag = None
        c.delete("all")
        self._build_unit(c)
        c.scale("all", 0, 0, s, s)
        self.scale = s
        self.origin = (0, 0)
        self._centre()
        for item, size, weight in self._texts:
            c.itemconfigure(item, font=("Helvetica", -max(6, round(size * s * 4 / 3)), weight))
        for font, size in self._fonts.values():
            font.configure(size=max(6, round(size * max(1.0, s * 0.85))))
        self._view = None
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
        c.itemconfigure(self.maint_item, text=words.say("win.maintenance")
                        if self.unit.maintenance else "")
        c.itemconfigure(self.maint_badge, state="normal" if self.unit.maintenance else "hidden")
        c.itemconfigure(self.off_item, text="" if on else self.off_glass())
        for i, item in enumerate(self.vol_items):
            c.itemconfigure(item, outline="#444444" if v.volume > i else BODY)
        c.itemconfigure(self.mute_item, text="" if v.volume else "x")
        c.itemconfigure(self.tone_item, text=("\u266a " + words.tone_name(v.tone)) if v.tone
                        else "")
        c.itemconfigure(self.deal_item, text="" if v.deal == "idle" else words.say(
            "deal." + v.deal))
        if old is None or old.slots != v.slots:
            self._place_cards(v.slots)

    def _place_cards(self, slots):
        c = self.canvas
        s = self.scale
        where = {slots[0]: "L", slots[1]: "R"}
        for n in range(1, CARDS + 1):
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

    def _draw_hold(self):
        c = self.canvas
        now = self.host.clock.now()
        for key in ("C", "DEAL"):
            at = self._held_at.get(key)
            if at is None or key not in self._held or not self.unit.power:
                continue
            done = min(1.0, max(0.0, ticks_diff(now, at) / float(self.unit.hold_ms)))
            x0, y0, x1, y1 = key_rects()[key]
            c.coords(self.hold_bar, *self.to_canvas(x0 + 6, y1 - 8),
                     *self.to_canvas(x0 + 6 + (x1 - x0 - 12) * done, y1 - 4))
            c.itemconfigure(self.hold_bar, state="normal")
            c.tag_raise(self.hold_bar)
            return
        c.itemconfigure(self.hold_bar, state="hidden")

    # -- reading the drawing back (what a person sees; the GUI tests use it) -------------------

    def shown(self):
        """(text, k, M, power look) decoded from the canvas items' colours, not from the unit."""
        return self._decode(self.canvas, self.seg_items, self.dp_items, self.ann_items,
                            self.glass)

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
