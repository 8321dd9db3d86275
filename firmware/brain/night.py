"""Game night (B19-B22): the unit's keys for the count, the clock, the pot and a bankruptcy.

It takes the sequences B1-B18 refuse (`refused`: each of game night's was one); while any of it
has the keys or the display (`unit.night_on`), the unit hands it its keys, cards and time first.
`unit.view` is None, "clock", "pot" or a place of the ranking (0 the first).
"""

from brain import count as counting
from brain import gameclock, money, pot
from brain.gameclock import Clock
from brain.clock import sooner, ticks_add, ticks_diff
from brain.ledger import CARDS, POT

SHOW_COUNT = ("Count", False, False)
SHOW_NONE = ("----", False, False)  # in the count, a card that takes no part


def settle(unit):
    """unit.night_on: whether anything of game night is on."""
    led = unit.ledger
    on = (unit.view is not None or unit.game_clock is not None or unit.held is not None
          or (led.count is not None and led.count[0]))
    unit.night_on = bool(on)


def boot(unit, now):
    """The game clock and the count as the store kept them."""
    kept = unit.ledger.clock
    unit.game_clock = None
    if kept is not None:
        unit.game_clock = Clock(kept)
        unit.game_clock.resume(now)
    settle(unit)


def counting_on(unit):
    c = unit.ledger.count
    return c is not None and c[0] == 1


def _one_card(unit):
    slots = unit.slots
    return slots["R"] or slots["L"]


def _set_count(unit, new):
    """The count as new, kept (B17); False, refused and as it was, if the store failed."""
    if new == unit.ledger.count:
        return True  # a - past what was added: nothing to keep, nothing to tell a host
    err = unit.ledger.set("n", new)
    if err:
        unit._refuse(err)
        return False
    unit.rev += 1
    unit._emit("count", None)
    settle(unit)
    return True


def refused(unit, key, code, now, via):
    """Whether key, which B1-B18 refuse with code, is game night's: then it is done."""
    entry = unit.entry
    left = unit.slots["L"]
    right = unit.slots["R"]
    led = unit.ledger
    if not led.ready:
        return False  # Err6 has no game to play a night in
    if key == "M" and not entry and not left and not right:
        if unit.maintenance:
            pot.toggle(unit, now)  # B22, in maintenance
            return True
        if led.pot_on or led.bal[POT]:  # money in it shows, whatever the setting
            pot.show(unit, now)
            settle(unit)
            return True
        return False
    if counting_on(unit):
        return False  # the count has its keys (key())
    if key == "K" and not entry and not left and not right:
        if unit.game_clock is None:
            return _hold(unit, key, now, via)  # B20: held 3 s, the view that sets a clock
        _clock_view(unit, now)  # a clock is set: a glance at it
        return True
    if key == "+" and code == "no-amount" and not entry and not left and not right:
        if unit.tally:
            return False  # the tally is in use (B14)
        return _hold(unit, key, now, via)  # B19: held 3 s, the count
    if key == "+" and led.pot_on and code == "wrong-slot" and right and not left:
        pot.into(unit, right, now, via)
        return True
    if key == "+" and (led.pot_on or led.bal[POT]) and code == "no-amount" and left and \
            not right and not entry:  # money in it is collected, whatever the setting
        pot.collect(unit, left, now, via)
        return True
    if key == "-" and code == "no-amount" and right and not entry:
        return _hold(unit, key, now, via)  # B21: held 3 s, a bankruptcy
    return False


# What each of game night's held keys was, released before its 3 s: B1-B18's refusal.
REFUSED = {"+": "no-amount", "-": "no-amount", "K": "bad-entry"}


def _hold(unit, key, now, via):
    """key held: its 3 s start (one stray tap of a key B1-B18 refuse starts no mode)."""
    unit.held = (key, now, via)
    settle(unit)
    return True


