"""Game night's rules (B19-B22) on the unit, through its keys and cards on a virtual clock:
the count that names a winner, the game clock, a bankruptcy in one step, the Free Parking pot.
Each sequence was refused before; with the pot off and no count or clock started, B1-B18 are
as they were (the last tests here)."""

from harness import Rig
from store import FileStore
from storerig import FaultFS, copy_files

START = 15000000
MIN = 60000


def _counted(r, card, extra=None):
    """card put in during the count, extra (keys) added for it, then taken out."""
    r.insert("L", card)
    r.advance(1000)
    if extra:
        r.press(extra)
    r.remove("L")


# -- B19 the count ------------------------------------------------------------------------------

def test_b19_plus_held_3s_with_no_card_and_no_tally_starts_the_count_a_tap_is_refused():
    r = Rig()
    r.take_tones()
    r.press("+")  # a stray tap is B1-B18's: refused, and no mode starts (B2)
    assert r.unit.error == "no-amount" and r.take_tones() == ["error"]
    assert r.text() == "0" and r.unit.ledger.count is None
    r.hold("+", 2900)  # let go before its 3 s: the refusal it was
    assert r.unit.error == "no-amount" and r.unit.ledger.count is None
    r.take_tones()
    r.hold("+", 3000)
    assert r.shown() == ("Count", False, False)
    assert r.unit.error is None and r.take_tones() == ["click"]


def test_b19_a_card_counts_its_balance_plus_what_is_added_and_no_account_moves():
    r = Rig()
    r.hold("+", 3000)
    r.insert("L", 3)
    assert r.text() == "3"
    r.advance(1000)
    assert r.shown() == ("15", False, True)  # its balance, to start from
    r.press("25M+")  # beyond one entry's 20 M: the count has no such limit
    assert r.shown() == ("40", False, True)
    r.press("2.5M-")
    assert r.shown() == ("37.5", False, True)
    r.press("99M-")  # never below its balance
    assert r.shown() == ("15", False, True)
    assert r.bal(3) == START and r.txns == []
    assert r.unit.ledger.count[3] == 0


def test_b19_the_ranking_names_the_winner_with_its_tone_then_each_place():
    r = Rig()
    r.hold("+", 3000)
    _counted(r, 1, "5M+")
    _counted(r, 3, "9M+")
    _counted(r, 5)
    r.take_tones()
    r.press("+")
    assert r.shown() == ("1-3", False, False) and r.take_tones() == ["winner"]
    r.press("+")
    assert r.text() == "2-1" and r.take_tones() == ["click"]
    r.press("+")
    assert r.text() == "3-5"
    r.take_tones()
    r.press("+")
    assert r.text() == "1-3" and r.take_tones() == ["winner"]
    r.press("5")
    assert r.text() == "5"  # a place shows until the next input


def test_b19_equal_counts_share_a_place():
    r = Rig()
    r.hold("+", 3000)
    _counted(r, 2, "1M+")
    _counted(r, 4, "1M+")
    _counted(r, 6, "1M-")  # nothing added: nothing to take off
    r.press("+")
    assert r.text() == "1-2"
    r.press("+")
    assert r.text() == "1-4"
    r.press("+")
    assert r.text() == "3-6"


def test_b19_c_clears_the_entry_then_the_additions_then_the_card_leaves_the_count():
    r = Rig()
    r.hold("+", 3000)
    r.insert("L", 2)
    r.advance(1000)
    r.press("3M+", "50K")
    r.press("C")
    assert r.shown() == ("18", False, True) and r.unit.entry == ""
    r.press("C")
    assert r.shown() == ("15", False, True)
    r.press("C")
    assert r.shown() == ("----", False, False)  # no part in the count
    r.press("1M+")
    assert r.shown() == ("16", False, True)  # counted again
    r.remove("L")
    r.press("+")
    assert r.text() == "1-2"


def test_b19_nobody_counted_is_no_ranking():
    r = Rig()
    r.hold("+", 3000)
    r.take_tones()
    r.press("+")
    assert r.unit.error == "no-count" and r.take_tones() == ["error"]
    assert r.text() == "Count"


