"""The window's side of the page's comparisons: the window's sentence code
(simulator/window/words.py, and the inputs' bookkeeping of simulator/window/inputs.py) on a
headless unit on a virtual clock: no Tk, the same decisions. The page's tests drive the page in
Chromium and this the same way, and compare what each says."""

import sys

from browserpage import ROOT

sys.path.insert(0, ROOT)
import simulator  # noqa: E402,F401  (firmware/ on sys.path)
from desktop import words  # noqa: E402
from simulator import frontend, options  # noqa: E402
from simulator.host import Host  # noqa: E402
from simulator.window.words import Words  # noqa: E402


class WindowWords(Words):
    def __init__(self, host):
        self.host = host
        self.unit = host.unit
        self.session = frontend.Session(host, frontend.Sound(None))
        self.status = ""
        self.note = ""
        self.last_key = None
        self.names = {}
        self._held = {}
        self._held_at = {}
        self.unit.listeners.append(self._on_unit)

    def _player(self, card):
        return words.who(card, self.names)

    def down(self, key):
        """Inputs.press: a key held down."""
        self._held[key] = True
        self.key_went_down(key)
        self.session.step()

    def up(self, key):
        """Inputs.release."""
        self._held.pop(key, None)
        self._held_at.pop(key, None)
        self.session.key_up(key)
        self.session.step()

    def advance(self, ms):
        self.host.clock.advance(self.unit, ms)
        self.session.step()

    def do(self, step):
        s = self.session
        if step[0] == "key":
            self.down(step[1])
            self.up(step[1])
        else:
            self.note = ""
            err = s.card_in(step[1], step[2]) if step[0] == "in" else s.card_out(step[1])
            self.status = self.explain(err, key=step[1]) if err else ""
            s.step()


def window(seed=1):
    return WindowWords(Host(options.parse(["--virtual-clock", "--seed", str(seed)])))


def window_says(steps, lang):
    words.set_lang(lang)
    try:
        w = window()
        for step in steps:
            w.do(step)
        return w.message_text(), w.unit.error
    finally:
        words.set_lang("en")