def held_up(unit):
    """Game night's key released before its 3 s: the refusal it was."""
    key = unit.held[0]
    unit.held = None
    settle(unit)
    unit._refuse(REFUSED[key])


def _held_3s(unit, now):
    """Game night's key held its 3 s: the count (+), the clock's view (K), a bankruptcy (-)."""
    key, _, via = unit.held
    unit.held = None
    unit.rev += 1  # a timer's act, not a key's: the picture follows it, whatever it does
    settle(unit)
    if unit._notice_until is not None:
        unit._notice = None  # a clock warning's time left (B20): the key's act ends it, as a key
    if key == "-":
        _bankrupt(unit, now, via)
    elif not (unit.entry or unit.slots["L"] or unit.slots["R"]):  # as it was when pressed
        if key == "+":
            _start_count(unit, now)
        else:
            _clock_view(unit, now)


def _clock_view(unit, now):
    unit.view = "clock"  # B20: the clock's view
    if unit.game_clock is not None:
        unit.game_clock.at = now
    unit.rev += 1
    settle(unit)
    unit._tone("click")


def _bankrupt(unit, now, via):
    """B21: the whole balance of the card in R to the card in L, or to the bank."""
    right = unit.slots["R"]
    left = unit.slots["L"]
    led = unit.ledger
    if right is None or unit.entry:
        return  # the card was taken out, or an amount typed, while it was held
    if counting_on(unit):
        unit._refuse("counting")
        return
    if not led.bal[right]:
        unit._refuse("no-balance")
        return
    rec = led.move("bankrupt", right, left or 0, led.bal[right], 0, via)
    unit.rev += 1  # a timer's move, not a key's: the picture follows it
    unit._moved(rec, "-", now)


def key(unit, key, now, via):
    """A key while game night is on: True if it took it."""
    clk = unit.game_clock
    if clk is not None:
        clk.at = now
        if clk.ending():
            # B20: End stays until a key, which is not input: it starts the count.
            clk.seen = True
            if gameclock.keep(unit, clk):
                unit.view = None
                _start_count(unit, now)
            else:
                clk.seen = False
            return True
    view = unit.view
    if view == "clock":
        taken = gameclock.view_key(unit, key, now)
        settle(unit)
        return taken
    if view == "pot":
        unit.view = None
        settle(unit)
    if not counting_on(unit):
        return False
    if key == "+" or key == "-":
        _count_key(unit, key, now)
        return True
    if key == "M" and not unit.entry and _one_card(unit):
        unit._refuse("counting")  # no money moves during the count: Go is none
        return True
    if key != "C":
        unit.view = None  # a place of the ranking shows until the next input
    return False


def clear(unit):
    """A plain C while game night is on: True if it took it."""
    view = unit.view
    if view == "clock":
        if unit.entry:
            unit._clear_entry()
        else:
            unit.view = None
            settle(unit)
        return True
    if not counting_on(unit):
        return False
    if unit.entry:
        unit._clear_entry()
        return True
    card = _one_card(unit)
    new = list(unit.ledger.count)
    if card is None:
        new[0] = 0  # B19: the count ends; what was counted is kept
        unit.view = None
        _set_count(unit, new)
        return True
    added = new[card]
    if added is None:
        return True  # nothing to clear
    new[card] = None if added == 0 else 0
    _set_count(unit, new)
    return True


def _start_count(unit, now):
    """B19: the count on; the tally and the entry dropped."""
    led = unit.ledger
    new = [0] + [None] * CARDS if led.count is None else list(led.count)
    new[0] = 1
    for card in (unit.slots["L"], unit.slots["R"]):
        if card and new[card] is None:
            new[card] = 0  # a card in takes part
    unit.tally = 0
    unit._clear_entry()
    unit.view = None
    if _set_count(unit, new):
        unit._tone("click")