def test_b19_c_with_no_card_leaves_the_count_and_plus_brings_back_what_was_counted():
    r = Rig()
    r.hold("+", 3000)
    _counted(r, 4, "7M+")
    r.press("C")
    assert r.shown() == ("0", False, False)  # in play: the tally
    r.insert("L", 4)
    r.advance(1000)
    r.press("1M+")  # play again: a receipt
    assert r.bal(4) == START + 1000000
    r.remove("L")
    r.hold("+", 3000)
    assert r.text() == "Count"
    r.insert("R", 4)
    r.advance(1000)
    assert r.shown() == ("23", False, True)  # its balance now, plus the 7 M counted


def test_b19_no_money_moves_during_the_count():
    r = Rig()
    r.hold("+", 3000)
    r.insert("L", 1)
    r.advance(1000)
    r.press("M")
    assert r.unit.error == "counting"
    r.insert("R", 2)
    r.press("1M-")
    assert r.unit.error == "wrong-slot"  # two cards: the count takes one at a time
    r.hold("-", 3000)
    assert [r.bal(c) for c in (1, 2)] == [START, START] and r.txns == []


def test_b19_b22_m_with_no_card_shows_the_pot_during_the_count():
    r = Rig()
    _pot_on(r)
    _into_pot(r, 2, "1M")
    r.hold("+", 3000)
    assert r.text() == "Count"
    r.press("M")
    assert r.text() == "Pot" and r.unit.error is None
    r.advance(1000)
    assert r.shown() == ("1", False, True)
    r.press("+")  # the next input: the count's, the winner asked for with nobody counted
    assert r.unit.error == "no-count" and r.unit.ledger.count[0] == 1
    assert r.bal(2) == START - 1000000


def test_b19_a_total_on_the_tally_keeps_plus_refused():
    r = Rig()
    r.press("5M+")
    r.press("+")
    assert r.unit.error == "no-amount" and r.unit.ledger.count is None
    assert r.shown() == ("5", False, True)


def test_b19_the_count_is_kept_across_switch_off_and_a_restart():
    r = Rig()
    r.hold("+", 3000)
    _counted(r, 6, "4M+")
    r.advance(61000)
    assert not r.unit.power
    r.press("1")  # wakes: not input
    assert r.text() == "Count"
    r2 = Rig(store=r.store)
    assert r2.text() == "Count"
    r2.insert("L", 6)
    r2.advance(1000)
    assert r2.shown() == ("19", False, True)


def test_b19_a_new_game_ends_and_forgets_the_count():
    r = Rig()
    r.hold("+", 3000)
    _counted(r, 6, "4M+")
    r.hold("C", 3000)
    assert r.unit.ledger.count is None and r.text() == "0"
    r.hold("+", 3000)
    r.press("+")
    assert r.unit.error == "no-count"


# -- B20 the game clock -------------------------------------------------------------------------

def test_b20_k_held_3s_with_no_card_shows_the_clock_dashes_when_none_a_tap_is_refused():
    r = Rig()
    r.take_tones()
    r.press("K")  # no clock: a stray tap is B1-B18's, refused (B2), and no view opens
    assert r.unit.error == "bad-entry" and r.take_tones() == ["error"] and r.text() == "0"
    r.hold("K", 3000)
    assert r.shown() == ("--.--", False, False) and r.take_tones() == ["click"]
    r.press("+")
    assert r.unit.error == "no-clock"
    r.press("K")
    assert r.text() == "0"


def test_b20_minutes_and_plus_start_it_and_the_view_follows_each_second():
    r = Rig()
    r.hold("K", 3000)
    r.press("90")
    assert r.shown() == ("90", False, False) and r.unit.entry == "90"
    r.press("+")
    assert r.text() == "90.00" and r.unit.entry == ""
    r.advance(1000)
    assert r.text() == "89.59"
    r.advance(58000)
    assert r.text() == "89.01"
    r.press("C")
    assert r.text() == "0"  # the view ends; the clock runs on
    r.advance(2000)
    r.press("K")
    assert r.text() == "88.59"


