"""The window's inputs: keys typed (X autorepeat told apart from a release), keys clicked, cards
dragged or clicked into a slot; each becomes an event on the simulated board (frontend.Session).
"""

import tkinter as tk

from brain.ledger import CARDS

from simulator.window.layout import CARD_H, CARD_W, KEY_DOWN, SLOT_Y, SLOTS_X, key_rects

KEYSYMS = {"period": ".", "KP_Decimal": ".", "comma": ".", "m": "M", "M": "M", "k": "K",
           "K": "K", "c": "C", "C": "C", "d": "DEAL", "D": "DEAL", "space": "DEAL",
           "plus": "+", "KP_Add": "+", "equal": "+", "minus": "-", "KP_Subtract": "-",
           "underscore": "-"}
for _d in "0123456789":
    KEYSYMS[_d] = _d
    KEYSYMS["KP_" + _d] = _d
SHIFTED_DIGITS = {"exclam": 1, "at": 2, "numbersign": 3, "dollar": 4, "percent": 5,
                  "asciicircum": 6}
# An X autorepeat's release is followed at once by a press of the same key, both stamped with the
# same server time: a release waits that long for it. A press stamped otherwise, or of another
# key first, means the key did go up.
RELEASE_GRACE_MS = 30



class Inputs:
    """The Window's keyboard and mouse, on `self.root` and `self.canvas` (app.py binds them)."""

    # -- the keypad ----------------------------------------------------------------------------

    def press(self, key):
        if self._held.get(key):
            return
        self._held[key] = True
        self._key_look(key, True)
        self.key_went_down(key)
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
        key = KEYSYMS.get(sym)
        # An autorepeat's press comes right behind its own release: any other key pressed
        # first means that release was real, and it reaches the unit before this press does.
        self._flush_releases(but=key)
        ctrl = ev.state & 0x4
        shift = ev.state & 0x1
        if sym == "F11":
            self.toggle_large()
            return
        if sym == "F12":
            self.other_lang()
            return
        if sym.startswith("F") and sym[1:].isdigit() and 1 <= int(sym[1:]) <= CARDS:
            self.move_card(int(sym[1:]), "R" if shift else "L")
            return
        if sym in SHIFTED_DIGITS:
            self.move_card(SHIFTED_DIGITS[sym], "L")
            return
        if ctrl and len(sym) == 1 and "1" <= sym <= "9" and int(sym) <= CARDS:
            self.move_card(int(sym), "R")
            return
        if ctrl:
            return
        if sym in ("b", "B"):
            self.toggle_panel()
            return
        if key is None:
            return
        # A typist presses the next key before letting the last one go. The unit would take
        # the keys as held together (C acts on its release, and would clear what was typed
        # while it was down): the last key goes up first, as if typed slowly. X repeats only
        # the newest key, so a hold is never cut short by this but by another key.
        for other in list(self._held):
            if other != key and other != self._mouse_key:
                self.release(other)
        pending = self._pending_up.pop(key, None)
        if pending is not None:
            self.root.after_cancel(pending[0])
            # Another program's XSendEvent (xdotool --window) bears no server time, 0 for all,
            # and the server never repeats such a key.
            if ev.time == pending[2] and not getattr(ev, "send_event", False):
                return  # X autorepeat: the key never went up
            self.release(key, pending[1])  # a quick double tap: the key went up in between
        self.press(key)

    def _key_release(self, ev):
        if self._typing(ev):
            return
        key = KEYSYMS.get(ev.keysym)
        if key is None or not self._held.get(key) or key in self._pending_up:
            return
        now = self.host.clock.now()
        aid = self.root.after(RELEASE_GRACE_MS, lambda: self._real_release(key))
        self._pending_up[key] = (aid, now, ev.time)

    def _real_release(self, key):
        pending = self._pending_up.pop(key, None)
        if pending is not None:
            self.release(key, pending[1])

    def _waits_for_releases(self, wake):
        """A timer fell due while a release waits out its grace: it waits too (the id of its
        call again), so an autorepeat's release, its press right behind it, is never taken
        for a key let go, and a hold is timed from the key's true release. None: none waits."""
        if not self._pending_up:
            return None
        return self.root.after(RELEASE_GRACE_MS, wake)

    def _flush_releases(self, but=None):
        """Every release waiting out its grace taken as the key let go, in the order they came
        (but: that key's, which may be an autorepeat's, still waits)."""
        for key in list(self._pending_up):
            if key == but:
                continue
            aid = self._pending_up[key][0]
            self.root.after_cancel(aid)
            self._real_release(key)

    def _focus_out(self, ev):
        # Keys held, or whose release waits out its grace, when the window loses the keyboard
        # would never see their release.
        if ev.widget is self.root:
            self._flush_releases()
            for key in list(self._held):
                if key != self._mouse_key:
                    self.release(key)

    # -- the mouse: keys, cards, slots ---------------------------------------------------------

    def _at(self, ev):
        """The event's position in the drawing's own coordinates (before scaling and centring)."""
        return (ev.x - self.origin[0]) / self.scale, (ev.y - self.origin[1]) / self.scale

    def _key_at(self, x, y):
        for k, (x0, y0, x1, y1) in key_rects().items():
            if x0 <= x <= x1 and y0 <= y <= y1:
                return k
        return None

    def _card_at(self, x, y):
        # The topmost card under the pointer, the one being picked up.
        for n in range(CARDS, 0, -1):
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
