"""The desktop window on an emulated Pico: `python -m simulator --pico [IMAGE.uf2]`.

The same drawn unit as the window (unit.py) and the same hands (inputs.py: keys typed or
clicked, cards dragged, clicked or sent in with F1-F6), on the unit that simulator/pico/
emulates at its pins instead of the firmware run on the desktop: what the glass shows is the
HT1621's RAM read through the module's wiring, the lights are their pins, the speaker line
names the piezo's frequency. No banker panel and no serial port here: the unit is the chip
running the image.
"""

import os
import tkinter as tk
import tkinter.font as tkfont

from desktop import words
from simulator.window.app import live
from simulator.window.inputs import Inputs
from simulator.window.layout import H, TITLE, W
from simulator.window.sizes import UnitSize
from simulator.window.unit import UnitDrawing
from simulator.window.words import KeyNotes, Worded


IN_STEP = 1.15  # slower than real time by less than this: said to keep up (timer jitter)


class PicoWindow(Worded, KeyNotes, UnitDrawing, Inputs, UnitSize):
    say_room = (4, 3)  # the line under the unit names the image too: a line more than the window
    def __init__(self, session, root=None):
        self.session = session
        self.host = session.host
        self.unit = session.unit
        self.root = root if root is not None else tk.Tk()
        self.root.title(TITLE + " \u2014 RP2040")
        self.root.configure(bg="#3b3b3b")
        self._after = None
        self._view = None
        self._held = {}
        self._held_at = {}
        self._mouse_key = None
        self._pending_up = {}
        self._drag = None
        self.selected = None
        self.status = ""
        self.note = ""
        self.last_key = None
        self.scale = 1.0
        self.origin = (0, 0)
        self._room = (W, H)
        self._texts = []
        self._fonts = {}
        self._worded = []
        self._sized = False
        # On the screen sized and drawn, saying it boots, before the chip's first step: the
        # first steps, as it boots, take a while.
        self._opening = True
        self.root.withdraw()
        self._build()
        self._fit_screen()  # as the window opens: the unit and its lines on the screen
        self.root.deiconify()
        self.root.update()
        self._opening = False
        self.refresh()

    def _font(self, name, size, weight="normal"):
        f = tkfont.Font(root=self.root, family="Helvetica", size=size, weight=weight)
        self._fonts[name] = (f, size)
        return f

    def _build(self):
        self.main = main = tk.Frame(self.root, bg="#3b3b3b")
        main.pack(fill="both", expand=True)
        self.help = tk.Label(main, wraplength=W - 20, justify="left", anchor="w", bg="#3b3b3b",
                             fg="#dddddd", font=self._font("help", 8))
        self.help.pack(side="bottom", fill="x", padx=6)
        self._worded.append((self.help, None, "win.pico.help"))
        # The line under the unit has a room of its own (sizes.py), as in the window.
        self.say_box = tk.Frame(main, bg="#3b3b3b")
        self.say_box.pack(side="bottom", fill="x", padx=6)
        self.say_box.pack_propagate(False)
        self.status_label = tk.Label(self.say_box, text="", bg="#3b3b3b", fg="#ffd166",
                                     anchor="nw", justify="left", wraplength=W - 20,
                                     font=self._font("message", 10, "bold"))
        self.status_label.pack(side="top", fill="both", expand=True)
        main.bind("<Configure>", self._wrap)
        self.canvas = c = tk.Canvas(main, width=W, height=H, bg="#3b3b3b", highlightthickness=0)
        c.pack(side="top", fill="both", expand=True)
        self._build_unit(c)
        self.set_lang(words.lang())
        c.bind("<ButtonPress-1>", self._mouse_down)
        c.bind("<B1-Motion>", self._mouse_move)
        c.bind("<ButtonRelease-1>", self._mouse_up)
        c.bind("<Configure>", self._resized)
        self.root.bind("<KeyPress>", self._key_press)
        self.root.bind("<KeyRelease>", self._key_release)
        self.root.bind("<FocusOut>", self._focus_out)

    def set_lang(self, code):
        words.set_lang(code)
        self.say_again()
        self._view = None

    def other_lang(self):
        self.set_lang("fr" if words.lang() == "en" else "en")
        self.refresh()

    # What the full window has and this one does not: the unit's state is only seen at its pins.
    def toggle_large(self):
        pass

    def toggle_panel(self):
        pass

    def explain(self, code, key=None):
        return ""

    def off_glass(self):
        """The dark glass before the image's first picture: it is booting, not switched off."""
        if self.session.booting():
            return words.say("win.pico.booting")
        return words.say("win.off-glass")

    def running(self):
        """The line under the unit: the image run, the emulated clock, and how far behind real
        time it runs (the emulator's speed: a key's work takes that much longer to show)."""
        s = self.session
        kind = words.say("win.pico.frozen" if s.frozen else "win.pico.files")
        slow = s.slowdown()
        if slow is None or slow < IN_STEP:
            pace = words.say("win.pico.in-step")
        else:
            pace = words.say("win.pico.slower", x=words.decimal(slow))
        return words.say("win.pico", image=os.path.basename(s.image), kind=kind,
                         t=words.decimal(s.pico.now_ms() / 1000.0), pace=pace)

    def refresh(self):
        if self._view is None:  # a new drawing (opened, rescaled): the pins now, before a step
            self._show()
            self.root.update_idletasks()
        if not self._opening:
            self.session.step()
        self._show()
        self._schedule()

    def _show(self):
        """What the pins show now, and the line under the unit."""
        v = self.session.view()
        if v != self._view:
            self._draw(v, self._view)
            self._view = v
        self._draw_hold()
        line = self.running()
        if line != self.status_label.cget("text"):
            self.status_label.configure(text=line)
            self._say_room()  # a longer one than the room kept: more room, never cut off

    def _schedule(self):
        if self._after is not None:
            self.root.after_cancel(self._after)
        self._after = self.root.after(self.session.ms_to_change(), self._wake)

    def _wake(self):
        self._after = self._waits_for_releases(self._wake)
        if self._after is None:
            self.refresh()

    def close(self):
        self.session.close()
        if self._after is not None:
            self.root.after_cancel(self._after)
            self._after = None
        try:
            self.root.destroy()
        except tk.TclError:
            pass


def run(opts):
    from simulator.pico.session import PicoSession, flash_file

    words.set_lang(opts.lang or words.lang_from_env(os.environ))
    session = PicoSession(opts.pico_image, flash_file=flash_file(opts.rfid), rfid=opts.rfid)
    return live(PicoWindow(session))