def test_b20_minus_stops_it_and_plus_starts_it_again_where_it_stopped():
    r = Rig()
    r.hold("K", 3000)
    r.press("10+")
    r.advance(30000)
    r.press("-")
    assert r.text() == "9.30"
    r.advance(120000)
    assert not r.unit.power
    r.press("K", "K")  # the first wakes the unit; the view was dropped at switch-off
    assert r.text() == "9.30"
    r.press("+")
    r.advance(500)
    assert r.text() == "9.30"
    r.advance(500)
    assert r.text() == "9.29"


def test_b20_deal_ends_the_view_and_the_minutes_typed_become_no_amount():
    r = Rig()
    r.hold("K", 3000)
    r.press("5")
    r.press("DEAL")  # B13: the deal runs; the view ends, its minutes with it
    assert r.unit.entry == "" and r.text() == "0" and r.unit.deal_phase() == "running"
    r.press("K")  # as on any unit: a suffix with no digit is B2's refusal
    assert r.unit.error == "bad-entry" and r.unit.entry == ""
    r.press("+")
    assert r.unit.tally == 0  # no 5 K tallied (B14)


def test_b21_a_hand_over_a_held_minus_starts_no_bankruptcy():
    r = Rig()
    r.insert("R", 2)
    r.advance(1000)
    u, now = r.unit, r.clock.now
    u.key_down("-", now())  # a bankruptcy's key, held (B21) ...
    r.advance(1000)
    for k in ("DEAL", "C", "K"):  # ... and a hand on the keypad over it: no key an amount
        u.key_down(k, now())
    r.advance(3000)
    assert u.error == "too-many-keys"
    for k in ("-", "DEAL", "C", "K"):
        u.key_up(k, now())
    assert r.bal(2) == START and u.ledger.store.records() == []


def test_b20_refusals_change_nothing():
    r = Rig()
    r.hold("K", 3000)
    r.press("1234")
    assert r.unit.entry == "123" and r.unit.error == "bad-entry"
    r.press(".")
    assert r.unit.error == "bad-entry" and r.unit.entry == "123"
    r.press("-")
    assert r.unit.error == "bad-entry" and r.unit.game_clock is None
    r.press("C", "0+")
    assert r.unit.game_clock is None and r.text() == "--.--"


def test_b20_warnings_at_5_and_1_minute_then_end_until_a_key_which_starts_the_count():
    r = Rig()
    r.hold("K", 3000)
    r.press("7+", "K")
    r.take_tones()
    r.advance(2 * MIN - 1)
    assert r.take_tones() == []
    r.advance(1)
    assert r.take_tones() == ["clock-warning"] and r.text() == "5.00"
    r.advance(3000)
    assert r.text() == "0"  # 3 s of time left, then as it was
    r.advance(4 * MIN - 3000)
    assert r.take_tones() == ["clock-warning"] and r.text() == "1.00"
    r.advance(MIN)
    assert r.take_tones() == ["clock-end"] and r.shown() == ("End", False, False)
    r.insert("L", 2)
    r.advance(5000)
    assert r.text() == "End"  # cards leave it
    r.press("7")
    assert r.unit.entry == "" and r.unit.ledger.count[0] == 1
    assert r.shown() == ("15", False, True)  # the count, card 2 in it
    r.remove("L")
    assert r.text() == "Count"


def test_b20_a_clock_started_under_5_minutes_gives_only_the_last_warning():
    r = Rig()
    r.hold("K", 3000)
    r.press("4+", "K")
    r.take_tones()
    r.advance(4 * MIN)
    assert r.take_tones() == ["clock-warning", "clock-end"]


def test_b20_it_runs_switched_off_and_wakes_the_unit_for_a_warning_and_the_end():
    r = Rig()
    r.hold("K", 3000)
    r.press("8+", "K")
    r.advance(61000)
    assert not r.unit.power
    r.take_tones()
    r.advance(3 * MIN - 61000)
    assert r.unit.power and r.take_tones() == ["clock-warning"] and r.text() == "5.00"
    r.advance(MIN)
    assert not r.unit.power
    r.advance(3 * MIN)
    assert r.unit.power and r.take_tones() == ["clock-warning"] and r.text() == "1.00"
    r.advance(MIN)
    assert r.unit.power and r.take_tones() == ["clock-end"] and r.text() == "End"
    r.advance(61000)
    assert not r.unit.power
    r.press("1")  # the waking key is not input
    assert r.text() == "End"
    r.press("1")
    assert r.text() == "Count"


