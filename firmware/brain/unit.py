"""The unit: a state machine driven by keys, cards and time (docs/design.md, "The brain's API")."""

from brain import deal, money, night
from brain.clock import sooner, ticks_add, ticks_diff
from brain.ledger import AMOUNT, CARDS, FROM, KIND, LOUDEST, SEQ, TO, Ledger

DIGITS = "0123456789"
KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M", "K", "C", "DEAL", "+", "-")
SLOTS = ("L", "R")

# docs/rules.md, "What the display says"
SHOW_FUNDS = ("Err1", False, False)  # B8
SHOW_STORE = ("Err5", False, False)  # B17: the last good copy is in use
SHOW_NO_GAME = ("Err6", False, False)  # B17: no good copy at all
SHOW_END = ("End", False, False)  # B20, until a key
OFF = ("", False, False)


class Upkeep:
    """Unit's boot, maintenance, new games and card numbering, in a class of their own beside
    play's: one class of them all overflowed the collector's mark stack (docs/performance.md)."""

    def boot(self, now, status):
        """Switched on with the game the store loaded and its status, 'ok', 'new' or 'damaged',
        which it returns."""
        self.store_status = status
        self.power = True
        self._last = now
        if status == "damaged":
            self.store_damaged()
        if self.ledger.clock is not None or self.ledger.count is not None:
            night.boot(self, now)
        self.rev += 1
        return status

    def store_damaged(self):
        """B17: damage the store found, at boot or since, reported until the banker's key."""
        self.store_status = "damaged"
        self._unseen = True
        self.error = "store-damaged"
        self._err5 = self.ledger.ready  # Err6 shows for itself
        self.rev += 1

    def new_game(self, now, profile=None, via="key"):
        """A host's new game (B11, B15): None or the error."""
        self._input(now, False, via)
        return self._new_game(profile)

    def _new_game(self, profile):
        """B11: every account back to the start, in profile's money when given (B15)."""
        err = self.ledger.reset(profile)
        if err:
            self._refuse(err)
            return err
        self._end_session()
        self._no_error()
        self.game_clock = self.held = None  # B19, B20: gone with the game
        self.night_on = False
        self.rev += 1
        self._emit("game", self.ledger.profile.name)
        self._tone("new-game")
        return None

    def _cycle_volume(self, now):
        """B12: `.` with no card and no entry: 2 -> 1 -> 0 -> 2."""
        vol = (self.ledger.volume - 1) % (LOUDEST + 1)
        err = self.ledger.set("v", vol)
        if err:
            self._refuse(err)
            return
        self._show(("012"[vol], False, False), now, self.message_ms)
        self._tone("click")

    def set_volume(self, volume):
        """B12 from a host: None or the error."""
        err = self.ledger.set("v", volume)
        if not err:
            self.rev += 1
        return err

    def write_card(self, slot, card, now, via="key"):
        """Maintenance, RFID slots: card's number written on the tag on slot's reader; None or
        the error."""
        if slot not in SLOTS or not isinstance(card, int) or not 1 <= card <= CARDS:
            return "bad-argument"
        writer = self.card_writer
        if writer is None:
            return "unsupported"
        if not self.maintenance:
            return "maintenance-required"
        self._input(now, False, via)
        # Two tags of one number: the second would be refused at its reader (tag_refused).
        err = "card-in-use" if self._other(slot) == card else writer(slot, card)
        if err:
            self._refuse(err)
            return err
        self._tone("click")
        return None

    def _toggle_maintenance(self, now):
        """DEAL held for hold_ms: the banker, at the unit, lets host tools change money."""
        if self.deal_timer is not None:
            self.deal_timer.stop()  # the deal the press started is not meant
        self.maintenance = not self.maintenance
        self._granted = False
        self._show(("SErv", False, False) if self.maintenance else ("PLAY", False, False), now,
                   self.message_ms)
        self.rev += 1
        self._tone("click")

    def _number_card(self, now):
        """Maintenance: a card number typed, then DEAL, numbers the tag on the L reader."""
        entry = self.entry
        card = DIGITS.find(entry) if len(entry) == 1 else -1
        if not 1 <= card <= CARDS:
            self._refuse("bad-entry")
            return
        if self.write_card("L", card, now) is None:
            self._clear_entry()

    def set_balance(self, card, amount, via="key"):
        """Maintenance: a balance put straight, logged as the move it took; the record, None
        when it was that already, or the error."""
        rec = self.ledger.set_balance(card, amount, via)
        return rec if rec is None else self._changed(rec)

    def restore_game(self, gid, via="key"):
        """Maintenance: the kept game gid (None: the newest) brought back (B11); its record or
        the error."""
        rec = self._changed(self.ledger.restore(gid, via))
        if not isinstance(rec, str):
            self.game_clock = self.held = self.view = None  # B19, B20
            self.night_on = False
        return rec

    def _changed(self, rec, event="txn"):
        """A change a host or maintenance made (rec, or the error: nothing changed), said as
        event."""
        if not isinstance(rec, str):
            self._undoable = None  # a maintenance change is not the banker's to undo (B10)
            self._focus_next = None  # nor is a transfer's payee to come (B6): no money came in
            self.rev += 1
            self._emit(event, rec)
        return rec

    # -- time ----------------------------------------------------------------------------------

    def card_refusal(self, slot, card=None):
        """What card_in (card None: card_out) would refuse, or None: the simulator asks before a
        drawn card moves, as no real slot takes a card into a full slot or the same card twice."""
        slots = self.slots
        if slot not in SLOTS:
            return "bad-argument"
        if card is None:
            return "slot-empty" if slots[slot] is None else None
        if not isinstance(card, int) or not 1 <= card <= CARDS:
            return "bad-argument"
        if slots[slot] is not None:
            return "slot-occupied"
        if self._other(slot) == card:
            return "card-in-use"
        return None

    def _other(self, slot):
        """The card in the slot beside slot's, or None."""
        return self.slots["R" if slot == "L" else "L"]

    def tag_refused(self, slot, now, card=None):
        """A tag on slot's reader that is no card to take: with no card number, or card's,
        which the other slot holds (two tags numbered alike): input, refused; the slot stays
        empty."""
        if slot not in SLOTS:
            return "bad-argument"
        if not self.power:
            self.wake(now)
        self._input(now, True)
        code = "unknown-card" if card is None else "card-in-use"
        self._refuse(code)
        return code


