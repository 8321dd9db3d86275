"""What the window says in words, on the line under the unit (and under the large display): a
refusal explained, a hold counting down, what just happened by itself, the mode the unit is
in. The sentences, in either language, are desktop/words.py's, the terminal's and the page's.
"""

from brain.clock import ticks_diff
from desktop import words


class Worded:
    """Widgets (or a canvas's items, `item`) whose text is a sentence: `worded` sets it and
    keeps it in `self._worded`, `say_again` says them all in the language set now (F12)."""

    def worded(self, widget, sid, item=None):
        self._worded.append((widget, item, sid))
        self._say(widget, item, sid)
        return widget if item is None else item

    def say_again(self):
        for widget, item, sid in self._worded:
            self._say(widget, item, sid)

    @staticmethod
    def _say(widget, item, sid):
        if item is None:
            widget.configure(text=words.say(sid))
        else:
            widget.itemconfigure(item, text=words.say(sid))


class KeyNotes:
    """What a key going down makes the line under the unit say (`status`, `note`)."""

    def key_went_down(self, key):
        """key down on the unit, and what the line under it says of that: the last refusal and
        note forgotten, a waking key noted (it holds nothing: B16), any other's hold timed."""
        self.status = ""
        self.note = ""
        self.last_key = key
        was_on = self.unit.power
        self.session.key_down(key)
        if not was_on and self.unit.power:
            self.note = words.woke(key)
        else:
            self._held_at[key] = self.host.clock.now()


class Words(KeyNotes):
    """The Window's sentences: `status` (a refusal), `note` (what happened by itself)."""

    def message_text(self):
        """The line under the unit: a refusal explained, a hold counting down, what just
        happened by itself, or the mode the unit is in (desktop/words.py's order, the page's)."""
        return words.under_unit(self.unit, self.status, self.last_key, self.names,
                                self.hold_text(), self.note)

    def say(self, text):
        self.status = text
        self.refresh()

    def explain(self, code, key=None):
        u = self.unit
        return words.explain(code, u.entry, u.slots, dict(self.session.balances()),
                             u.ledger.profile, key=key or self.last_key, names=self.names)

    def _holding(self):
        return any(k in self._held for k in words.HOLDS)

    def hold_text(self):
        """While C or DEAL (or game night's +, K, -) is held: what the hold will do, and in how
        long (B11, maintenance, B19-B21)."""
        now = self.host.clock.now()
        for key in words.HOLDS:
            at = self._held_at.get(key)
            if at is None or key not in self._held:
                continue
            said = words.holding(self.unit, key, ticks_diff(now, at))
            if said:
                return said
        return ""

    def _on_unit(self, kind, arg):
        """What happens by itself gets a line of its own (undo, new game, switch-off)."""
        said = words.note(kind, arg, self.unit.ledger.profile, self.names)
        if said is not None:
            self.note = said