def test_b20_a_restart_goes_on_from_the_last_whole_minute_kept():
    r = Rig()
    r.hold("K", 3000)
    r.press("30+")
    r.advance(2 * MIN + 45000)  # 27:15 left at the cut; 28:00 was kept
    r2 = Rig(store=r.store)
    r2.press("K")
    assert r2.text() == "28.00"
    r2.advance(1000)
    assert r2.text() == "27.59"


def test_b20_a_stopped_clock_restarts_stopped_and_an_end_unseen_shows_again():
    r = Rig()
    r.hold("K", 3000)
    r.press("2+")
    r.advance(10000)
    r.press("-")
    r2 = Rig(store=r.store)
    r2.advance(10000)
    r2.press("K")
    assert r2.text() == "1.50"
    r2.press("+")
    r2.advance(2 * MIN)
    assert r2.text() == "End"
    r3 = Rig(store=r2.store)
    assert r3.text() == "End"
    r3.press("C")
    assert r3.text() == "Count"
    r4 = Rig(store=r3.store)
    assert r4.text() == "Count"


def test_b20_a_new_game_takes_the_clock_away():
    r = Rig()
    r.hold("K", 3000)
    r.press("30+")
    r.hold("C", 3000)
    assert r.unit.game_clock is None and r.unit.ledger.clock is None
    r.press("K")
    assert r.unit.error == "bad-entry" and r.text() == "0"  # no clock: a tap is refused
    r.hold("K", 3000)
    assert r.text() == "--.--"


# -- B21 a bankruptcy in one step ---------------------------------------------------------------

def test_b21_minus_held_3s_hands_the_whole_balance_to_the_creditor_beyond_20m():
    r = Rig()
    r.insert("L", 2)
    r.press("20M+", "20M+")
    r.remove("L")
    r.insert("R", 2)
    r.insert("L", 5)
    r.txns = []
    r.take_tones()
    r.unit.key_down("-", r.clock.now())
    r.advance(2999)
    assert r.bal(2) == 55000000 and r.txns == []
    r.advance(1)
    assert r.bal(2) == 0 and r.bal(5) == START + 55000000
    assert [t[1:5] for t in r.txns] == [("bankrupt", 2, 5, 55000000)]
    assert r.text() == "0" and r.take_tones() == ["money-out"]
    r.unit.key_up("-", r.clock.now())
    assert r.unit.error is None
    r.advance(1000)
    assert r.shown() == ("70", False, True) and r.take_tones() == ["money-in"]


def test_b20_b21_a_minus_held_through_the_clocks_end_moves_nothing_and_end_shows():
    r = Rig()
    r.hold("K", 3000)
    r.press("1+", "K")
    r.insert("R", 2)
    r.advance(MIN - 1500)
    r.txns = []
    r.take_tones()
    r.unit.key_down("-", r.clock.now())
    r.advance(3000)  # the end comes 1.5 s into the hold
    assert r.take_tones() == ["clock-end"] and r.txns == [] and r.bal(2) == START
    r.unit.key_up("-", r.clock.now())
    assert r.shown() == ("End", False, False) and r.unit.error is None
    r.press("1")  # the key after End starts the count, as ever
    assert r.unit.ledger.count[0] == 1 and r.bal(2) == START


def test_b20_b11_c_held_through_the_clocks_end_starts_no_new_game_and_end_shows():
    r = Rig()
    r.insert("R", 2)
    r.press("1M-")
    r.remove("R")
    r.hold("K", 3000)
    r.press("1+", "K")
    r.advance(MIN - 1500)
    r.take_tones()
    r.hold("C", 3000)  # the end comes 1.5 s into the hold
    assert r.take_tones() == ["click", "clock-end"]
    assert r.shown() == ("End", False, False) and r.bal(2) == START - 1000000
    assert r.store.kept() == []
    r.press("1")  # the key after End starts the count, as ever
    assert r.unit.ledger.count[0] == 1