class Unit(Upkeep):
    card_ms = 1000  # B3: the card number before the balance
    transfer_ms = 1000  # B6: the payer's new balance before the payee's
    message_ms = 1000  # B12: the volume digit; B8: the refusal
    hold_ms = 3000  # B11: C held for a new game; DEAL held for maintenance
    hand_ms = 60  # B2: three keys down within it, two still held, are a hand, not typing
    off_ms = 60000  # B16; the deal timer's (B13) are deal.py's

    def __init__(self, store, rng, profile, maintenance=False, card_writer=None):
        self.ledger = Ledger(store, profile)
        self.profile_wanted = profile
        self.rng = rng  # randint(lo, hi), for the deal timer (B13)
        self.listeners = []
        self.power = True
        self.slots = {"L": None, "R": None}
        self.entry = ""  # the keys typed: "2.5M"
        self._etext = ""  # the entry without its suffix, as the display shows it
        self._ndig = 0
        self._dot = None  # the cells the entry's point takes (money.accepts)
        self._suffix = ""
        self._disp = OFF
        self._disp_rev = -1
        self.tally = 0
        self.error = None
        self.deal_timer = None  # deal.Timer, from the first DEAL
        self.maintenance = maintenance
        # Granted at start (the simulator's --maintenance): back at every wake, since a headless
        # simulator has no keypad to enter it again, until the banker leaves it at the keypad.
        self._granted = maintenance
        self.store_status = "new"
        self._unseen = False  # damage reported that the banker has not seen yet (B17)
        self._err5 = False  # B17: Err5 shows, once a message is over, until a keypad key or a card
        self.rev = 0
        self._last = 0  # ticks of the last key, card movement or deal end (B16)
        self._notice = None  # a message shown over everything ...
        self._notice_until = None  # ... until then, or until the next input when None
        self._focus = None  # the card whose balance shows, when not the default (B6)
        self._focus_next = None  # the payee, shown from _focus_at (B6)
        self._focus_at = 0
        self._undoable = None  # the transaction C may still reverse (B10)
        self._go_used = False  # B9: the Go of this insertion of the L card is taken
        self._c_down = None  # ticks C went down, while it is held (B11)
        self._c_fired = False
        self._deal_down = None  # ticks DEAL went down, while it is held
        self._ignore_up = None  # the key that woke the unit is not input (B16)
        self._held = []  # the keys down now: activity until released (B16)
        self._downs = [0, 0]  # ticks of the two keys down before the last
        self._hand = False  # B2: a hand on the keypad, until every key is up
        self.night_on = False  # game night (brain/night.py) has the keys or the display
        self.view = None  # what game night shows
        self.game_clock = None  # B20: a gameclock.Clock while a length is set
        self.held = None  # B19-B21: (key, ticks, via) while game night's key is held
        self.card_writer = card_writer  # RFID slots: writer(slot, n) -> None or the error

    # -- outputs -------------------------------------------------------------------------------

    # Methods, not properties: in MicroPython a class with a property makes every attribute
    # store on its instances look the class up first.
    def deal_phase(self):
        """B13: 'idle', 'running', 'ending' (its last 5 s) or 'done' (the green light's 5 s)."""
        timer = self.deal_timer
        return "idle" if timer is None else timer.phase

    def red(self):
        """B13: the deal running."""
        if self.power:
            deal = self.deal_phase()
            if deal == "running":
                return "slow"
            if deal == "ending":
                return "fast"
        return "off"

    def green(self):
        """A deal just ended (B13), or maintenance."""
        if not self.power:
            return "off"
        if self.deal_phase() == "done":
            return "slow"
        return "on" if self.maintenance else "off"

    def display(self):
        """(text, k, M), worked out once a change (rev) however many ask."""
        if self._disp_rev == self.rev:
            return self._disp
        self._disp_rev = self.rev
        clock = self.game_clock
        if not self.power:
            shown = OFF
        elif clock is not None and clock.ending():
            shown = SHOW_END
        elif self._notice is not None:
            shown = self._notice
        elif self._err5:
            shown = SHOW_STORE
        elif self.entry:
            suffix = self._suffix
            shown = (self._etext, suffix == "K", suffix == "M")
        elif not self.ledger.ready:
            shown = SHOW_NO_GAME
        else:
            shown = night.display(self) if self.night_on else None
        if shown is None:
            card = self.shown_card()
            shown = money.fmt(self.ledger.bal[card] if card else self.tally, self.ledger.profile)
        self._disp = shown
        return shown

    def shown_card(self):
        """The card whose balance the display shows, or None."""
        slots = self.slots
        card = self._focus  # the payee of a transfer, once its second has come (B6)
        if not (card and (slots["L"] == card or slots["R"] == card)):
            card = slots["R"] or slots["L"]  # with both cards in, the payer (B3)
        return card

    def _emit(self, kind, arg):
        if kind != "power" and self.store_status == "new":
            # Something is on flash now: the store found empty at boot is no longer new (B17).
            self.store_status = "ok"
        for fn in self.listeners:
            fn(kind, arg)

    def _tone(self, name):
        if self.ledger.volume:  # B18: at volume 0 nothing sounds
            for fn in self.listeners:  # not _emit: one call less a key press
                fn("tone", name)

    def _show(self, msg, now, ms):
        self._notice = msg
        self._notice_until = None if ms is None else ticks_add(now, ms)

    # -- power (B16, B17) ----------------------------------------------------------------------

    def switch_off(self):
        """B16: the session, any deal and maintenance dropped; the cards stay."""
        self.power = False
        self._end_session()
        self._c_down = None
        self._deal_down = None
        if self.deal_timer is not None:
            self.deal_timer.stop()
        self.maintenance = False
        self.rev += 1
        self._emit("power", "off")

    def wake(self, now):
        """B16: on again, as it was left."""
        self.power = True
        self._last = now
        self.maintenance = self._granted
        self.rev += 1
        self._emit("power", "on")

    def _end_session(self):
        """The entry, the tally (B14), the undo (B10), a message and a transfer's focus (B6)
        dropped: switched off, a new game, the first card in."""
        self._clear_entry()
        self.tally = 0
        self._undoable = None
        self._notice = None
        self._focus = None
        self._focus_next = None
        self.view = None
        if self.night_on:
            night.settle(self)

    # -- input ---------------------------------------------------------------------------------

    def _input(self, now, card, via="key"):
        """A key or a card: activity (B16), and the end of what it interrupts (B3)."""
        self._last = now
        seen = via == "key" and not card
        if seen and self._unseen:
            # B17: damage is reported until a key at the unit (not a host's, not a card); what
            # the banker saw reported lost is then kept no more.
            self._unseen = False
            self.ledger.store.seen(self.ledger)
        if self.error is not None:
            self._no_error()
        if seen or card:
            self._err5 = False  # a host's key leaves it: nobody at the unit saw it
        self._notice = None
        self._focus = None  # not the payee's turn still to come (B6): that money moved
        self.rev += 1

    def _no_error(self):
        """The last refusal over; damage unseen stays reported."""
        self.error = "store-damaged" if self._unseen else None

    def _refuse(self, code):
        # B17: damage unseen is the error reported until a key at the unit; the tone still says
        # the refusal.
        self.error = "store-damaged" if self._unseen else code
        self._tone("error")

    # -- keys ----------------------------------------------------------------------------------

    def key_down(self, key, now, via="key"):
        if key not in KEYS:
            return "bad-key"
        if key not in self._held:
            self._held.append(key)
        downs = self._downs
        hand = len(self._held) > 2 and ticks_diff(now, downs[0]) < self.hand_ms
        downs[0], downs[1] = downs[1], now
        if not self.power:
            self.wake(now)  # B16
            self._ignore_up = key  # B16: the waking key is not input ...
            self._no_error()  # ... but a key: the refusal before the switch-off is over
            return None
        if hand or self._hand:
            if not self._hand:
                self._on_hand(now, via)
            return None
        self._input(now, False, via)
        if self._c_down is not None and key != "C":
            self._c_up(now, via)  # a key rolled over C's release: C was pressed first
        if self.night_on and night.key(self, key, now, via):
            return None
        if key == "C":
            self._c_down = now  # acts on release, or after hold_ms (B10, B11)
            self._c_fired = False
            self._tone("click")
        elif key == "DEAL":
            # Maintenance needs someone at the unit: held over serial, DEAL is only a DEAL.
            self._deal_down = now if via == "key" else None
            if self.entry and self.maintenance and self.card_writer is not None:
                self._number_card(now)  # a number typed, then DEAL: the L reader's tag
            else:
                self._deal(now)  # B13
        elif key == "+" or key == "-":
            self._commit(key, now, via)
        else:
            self._type(key, now, via)
        return None

    def key_up(self, key, now, via="key"):
        if key not in KEYS:
            return "bad-key"
        if key in self._held:
            self._held.remove(key)
            if self.power:
                self._last = now  # B16: the minute counts from the key's release
        if self._hand:
            self._hand = bool(self._held)
            if key == self._ignore_up:
                self._ignore_up = None
            return None
        if key == self._ignore_up:
            self._ignore_up = None
            return None
        if key == "C" and self._c_down is not None:
            self._c_up(now, via)
        elif key == "DEAL":
            self._deal_down = None
        elif self.held is not None and key == self.held[0]:
            night.held_up(self)  # B19-B21: released before its 3 s
        return None

    def _on_hand(self, now, via):
        """B2: keys that all but came down together are a hand on the keypad: refused, and
        no key taken, nor a hold let run out, until every key is up."""
        self._hand = True
        self._input(now, False, via)
        self._c_down = self._deal_down = None
        if self.held is not None:
            self.held = None  # game night's key held (B19-B21): no mode started
            night.settle(self)
        self._refuse("too-many-keys")

    def _c_up(self, now, via):
        """C let go before its 3 s (B10), or another key down first: a plain C."""
        self._c_down = None
        if not self._c_fired and self.power:
            self._clear(now, via)
            self.rev += 1

    def _type(self, key, now, via):
        entry = self.entry
        if (key == "." and not entry
                and self.slots["L"] is None and self.slots["R"] is None):
            self._cycle_volume(now)  # B12
        elif key == "M" and not entry:
            self._go(now, via)
        elif money.accepts(self._ndig, self._dot, self._suffix, key):
            entry = self.entry = entry + key
            if key == "K" or key == "M":
                self._suffix = key
            else:
                self._etext = entry
                if key == ".":
                    self._dot = 0 if self._ndig else 1
                else:
                    self._ndig += 1
            self._tone("click")
        else:
            self._or_night(key, "bad-entry", now, via)  # B2: the entry stays as it was

    def _clear_entry(self):
        self.entry = ""
        self._etext = ""
        self._ndig = 0
        self._dot = None
        self._suffix = ""

    def _go(self, now, via):
        left = self.slots["L"]
        if left is None or self.slots["R"] is not None:
            # B9 needs one card, in L; with no card M is a suffix with no digits (B2).
            self._or_night("M", "bad-entry" if self.slots["R"] is None else "wrong-slot", now, via)
            return
        if self._go_used:
            self._refuse("go-taken")  # B9: once per insertion
            return
        rec = self.ledger.move("go", 0, left, self.ledger.profile.go, 0, via)
        if not isinstance(rec, str):
            self._go_used = True
        self._moved(rec, "+", now)

    def _commit(self, sign, now, via):
        left = self.slots["L"]
        right = self.slots["R"]
        ledger = self.ledger
        if left is None and right is None:
            self._tally(sign, now, via)
            return
        # B7: + needs exactly one card, in L; - needs a card in R.
        wrong = right is not None or left is None if sign == "+" else right is None
        if wrong:
            self._or_night(sign, "wrong-slot", now, via)
            return
        amount, err = money.parse(self.entry, ledger.profile, True)
        if err:
            self._or_night(sign, err, now, via)
            return
        if sign == "+":
            rec = ledger.move("receive", 0, left, amount, 0, via)
        elif left is None:
            rec = ledger.move("pay", right, 0, amount, 0, via)
        else:
            rec = ledger.move("transfer", right, left, amount, 0, via)
        self._moved(rec, sign, now)

    def _moved(self, rec, sign, now):
        """A move made (the record) or refused (its code): what it shows and sounds (B4-B8)."""
        if isinstance(rec, str):
            self._refuse(rec)
            if rec == "insufficient-funds":
                self._show(SHOW_FUNDS, now, self.message_ms)  # B8: the display says so
            return
        self._clear_entry()
        self._undoable = rec  # C may reverse it (B10)
        self._focus_next = None  # a transfer's payee to come: this move shows and sounds now
        self._emit("txn", rec)
        if sign == "+":
            self._tone("money-in")
        else:
            self._tone("money-out")
            if 1 <= rec[TO] <= CARDS:
                # B6: the payer's new balance for a second, then the payee's, with its tone.
                self._focus_next = rec[TO]
                self._focus_at = ticks_add(now, self.transfer_ms)

    def _tally(self, sign, now, via):
        # B14: an adding machine; B2's format, not its limits; never below 0; no account moves.
        amount, err = money.parse(self.entry, self.ledger.profile, False)
        if err:
            self._or_night(sign, err, now, via)
            return
        if sign == "+":
            self.tally += amount
        else:
            self.tally = max(0, self.tally - amount)
        self._clear_entry()
        self._tone("click")

    def _or_night(self, key, code, now, via):
        """Refused with code, unless game night's (B19-B22)."""
        if not night.refused(self, key, code, now, via):
            self._refuse(code)

    def _clear(self, now, via):
        """A plain C (B10; B14 without a card)."""
        if self.night_on and night.clear(self):
            return
        if self.entry:
            self._clear_entry()
            return
        if self.slots["L"] is None and self.slots["R"] is None:
            self.tally = 0
            return
        rec = self._undoable
        if rec is None:
            return
        # B10: the money goes back the way it came, as a transaction of its own.
        undo = self.ledger.move("undo", rec[TO], rec[FROM], rec[AMOUNT], rec[SEQ], via)
        if isinstance(undo, str):
            self._refuse(undo)
            return
        self._undoable = None
        if rec[KIND] == "go":
            self._go_used = False  # B9: a reversed Go may be taken again
        # B10: the restored balance shows, the payer's for a transfer, whichever slot it is in.
        self._focus = rec[FROM] if 1 <= rec[FROM] <= CARDS else rec[TO]
        self._focus_next = None
        self._emit("txn", undo)
        self._tone("money-in" if 1 <= undo[TO] <= CARDS else "money-out")

    # -- cards (B3) ----------------------------------------------------------------------------

    def card_in(self, slot, card, now):
        err = "bad-argument" if card is None else self.card_refusal(slot, card)
        if err is not None:
            return err
        slots = self.slots
        other = self._other(slot)
        if not self.power:
            self.wake(now)  # B16: and the card is input
        self._input(now, True)
        if other is None:
            # B14: a card ends the tally and what was typed for it.
            self._end_session()
        slots[slot] = card
        self._focus_next = None  # B3: the card put in shows, then the payer's balance
        if slot == "L":
            self._go_used = False
        self._show((DIGITS[card], False, False), now, self.card_ms)
        self._tone("card")
        if self.night_on:
            night.card(self, card)  # B19: a card in the count takes part
        return None

    def card_out(self, slot, now):
        err = self.card_refusal(slot)
        if err is not None:
            return err
        card = self.slots[slot]
        self.slots[slot] = None
        if slot == "L":
            self._go_used = False
        rec = self._undoable
        if rec is not None and (rec[FROM] == card or rec[TO] == card):
            self._undoable = None  # B10: undo needs the cards still in
        if self._focus_next == card:
            self._focus_next = None  # B6: no payee's turn with its card gone
        if not self.power:
            self._no_error()  # a card movement ends the last refusal, awake or not
            self.rev += 1  # a removal does not wake the unit
            return None
        self._input(now, True)
        self._clear_entry()  # B3: removing a card discards an entry in progress
        if self.night_on:
            night.card(self, None)
        return None

    # -- the rare changes ----------------------------------------------------------------------

    def _deal(self, now):
        timer = self.deal_timer
        if timer is None:
            timer = self.deal_timer = deal.Timer(self.rng)
        tone = timer.press(now)
        if tone == "deal-end":
            self._last = now  # B16: a deal end counts as activity
        self._tone(tone)

    def deadline(self):
        """Ticks of the next timed change, or None."""
        due = night.due(self) if self.night_on else None  # B20 runs switched off
        if not self.power:
            return due
        timer = self.deal_timer
        dealing = timer is not None and timer.phase != "idle"
        if not self._held and not dealing:
            due = sooner(due, ticks_add(self._last, self.off_ms))  # B16: not while a key is down
        if self._notice is not None and self._notice_until is not None:
            due = sooner(due, self._notice_until)
        if self._focus_next is not None:
            due = sooner(due, self._focus_at)
        if self._c_down is not None and not self._c_fired:
            due = sooner(due, ticks_add(self._c_down, self.hold_ms))
        if self._deal_down is not None:
            due = sooner(due, ticks_add(self._deal_down, self.hold_ms))
        if dealing:
            due = sooner(due, timer.at)
        return due

    def tick(self, now):
        before = self.rev
        if self.night_on:
            night.tick(self, now)  # B20: the clock runs switched off too
        if not self.power:
            return self.rev != before
        if self._notice is not None and self._notice_until is not None:
            if ticks_diff(now, self._notice_until) >= 0:
                self._notice = None
                self.rev += 1
        if self._focus_next is not None and ticks_diff(now, self._focus_at) >= 0:
            self._focus = self._focus_next
            self._focus_next = None
            self.rev += 1
            self._tone("money-in")  # B6: the payee's side of the transfer
        if self._c_down is not None and not self._c_fired:
            if ticks_diff(now, ticks_add(self._c_down, self.hold_ms)) >= 0:
                self._c_fired = True
                self._new_game(None)  # B11
        if self._deal_down is not None:
            if ticks_diff(now, ticks_add(self._deal_down, self.hold_ms)) >= 0:
                self._deal_down = None
                self._toggle_maintenance(now)
        timer = self.deal_timer
        if timer is not None and timer.phase != "idle":
            tone = timer.step(now)
            while tone is not None:  # B13: every step that is due
                self.rev += 1
                if tone:
                    if tone == "deal-end":
                        self._last = timer.end  # B16: a deal end counts as activity
                    self._tone(tone)
                tone = timer.step(now)
        if not self._held and (timer is None or timer.phase == "idle"):
            if ticks_diff(now, ticks_add(self._last, self.off_ms)) >= 0:
                self.switch_off()  # B16: a minute with nothing
        return self.rev != before
