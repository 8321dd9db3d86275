"""What the window says in words, on the line under the unit (and under the large display): a
refusal explained (simulator/explain.py), a hold counting down, what just happened by itself,
the mode the unit is in.
"""

from brain.clock import ticks_diff
from brain.ledger import AMOUNT, FROM, KIND, TO, UNDOES
from simulator import explain


class Words:
    """The Window's sentences: `status` (a refusal), `note` (what happened by itself)."""

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
            return ("switched itself off after a minute without use: the next key only "
                    "wakes it, a card wakes it and counts")
        if self.note:
            return self.note
        if u.maintenance:
            return ("maintenance mode: host tools may set balances and the profile; hold DEAL "
                    "for 3 seconds to leave it")
        return ""

    def say(self, text):
        self.status = text
        self.refresh()

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
                return ("holding C: a new game in %.1f s, every card back to the start; "
                        "let go now for a plain C" % (left / 1000.0))
            what = "off" if self.unit.maintenance else "on"
            return ("holding DEAL: maintenance mode %s in %.1f s; let go now to only run the "
                    "deal timer" % (what, left / 1000.0))
        return ""

    def _on_unit(self, kind, arg):
        """What happens by itself gets a line of its own (undo, new game, switch-off)."""
        if kind == "txn" and arg[KIND] == "undo":
            prof = self.unit.ledger.profile

            def side(c):
                return self._player(c) if c else "the bank"

            self.note = ("C reversed #%d: %s back from %s to %s" % (
                arg[UNDOES], explain.amount(arg[AMOUNT], prof), side(arg[FROM]), side(arg[TO])))
        elif kind == "txn":
            self.note = ""
        elif kind == "game":
            self.note = "a new game: every card back to %s" % explain.amount(
                self.unit.ledger.profile.start, self.unit.ledger.profile)
        elif kind == "power" and arg == "off":
            self.note = ""