def test_b20_b21_a_bankruptcy_held_through_a_warning_ends_its_time_left_and_shows_as_b6():
    r = Rig()
    r.hold("K", 3000)
    r.press("6+", "K")
    r.insert("R", 2)
    r.insert("L", 3)
    r.advance(MIN - 1500)
    r.take_tones()
    r.unit.key_down("-", r.clock.now())
    r.advance(1500)
    assert r.take_tones() == ["clock-warning"] and r.text() == "5.00"
    r.advance(1500)  # the hold's 3rd second, within the warning's 3
    assert r.bal(2) == 0 and r.text() == "0" and r.take_tones() == ["money-out"]
    r.unit.key_up("-", r.clock.now())
    r.advance(1000)
    assert r.text() == "30" and r.take_tones() == ["money-in"]


def test_b20_b21_a_bankruptcy_held_through_a_warning_that_moves_nothing_still_ends_its_time_left():
    # The hold's 3rd second ended the warning's display in the unit, but with an amount typed
    # (no bankruptcy) or a card with nothing (refused) nothing redrew: 5.00 stayed on the glass.
    for typed in (True, False):
        r = Rig()
        r.hold("K", 3000)
        r.press("6+", "K")
        r.insert("R", 2)
        if not typed:
            r.press("15M-")  # all card 2 had: its bankruptcy is refused (no-balance)
        r.advance(MIN - 2500)
        r.unit.key_down("-", r.clock.now())
        r.advance(1000)
        if typed:
            r.press("5")
        r.advance(1500)
        assert r.text() == "5.00", typed  # the 5-minute warning's time left
        r.advance(500)  # the hold's 3rd second, within the warning's 3
        if typed:  # no bankruptcy with an amount typed: the amount shows
            assert r.shown() == ("5", False, False)
        else:  # refused: the card's balance, nothing
            assert r.text() == "0" and r.unit.error == "no-balance"


def test_b20_b21_a_refused_bankruptcy_held_on_through_the_clock_misses_no_warning():
    # Its 3rd second changed nothing the virtual clock saw, which then let the rest of the
    # hold pass in one step: the clock went from 6 minutes to End with no warning.
    r = Rig()
    r.hold("K", 3000)
    r.press("6+", "K")
    r.insert("R", 3)
    r.hold("-", 3000)  # card 3 bankrupt to the bank: nothing left
    r.take_tones()
    r.hold("-", 400000)  # at its 3rd second refused (no-balance), then held on to the End
    assert r.take_tones() == ["error", "clock-warning", "clock-warning", "clock-end"]


def test_b21_with_no_card_in_l_the_bank_takes_it():
    r = Rig()
    r.insert("R", 4)
    r.hold("-", 3000)
    assert r.bal(4) == 0 and [t[1:5] for t in r.txns] == [("bankrupt", 4, 0, START)]


def test_b21_a_shorter_minus_is_refused_on_its_release():
    r = Rig()
    r.insert("R", 4)
    r.take_tones()
    r.unit.key_down("-", r.clock.now())
    r.advance(2000)
    assert r.unit.error is None and r.take_tones() == []
    r.unit.key_up("-", r.clock.now())
    assert r.unit.error == "no-amount" and r.take_tones() == ["error"]
    assert r.bal(4) == START and r.txns == []


def test_b21_c_reverses_it_while_the_cards_are_in():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 3)
    r.hold("-", 3000)
    r.press("C")
    assert r.bal(1) == START and r.bal(3) == START
    assert r.txns[-1][1] == "undo" and r.txns[-1][7] == r.txns[0][0]


def test_b21_an_empty_card_has_nothing_to_hand_over():
    r = Rig()
    r.insert("R", 1)
    r.hold("-", 3000)
    r.hold("-", 3000)
    assert r.unit.error == "no-balance" and len(r.txns) == 1


# -- B22 the Free Parking pot -------------------------------------------------------------------