def _count_key(unit, key, now):
    led = unit.ledger
    left = unit.slots["L"]
    right = unit.slots["R"]
    if not left and not right:
        if unit.entry:
            unit._refuse("wrong-slot")
            return
        if key == "-":
            unit._refuse("no-amount")
            return
        rows = counting.ranking(counting.counts(led))
        if not rows:
            unit._refuse("no-count")
            return
        view = unit.view
        nxt = view + 1 if isinstance(view, int) and view + 1 < len(rows) else 0
        unit.view = nxt
        unit.rev += 1
        unit._tone("winner" if rows[nxt][0] == 1 else "click")
        return
    if left and right:
        unit._refuse("wrong-slot")
        return
    card = left or right
    amount, err = money.parse(unit.entry, led.profile, False)
    if err:
        unit._refuse(err)
        return
    new = list(led.count)
    added = new[card] or 0
    new[card] = added + amount if key == "+" else max(0, added - amount)
    if _set_count(unit, new):
        unit._clear_entry()
        unit._tone("click")


def card(unit, card):
    """A card moved (card: the card put in, or None): a view ends; in the count a card put in
    takes part (B19)."""
    unit.held = None  # a card moved while game night's key was held: none
    unit.view = None
    settle(unit)
    if card and counting_on(unit) and unit.ledger.count[card] is None:
        new = list(unit.ledger.count)
        new[card] = 0
        _set_count(unit, new)


def display(unit):
    """What game night shows when no entry, message or card number does, or None."""
    view = unit.view
    led = unit.ledger
    if view == "clock":
        clk = unit.game_clock
        return ("--.--" if clk is None else clk.text(clk.at), False, False)
    if view == "pot":
        return money.fmt(led.bal[POT], led.profile)
    if not counting_on(unit):
        return None
    if isinstance(view, int):
        rows = counting.ranking(counting.counts(led))
        if view < len(rows):
            return ("%d-%d" % rows[view][:2], False, False)  # "1-3": first place, card 3
    card = _one_card(unit)
    if not card:
        return SHOW_COUNT
    n = counting.of(led, card)
    return SHOW_NONE if n is None else money.fmt(n, led.profile)


def due(unit):
    """Ticks of game night's next timed change, or None; switched off, the clock's."""
    clk = unit.game_clock
    out = None if clk is None else clk.due()
    if not unit.power:
        return out
    if unit.held is not None:
        out = sooner(out, ticks_add(unit.held[1], unit.hold_ms))
    if unit.view == "clock" and clk is not None:
        out = sooner(out, clk.next_second(clk.at))
    return out


def tick(unit, now):
    """Game night's timers (the clock's, on or off); True if anything changed."""
    changed = False
    clk = unit.game_clock
    if clk is not None:
        shown = clk.text(clk.at) if unit.view == "clock" else None
        clk.at = now
        step = clk.step(now)
        while step is not None:
            changed = True
            gameclock.stepped(unit, clk, step, now)
            step = clk.step(now)
        if shown is not None and clk.text(now) != shown:
            unit.rev += 1
            changed = True
    if unit.power and unit.held is not None:
        if ticks_diff(now, ticks_add(unit.held[1], unit.hold_ms)) >= 0:
            _held_3s(unit, now)
            changed = True
    return changed


def state(unit):
    """(pot, clock, count) as STATE and the events show them (docs/protocol-extensions.md)."""
    led = unit.ledger
    in_pot = led.bal[POT] if led.pot_on or led.bal[POT] else None  # money in it always shows
    clk = unit.game_clock
    clock = None
    if clk is not None:
        now = clk.at
        clock = (("minutes", clk.minutes), ("left", clk.left_at(now)), ("running", clk.running),
                 ("over", bool(clk.over())))
    cnt = None
    pairs = [] if led.count is None else counting.counts(led)
    if pairs or counting_on(unit):  # a count ended with no card in it counted nothing
        cnt = (("on", led.count[0] == 1), ("cards", tuple((str(c), n) for c, n in pairs)),
               ("ranking", [r[1] for r in counting.ranking(pairs)]))
    return in_pot, clock, cnt

