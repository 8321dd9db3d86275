"""Random sessions of a host that follows the unit's events (docs/protocol.md, "Events"): keys,
cards, new games (HOLD C 3000, NEWGAME, SET PROFILE: B11, B15), balances set in maintenance,
kept games brought back (RESTORE) and a backup put back as the host tools do it (BACKUP and
BALANCES, then SET PROFILE and SET BALANCE); with night, game night's too (B19-B22:
bankruptcies, the pot turned on and off and money moved into and out of it, the count). After
every command the balances rebuilt from the `! txn` and `! newgame` lines alone must be
BALANCES, and with night the pot rebuilt from them STATE's.

`play(ask, seed, steps)` drives any transport: ask(line) gives the lines the unit sent for that
line, events first, the reply last. Plain Python for both interpreters (tests/mprun.py runs the
in-process sessions under MicroPython; tests/test_event_stream.py runs them over TCP).
"""

import json

from desktop import seeded

CARDS = ("1", "2", "3", "4", "5", "6")
AMOUNTS = ("150K", "2.5M", "1M", "20K", "500", "15M", "75K", "9.5M")


def reply_json(lines):
    last = lines[-1]
    assert last.startswith("OK "), lines
    return json.loads(last[3:])


class Follower:
    """What a host knows of the balances from the events alone, from a BALANCES at the start."""

    def __init__(self, start):
        self.bal = dict(start)
        self.pot = 0  # the pot's money (B22), "pot" in a move's balances
        self.seq = None
        self.seen = {}

    def take(self, line):
        if line.startswith("! txn "):
            t = json.loads(line[6:])
            if t["kind"] == "restore":
                self.pot = 0  # a game brought back with money in its pot says so
            for c in t["balances"]:
                if c == "pot":
                    self.pot = t["balances"][c]
                else:
                    self.bal[c] = t["balances"][c]
            # every seq is sent, in order, whatever made it (docs/protocol-extensions.md)
            assert self.seq is None or t["seq"] == self.seq + 1, (self.seq, line)
            self.seq = t["seq"]
            kind = t["kind"]
        elif line.startswith("! newgame "):
            e = json.loads(line[10:])
            got = e.get("balances") or {}
            for c in got:
                self.bal[c] = got[c]
            self.pot = 0  # a new game empties it (B22)
            kind = "newgame"
        else:
            return
        self.seen[kind] = self.seen.get(kind, 0) + 1


def _pick(dice, seq):
    return seq[dice.randint(0, len(seq) - 1)]


def _night(dice):
    """One of game night's sequences (B19-B22), as the keypad and the host tools make them."""
    roll = dice.randint(0, 9)
    if roll < 2:
        return ["INSERT R %d" % dice.randint(1, 6), "INSERT L %d" % dice.randint(1, 6),
                _pick(dice, ("REMOVE L", "KEY C")), "HOLD - 3000"]  # a bankruptcy (B21)
    if roll < 4:
        return ["REMOVE L", "REMOVE R", "KEY M"]  # the pot on or off, in maintenance (B22)
    if roll < 5:
        return ["SET POT " + _pick(dice, ("ON", "ON", "OFF"))]
    if roll < 7:
        return ["REMOVE L", "INSERT R %d" % dice.randint(1, 6),
                "KEY C %s+" % _pick(dice, AMOUNTS)]  # into the pot
    if roll < 9:
        return ["REMOVE L", "REMOVE R", "INSERT L %d" % dice.randint(1, 6),
                "KEY +"]  # the pot collected
    # the count on (B19), or its ranking; or left (C with no card)
    return ["REMOVE L", "REMOVE R", _pick(dice, ("KEY C +", "KEY C", "KEY C"))]


def _commands(dice, ask, backup, night):
    """The next command lines of the session (usually one; a backup put back is several)."""
    if night and dice.randint(0, 3) == 0:
        return _night(dice)
    roll = dice.randint(0, 99)
    if roll < 10:
        return ["INSERT %s %d" % (_pick(dice, "LR"), dice.randint(1, 6))]
    if roll < 16:
        return ["REMOVE " + _pick(dice, "LR")]
    if roll < 32:
        return ["KEY %s%s" % (_pick(dice, AMOUNTS), _pick(dice, "+-"))]
    if roll < 46:
        # a move set up as at the table: the slots its kind needs (B4-B6), then the amount
        how = dice.randint(0, 2)
        lines = ["REMOVE R" if how == 0 else "INSERT R %d" % dice.randint(1, 6)]
        lines.append("REMOVE L" if how == 1 else "INSERT L %d" % dice.randint(1, 6))
        return lines + ["KEY %s%s" % (_pick(dice, AMOUNTS), "+" if how == 0 else "-")]
    if roll < 54:
        return ["KEY " + _pick(dice, ("M", "C", "C", "5", "K", "DEAL", ".", "+"))]
    if roll < 58:
        return ["HOLD C 3000"]  # B11: the keypad's new game
    if roll < 60:
        return ["HOLD %s %d" % (_pick(dice, ("C", "1", "-")), dice.randint(0, 2500))]
    if roll < 66:
        return ["SET BALANCE %d %d" % (dice.randint(1, 6), dice.randint(0, 40000) * 1000)]
    if roll < 68:
        return ["NEWGAME"]
    if roll < 71:
        return ["RESTORE PREVIOUS"]
    if roll < 75:
        ids = [g["id"] for g in reply_json(ask("GAMES"))]
        return ["RESTORE GAME %d" % (_pick(dice, ids) if ids else 999999)]
    if roll < 78:
        reply_json(ask("BACKUP"))
        backup[:] = [reply_json(ask("HELLO"))["profile"], reply_json(ask("BALANCES"))]
        return []
    if roll < 81 and backup:
        # the host tools' restore of a backup file: its profile (a new game), then each card
        profile, bal = backup
        return ["SET PROFILE " + profile] + ["SET BALANCE %s %d" % (c, bal[c]) for c in CARDS]
    if roll < 83:
        return ["SET PROFILE " + _pick(dice, ("world", "world", "classic", "francs"))]
    return ["ADVANCE %d" % dice.randint(0, 3000)]


def play(ask, seed, steps, night=False):
    """A session of steps commands; the kinds of change the events showed ({kind: count})."""
    dice = seeded.Seeded(seed)
    assert ask("EVENTS ON")[-1] == "OK"
    host = Follower(reply_json(ask("BALANCES")))
    backup = []
    for step in range(steps):
        for line in _commands(dice, ask, backup, night):
            out = ask(line)
            for x in out:
                host.take(x)
            got = ask("BALANCES")
            for x in got:
                host.take(x)
            assert host.bal == reply_json(got), (seed, step, line, out, host.bal, got[-1])
            if night:
                got = ask("STATE")
                for x in got:
                    host.take(x)
                assert host.pot == (reply_json(got)["pot"] or 0), (seed, step, line, out)
    return host.seen


def enough(seen):
    """The session met every kind of change it is meant to test."""
    for kind in ("newgame", "restore", "set", "receive", "pay", "transfer"):
        assert seen.get(kind, 0) >= 2, seen