def _pot_on(r):
    r.unit.maintenance = True
    r.press("M")
    r.unit.maintenance = False


def _into_pot(r, card, amount):
    """card pays amount into the pot (B22: the card alone in R, the amount, +)."""
    r.insert("R", card)
    r.press(amount + "+")
    r.remove("R")


def test_b22_maintenance_m_turns_the_pot_on_and_off():
    r = Rig()
    r.unit.maintenance = True
    r.press("M")
    assert r.shown() == ("Pot 1", False, False) and r.unit.ledger.pot_on
    r.advance(1000)
    r.press("M")
    assert r.shown() == ("Pot 0", False, False) and not r.unit.ledger.pot_on


def test_b22_a_payment_into_the_pot_and_the_whole_pot_collected_beyond_20m():
    r = Rig()
    _pot_on(r)
    for card in (1, 2):
        r.insert("R", card)
        r.press("12M+")
        assert r.bal(card) == START - 12000000
        r.remove("R")
    assert r.unit.ledger.bal[7] == 24000000
    r.take_tones()
    r.insert("L", 3)
    r.take_tones()
    r.press("+")
    assert r.bal(3) == START + 24000000 and r.unit.ledger.bal[7] == 0
    assert [t[1:5] for t in r.txns] == [("pot-in", 1, 7, 12000000), ("pot-in", 2, 7, 12000000),
                                        ("pot-out", 7, 3, 24000000)]
    assert r.take_tones() == ["money-in"] and r.shown() == ("39", False, True)


def test_b22_an_empty_pot_and_a_payment_beyond_the_balance_are_refused():
    r = Rig()
    _pot_on(r)
    r.insert("L", 3)
    r.press("+")
    assert r.unit.error == "pot-empty"
    r.remove("L")
    r.insert("R", 1)
    r.press("16M+")
    assert r.unit.error == "insufficient-funds" and r.unit.ledger.bal[7] == 0
    r.advance(1000)
    r.press("C", "25M+")
    assert r.unit.error == "above-maximum"


def test_b22_m_shows_pot_then_its_amount():
    r = Rig()
    _pot_on(r)
    _into_pot(r, 1, "150K")
    r.advance(1000)
    r.press("M")
    assert r.text() == "Pot"
    r.advance(1000)
    assert r.shown() == ("150", True, False)
    r.press("5")
    assert r.text() == "5"


def test_b22_money_in_the_pot_keeps_it_on_and_c_reverses_a_move():
    r = Rig()
    _pot_on(r)
    r.insert("R", 1)
    r.press("1M+", "C")
    assert r.bal(1) == START and r.unit.ledger.bal[7] == 0 and r.txns[-1][1] == "undo"
    r.press("1M+")
    r.unit.maintenance = True
    r.remove("R")
    r.press("M")
    assert r.unit.error == "pot-not-empty" and r.unit.ledger.pot_on


def test_b22_a_new_game_empties_the_pot_and_keeps_it_on():
    r = Rig()
    _pot_on(r)
    _into_pot(r, 1, "1M")
    r.hold("C", 3000)
    assert r.unit.ledger.bal[7] == 0 and r.unit.ledger.pot_on


def test_b22_the_pot_and_its_setting_are_kept_across_a_restart():
    r = Rig()
    _pot_on(r)
    r.insert("R", 1)
    r.press("2M+")
    r2 = Rig(store=r.store)
    assert r2.unit.ledger.pot_on and r2.unit.ledger.bal[7] == 2000000
    r2.insert("L", 6)
    r2.press("+")
    assert r2.bal(6) == START + 2000000


# -- with none of it on, B1-B18 as they were ----------------------------------------------------

def test_with_the_pot_off_its_sequences_are_refused_as_before():
    r = Rig()
    r.insert("R", 1)
    r.press("1M+")
    assert r.unit.error == "wrong-slot"
    r.remove("R")
    r.insert("L", 1)
    r.press("+")
    assert r.unit.error == "no-amount"
    r.remove("L")
    r.press("M")
    assert r.unit.error == "bad-entry"
    assert r.txns == [] and r.bal(1) == START


