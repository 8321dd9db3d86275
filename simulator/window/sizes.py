"""The window's size on the screen: at start, the unit as large as the screen leaves room for
with the banker panel beside it (a 1024 x 600 netbook included); then the window's own, which
a longer sentence or a kept game does not change; the panel shown or hidden widens or narrows
it. The sentence and the keys' help wrap at the width there is. The --pico window, which has no
panel, opens so too (UnitSize).
"""

import re

from simulator.window.layout import H, MIN_SCALE, W

# What a screen keeps for itself around a window: the window manager's frame and title bar, a
# desktop's panel. The window opens no larger than the rest.
SCREEN_KEEPS = (16, 64)
SAY_MIN_W = 360  # the sentence's column at least, where the screen has the room
# The sentence's room, kept so that a longer one does not resize the unit: three lines (a
# refusal at the narrowest window takes that many), two on a screen too short for them.
SAY_LINES = (3, 2)


class UnitSize:
    """A window's size around the drawn unit (`canvas`) and the words under it (`say_box`
    holding `status_label`, then `help`, in `main`), for the window (app.py) and the --pico
    window (simulator/pico/window.py) alike; `_beside` is what stands beside the unit."""

    def _wrap(self, ev=None):
        """The sentence and the keys' help wrap at the width there is, not at the unit's."""
        # Less the labels' margins, borders and padding: the words ask for no more room.
        width = (self.main.winfo_width() if ev is None else ev.width) - 20
        if width > 1 and abs(width - self.status_label.cget("wraplength")) > 2:
            self.status_label.configure(wraplength=width)
            self.help.configure(wraplength=width)
            self._say_room()

    _least = (round(W * MIN_SCALE), round(H * MIN_SCALE))

    def _least_beside(self, width):
        """The least size with a part of width shown beside the unit."""
        self.root.minsize(self._least[0] + width, self._least[1])

    def _wrap_at(self, width):
        self.status_label.configure(wraplength=width)
        self.help.configure(wraplength=width)
        self._say_room()
        self.root.update_idletasks()

    say_room = SAY_LINES  # the lines kept for the sentence: the first the screen has room for
    say_lines = SAY_LINES[0]

    def _say_room(self):
        """The sentence's room: say_lines lines, or as many as this sentence needs."""
        label = self.status_label
        line = self._fonts["message"][0].metrics("linespace")
        edge = 2 * sum(int(str(label.cget(k))) for k in ("borderwidth", "pady",
                                                       "highlightthickness"))
        need = max(self.say_lines * line + edge, label.winfo_reqheight()) + 4
        if need != self.say_box.winfo_reqheight():
            self.say_box.configure(height=need)

    def _screen(self):
        return (self.root.winfo_screenwidth() - SCREEN_KEEPS[0],
                self.root.winfo_screenheight() - SCREEN_KEEPS[1])

    def _beside(self, sh):
        """(width, height, shown) of what the window keeps room for beside the unit, fitted to
        the screen's height sh: nothing here."""
        return 0, 0, False

    def _fit_screen(self):
        """The window's size at start: the unit as large as the screen leaves room for, with
        what stands beside it (`_beside`), and never over 1:1. From then on the size is the
        window's own: a longer sentence, a game kept or a name typed does not grow it (nor push
        it off the screen)."""
        root = self.root
        sw, sh = self._screen()
        root.update_idletasks()
        pw, ph, shown = self._beside(sh)
        for lines in self.say_room:
            self.say_lines = lines
            s = 1.0
            for _ in range(3):  # the lines under the unit take the more room the narrower it is
                mw = min(max(SAY_MIN_W, round(W * s)), max(round(W * s), sw - pw))
                self._wrap_at(mw - 20)
                below = self.main.winfo_reqheight() - self.canvas.winfo_reqheight()
                s = min(1.0, (sh - below) / H, (sw - pw) / W)
            if s >= MIN_SCALE:
                break
        s = max(MIN_SCALE, s)
        mw = min(max(SAY_MIN_W, round(W * s)), max(round(W * s), sw - pw))
        width = mw + (pw if shown else 0)
        height = max(round(H * s) + below, ph if shown else 0)
        root.geometry("%dx%d" % (width, height))
        # The least a window manager lets the window shrink to: the unit at its least scale and
        # every line under it wrapped to that width, so no key and no card is ever cut off.
        least = min(mw, max(SAY_MIN_W, round(W * MIN_SCALE)))
        self._wrap_at(least - 20)
        least_below = self.main.winfo_reqheight() - self.canvas.winfo_reqheight()
        self._wrap_at(mw - 20)
        self._least = (least, min(sh, round(H * MIN_SCALE) + least_below))
        self._least_beside(pw if shown else 0)
        # The canvas asks only for the least the unit is drawn at: the window's size is the
        # one set here, and a longer sentence under the unit takes from the drawing.
        self.canvas.configure(width=round(W * MIN_SCALE), height=round(H * MIN_SCALE))
        self._sized = True



class WindowSize(UnitSize):
    """The Window's size: room kept for the banker panel beside the unit, shown or not."""

    def _beside(self, sh):
        """The banker panel, its log as long as the screen's height allows: the window opens
        with room for it, and showing or hiding it widens or narrows the window by its width."""
        over = self.panel.winfo_reqheight() - sh
        if over > 0:
            line = self._fonts["panel-small"][0].metrics("linespace")
            shorter = (over + line - 1) // line
            self.log_text.configure(height=max(4, int(self.log_text.cget("height")) - shorter))
            self.root.update_idletasks()
        return self.panel.winfo_reqwidth(), self.panel.winfo_reqheight(), self.panel_shown

    _before_large = None  # (width, x) of the window before F11 widened it, and the width set

    def _large_room(self, large):
        """F11: the window as wide as the screen for the large display, whose digits, laid
        across it, grow with its width (at the width the window opens at on a laptop they
        would be hardly larger than the unit's); F11 again: its width and place of before,
        unless it was resized since."""
        if not self._sized:
            return
        root = self.root
        root.update_idletasks()
        w, h, x, y = (int(v) for v in re.match(r"(\d+)x(\d+)\+(-?\d+)\+(-?\d+)",
                                                root.geometry()).groups())
        sw, _sh = self._screen()
        if large and w < sw:
            self._before_large = (w, x, sw)
            root.geometry("%dx%d+0+%d" % (sw, h, y))
        elif not large and self._before_large is not None:
            w0, x0, wide = self._before_large
            self._before_large = None
            if w == wide:
                root.geometry("%dx%d+%d+%d" % (w0, h, x0, y))

    def _make_room(self, part, shown):
        """The window widened by a part shown beside the unit (narrowed when it goes), never
        past the screen: there the unit gives way."""
        if not self._sized:
            return
        root = self.root
        root.update_idletasks()
        sw, sh = self._screen()
        w, h = root.winfo_width(), root.winfo_height()
        pw, ph = part.winfo_reqwidth(), part.winfo_reqheight()
        if shown:
            w, h = min(sw, w + pw), max(h, min(sh, ph))
        else:
            w = max(int(W * MIN_SCALE), w - pw)
        self._least_beside(pw if shown else 0)
        root.geometry("%dx%d" % (w, h))
