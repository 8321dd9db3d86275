"""The large display (F11): the unit's display alone, its lights and the sentence under it, as
large as the window allows, for a table to read from across it.
"""

from desktop import words
from simulator.window.layout import (
    GLASS_OFF, GLASS_ON, GREEN_OFF, GREEN_ON, RED_OFF, RED_ON, SEG_GHOST, SEG_OFF, SEG_ON,
    segment_polys)


class LargeDisplay:
    """The Window's large display on `self.big` (app.py builds the canvas)."""

    def toggle_large(self):
        """The unit's display alone, filling the window (F11 again: the whole unit)."""
        self.large = not self.large
        if self.large:
            self.canvas.pack_forget()
            self.say_box.pack_forget()  # the large display says it, larger
            self.big.pack(side="top", fill="both", expand=True)
        else:
            self.big.pack_forget()
            self.say_box.pack(side="bottom", fill="x", padx=6, before=self.help)
            self.canvas.pack(side="top", fill="both", expand=True)
        self.large_button.configure(text=words.say("win.whole" if self.large else
                                                   "win.large"))
        self._large_room(self.large)
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
        label = "MONOPOLY  BANK" + (("   \u2014   " + words.say("win.big.maintenance"))
                                    if self.unit.maintenance else "")
        c.create_text(bw / 2, ly, text=label, fill="white",
                      font=("Helvetica", -max(10, int(r * 1.6)), "bold"))
        slots = []
        for slot, n in zip(("L", "R"), v.slots, strict=True):
            slots.append("%s: %s" % (slot, self._player(n) if n else "\u2014"))
        info = "   ".join(slots)
        if v.tone:
            info += "   \u266a " + words.tone_name(v.tone)
        if v.deal != "idle":
            info += "   " + words.say("deal." + v.deal)
        fy = y0 + cell_h + margin
        c.create_text(bw / 2, fy, text=info, fill="#eeeeee", anchor="n",
                      font=("Helvetica", -max(10, int(cell_h * 0.13)), "bold"), tags="big-info")
        c.create_text(bw / 2, fy + cell_h * 0.25, text=self.message_text(), fill="#ffd166",
                      anchor="n", width=bw - 2 * margin, justify="center",
                      font=("Helvetica", -max(10, int(cell_h * 0.13)), "bold"),
                      tags="big-message")

    def big_shown(self):
        """The same, read from the large display's canvas."""
        c = self.big
        segs = c.find_withtag("big-seg")
        cells = [segs[i * 7:i * 7 + 7] for i in range(5)]
        dps = c.find_withtag("big-dp")
        ann = {"k": c.find_withtag("big-k")[0], "M": c.find_withtag("big-M")[0]}
        return self._decode(c, cells, dps, ann, c.find_withtag("big-glass")[0])