def test_stray_taps_of_plus_and_k_start_no_mode_and_the_keys_after_them_mean_what_they_did():
    # B1-B18 refuse + and K with no card and nothing typed; a tap of either is still only that
    # refusal, so the payment, the Go, the receipt and the tally after it are B1-B18's.
    r = Rig()
    r.press("+")
    assert r.unit.error == "no-amount" and r.text() == "0"
    r.insert("R", 2)
    r.press("5M-")  # B5
    r.remove("R")
    r.insert("L", 1)
    r.press("M")  # B9
    r.press("1M+")  # B4
    r.remove("L")
    assert (r.bal(1), r.bal(2)) == (START + 3000000, START - 5000000) and len(r.txns) == 3
    r.press("K")
    assert r.unit.error == "bad-entry" and r.text() == "0"
    r.press("50K+")  # B14: the tally
    assert r.unit.tally == 50000 and r.unit.game_clock is None
    assert r.unit.ledger.count is None and not r.unit.night_on


# -- on the flash store (B17) -------------------------------------------------------------------

def test_b19_b20_b22_are_kept_by_the_flash_store_through_its_checkpoints():
    fs = FaultFS()
    r = Rig(store=FileStore("/bank", fs=fs, journal_max=2))  # a checkpoint every 2 lines
    _pot_on(r)
    _into_pot(r, 1, "3M")
    r.hold("K", 3000)
    r.press("45+", "K")
    r.advance(MIN)  # the minute kept; the unit switched off
    r.press("C")  # the first key wakes it
    r.hold("+", 3000)
    _counted(r, 2, "6M+")
    for journal_max in (2, None):
        r2 = Rig(store=FileStore("/bank", fs=FaultFS(copy_files(fs.files)),
                                 journal_max=journal_max))
        led = r2.unit.ledger
        assert r2.unit.store_status == "ok"
        assert led.pot_on and led.bal[7] == 3000000 and r2.bal(1) == START - 3000000
        assert led.count == [1, None, 6000000, None, None, None, None]
        assert r2.text() == "Count"
        r2.press("C", "K")
        assert r2.text() == "44.00"
    headers = [bytes(b) for b in fs.files.values() if b"\"night\"" in bytes(b)]
    assert headers, "a checkpoint carries game night in its header"


def test_b22_b10_a_collection_reversed_sounds_money_going_out():
    r = Rig()
    _pot_on(r)
    _into_pot(r, 1, "1M")
    r.insert("L", 2)
    r.press("+")
    r.take_tones()
    r.press("C")
    assert r.bal(2) == START and r.unit.ledger.bal[7] == 1000000
    assert r.take_tones() == ["click", "money-out"]


def test_b17_a_game_night_setting_the_flash_refuses_is_refused_and_stays_as_it_was():
    # The count (B19), the clock (B20) and the pot (B22) are kept with the game: a write that
    # fails leaves each as it was, on the unit and after a restart, and says store-failed.
    r = Rig(store=FileStore("bank", FaultFS()))
    fs = r.unit.ledger.store.fs
    led = r.unit.ledger

    def refused(act, *args):
        fs.fail_at = fs.steps + 1
        act(*args)
        fs.fail_at = None
        assert r.unit.error == "store-failed"

    refused(r.hold, "+", 3000)
    assert led.count is None and r.text() == "0"
    r.unit.maintenance = True
    refused(r.press, "M")
    assert not led.pot_on
    r.unit.maintenance = False
    r.hold("K", 3000)
    r.press("90")
    refused(r.press, "+")
    assert led.clock is None and r.unit.game_clock is None
    assert r.unit.entry == "90"  # B2: the refused entry is kept
    r.advance(2000)
    assert r.text() == "90" and r.unit.game_clock is None
    after = Rig(store=FileStore("bank", fs)).unit.ledger
    assert (after.count, after.pot_on, after.clock) == (None, False, None)
    r.press("+")  # the flash takes writes again: the clock starts
    assert r.unit.error is None and r.text() == "90.00" and led.clock is not None
    r.press("C")
    r.hold("+", 3000)  # and the count
    assert led.count is not None and r.text() == "Count"
