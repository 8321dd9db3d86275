"""The unit's rules B2-B16 and B18, through its events, on a virtual clock."""

from board.segments import cells
from harness import Rig

START = 15000000


def test_b3_card_number_then_balance():
    r = Rig()
    assert r.insert("L", 3) is None
    assert r.shown() == ("3", False, False)
    assert r.take_tones() == ["card"]
    r.advance(999)
    assert r.text() == "3"
    r.advance(1)
    assert r.shown() == ("15", False, True)


def test_b3_a_key_during_the_card_second_ends_it_and_counts():
    r = Rig()
    r.insert("L", 2)
    r.press("5")
    assert r.shown() == ("5", False, False)
    assert r.unit.entry == "5"


def test_b3_both_slots_show_the_payer():
    r = Rig()
    r.insert("R", 1)
    r.advance(1000).press("1M-")
    r.insert("L", 2)
    assert r.text() == "2"
    r.advance(1000)
    assert r.text() == "14"  # card 1, in R, paid the bank 1M


def test_b3_slot_errors_change_nothing():
    r = Rig()
    r.insert("L", 1)
    assert r.insert("L", 2) == "slot-occupied"
    assert r.insert("R", 1) == "card-in-use"
    assert r.remove("R") == "slot-empty"
    assert r.unit.slots == {"L": 1, "R": None}


def test_b3_the_unit_says_what_a_card_movement_would_refuse_and_nothing_moves():
    # A body that draws its slots (the simulator's) asks before a card moves.
    r = Rig()
    r.insert("L", 1)
    r.press("5")
    rev = r.unit.rev
    assert r.unit.card_refusal("L", 2) == "slot-occupied"
    assert r.unit.card_refusal("R", 1) == "card-in-use"
    assert r.unit.card_refusal("R") == "slot-empty"
    assert r.unit.card_refusal("X", 2) == r.unit.card_refusal("R", 7) == "bad-argument"
    assert r.unit.card_refusal("R", 2) is None and r.unit.card_refusal("L") is None
    assert r.insert("R", None) == "bad-argument"
    assert r.unit.slots == {"L": 1, "R": None} and r.unit.entry == "5" and r.unit.rev == rev


def test_b3_removing_a_card_discards_the_entry():
    r = Rig()
    r.insert("L", 1)
    r.press("150K")
    r.remove("L")
    assert r.unit.entry == ""


def test_b4_receive():
    r = Rig()
    r.insert("L", 4)
    r.take_tones()
    r.press("150K+")
    assert r.bal(4) == START + 150000
    assert r.shown() == ("15.15", False, True)
    assert r.take_tones()[-1] == "money-in"


def test_b5_pay_the_bank():
    r = Rig()
    r.insert("R", 5)
    r.take_tones()
    r.press("2.5M-")
    assert r.bal(5) == START - 2500000
    assert r.shown() == ("12.5", False, True)
    assert r.take_tones()[-1] == "money-out"


def test_b6_transfer_shows_payer_then_payee():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.advance(1000)
    assert r.text() == "15"
    r.take_tones()
    r.press("500K-")
    assert r.bal(1) == START - 500000 and r.bal(2) == START + 500000
    assert r.text() == "14.5"
    assert r.take_tones() == ["click", "click", "click", "click", "money-out"]
    r.advance(999)
    assert r.text() == "14.5"
    r.advance(1)
    assert r.text() == "15.5"
    assert r.take_tones() == ["money-in"]
    r.advance(30000)
    assert r.text() == "15.5"  # until the next input


def _paid_1m_card_1_to_2():
    """B6: card 1 in R has paid card 2 in L 1 M just now, the tones so far taken."""
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.advance(1000).press("1M-")
    r.take_tones()
    return r


def test_b6_a_key_in_the_payers_second_still_leaves_the_payees_turn_to_come():
    r = _paid_1m_card_1_to_2()
    r.advance(500).press("DEAL")  # an auction starts at once, as the banker's hand goes on
    r.advance(500)
    assert r.text() == "16" and "money-in" in r.take_tones()
    r.press("5")  # typing in the payee's turn: the entry shows, and is the payer's again
    assert r.text() == "5"
    r.press("C")
    assert r.text() == "14"


def test_b6_a_second_transfer_in_the_payers_second_moves_the_payees_turn_to_its_end():
    r = _paid_1m_card_1_to_2()
    r.advance(500).press("1M-")
    assert r.text() == "13" and r.take_tones()[-1] == "money-out"
    r.advance(999)
    assert r.text() == "13" and "money-in" not in r.take_tones()
    r.advance(1)
    assert r.text() == "17" and r.take_tones() == ["money-in"]


def test_b6_the_payees_card_taken_out_in_the_payers_second_has_no_turn():
    r = _paid_1m_card_1_to_2()
    r.advance(500).remove("L")
    r.advance(1000)
    assert r.text() == "14" and "money-in" not in r.take_tones()


def test_b6_a_card_put_in_in_the_payers_second_shows_as_b3_not_the_payee():
    r = _paid_1m_card_1_to_2()
    r.advance(300).remove("R")
    r.insert("R", 4)
    assert r.text() == "4"
    r.advance(1000)
    assert r.text() == "15"  # card 4's balance: with both cards in, the payer's (B3)
    r.advance(5000)
    assert r.text() == "15"


def test_b6_money_received_in_the_payers_second_ends_the_payees_turn_to_come():
    # The payer's card out, the payee's receipt sounded money-in; then the payee's turn came
    # and sounded money-in again, for no money.
    r = _paid_1m_card_1_to_2()
    r.advance(300).remove("R")
    r.press("1M+")  # card 2 in L receives (B4)
    assert r.text() == "17" and r.take_tones()[-1] == "money-in"
    r.advance(1000)
    assert r.text() == "17" and "money-in" not in r.take_tones()
    r = _paid_1m_card_1_to_2()
    r.advance(300).remove("R")
    r.press("M")  # B9: Go for card 2
    assert r.text() == "18" and r.take_tones()[-1] == "money-in"
    r.advance(1000)
    assert r.text() == "18" and "money-in" not in r.take_tones()


def test_b6_transfer_is_one_transaction():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.press("1M-")
    (rec,) = r.unit.ledger.store.records()
    assert rec[1] == "transfer" and rec[2] == 1 and rec[3] == 2 and rec[4] == 1000000


def test_b7_slot_and_key_must_agree():
    r = Rig()
    r.insert("R", 1)
    r.press("100K+")
    assert r.unit.error == "wrong-slot"
    assert r.unit.entry == "100K"  # left as typed, to be fixed with C
    r.remove("R")
    r.insert("L", 1)
    r.press("100K-")
    assert r.unit.error == "wrong-slot"
    r.insert("R", 2)
    r.press("+")
    assert r.unit.error == "wrong-slot"
    assert r.bal(1) == START and r.bal(2) == START
    assert r.take_tones()[-1] == "error"


def test_b8_no_overdraft():
    r = Rig()
    r.insert("R", 1)
    r.press("15M-")
    assert r.bal(1) == 0
    r.press("10K-")
    assert r.unit.error == "insufficient-funds"
    assert r.bal(1) == 0
    assert r.text() == "Err1"
    assert r.unit.entry == "10K"
    r.advance(1000)
    assert r.shown() == ("10", True, False)  # the entry again, as typed


def test_b8_transfer_refused_changes_neither():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.press("15M-", "C")  # pays 15M, and C clears... nothing typed: undoes it
    assert r.bal(1) == START
    r.press("15M-")
    r.press("20K-")
    assert r.unit.error == "insufficient-funds"
    assert r.bal(1) == 0 and r.bal(2) == 2 * START


def test_b2_refusals_while_typing():
    r = Rig()
    r.insert("L", 1)
    r.press("123456")
    assert r.unit.entry == "12345"
    assert r.unit.error == "bad-entry"
    r.press("C", "1.2.")
    assert r.unit.entry == "1.2"
    r.press("KM")
    assert r.unit.entry == "1.2K"
    r.press("3")
    assert r.unit.entry == "1.2K"
    assert r.shown() == ("1.2", True, False)  # as typed, the annunciator once K is pressed
    r.press("C", ".5M")
    assert r.shown() == (".5", False, True) and r.unit.entry == ".5M"


def test_b2_a_leading_point_takes_a_cell_so_four_digits_follow_it():
    # No digit's cell is left of a leading point: a blank one lights it, and the 5 cells hold
    # 4 digits more. A 5th would drop off the glass while the money counted it.
    r = Rig()
    r.insert("L", 1)
    r.advance(1000).take_tones()
    r.press(".1230")
    assert r.unit.entry == ".1230" and r.unit.error is None
    r.press("0")
    assert r.unit.entry == ".1230" and r.unit.error == "bad-entry"
    assert r.take_tones()[-1] == "error"
    assert r.shown() == (".1230", False, False) and len(cells(".1230")) == 5
    r.press("M+")
    assert r.bal(1) == START + 123000


def test_b2_refused_commits_keep_the_entry():
    r = Rig()
    r.insert("L", 1)
    r.press("150+")
    assert r.unit.error == "no-suffix" and r.unit.entry == "150"
    assert r.bal(1) == START
    r.press("C", "12.5K+")
    assert r.unit.error == "too-fine"
    r.press("C", "5K+")
    assert r.unit.error == "below-minimum"
    r.press("C", "21M+")
    assert r.unit.error == "above-maximum"
    assert r.bal(1) == START
    assert r.shown() == ("21", False, True)
    r.press("C", "20M+")
    assert r.bal(1) == START + 20000000


def test_b9_go_once_per_insertion():
    r = Rig()
    r.insert("L", 1)
    r.take_tones()
    r.press("M")
    assert r.bal(1) == START + 2000000
    assert r.take_tones() == ["money-in"]
    r.press("M")
    assert r.unit.error == "go-taken"
    assert r.bal(1) == START + 2000000
    r.remove("L")
    r.insert("L", 1)
    r.press("M")
    assert r.bal(1) == START + 4000000
    assert r.unit.ledger.store.records()[-1][1] == "go"


def test_b9_a_new_game_is_no_new_insertion_for_the_card_still_in():
    # B9 lists the two ways to a second Go: the card out and back, or the Go reversed.
    r = Rig()
    r.insert("L", 1)
    r.press("M")
    r.hold("C", 3000)  # B11: a new game, the card still in
    assert r.bal(1) == START
    r.press("M")
    assert r.unit.error == "go-taken" and r.bal(1) == START
    r.remove("L")
    r.insert("L", 1)
    r.press("M")
    assert r.bal(1) == START + 2000000


def test_b9_go_needs_one_card_in_l():
    r = Rig()
    r.insert("R", 1)
    r.press("M")
    assert r.unit.error == "wrong-slot" and r.bal(1) == START
    r.insert("L", 2)
    r.press("M")
    assert r.unit.error == "wrong-slot" and r.bal(2) == START


def test_b9_reversed_go_may_be_taken_again():
    r = Rig()
    r.insert("L", 1)
    r.press("M", "C")
    assert r.bal(1) == START
    r.press("M")
    assert r.bal(1) == START + 2000000


def test_b10_c_clears_the_entry_first():
    r = Rig()
    r.insert("L", 1)
    r.press("100K+", "50K", "C")
    assert r.unit.entry == ""
    assert r.bal(1) == START + 100000


def test_b10_a_key_rolled_over_c_comes_after_it_as_pressed():
    # A quick hand presses the next key before C is up: C acts at that key, not at its
    # release after it, which cleared the digit just typed or skipped the undo.
    r = Rig()
    r.insert("L", 1)
    r.press("M")  # Go
    u, now = r.unit, r.clock.now
    u.key_down("C", now())
    u.key_down("2", now())
    u.key_up("C", now())
    u.key_up("2", now())
    assert r.bal(1) == START and u.entry == "2"  # the Go undone, then the 2 typed
    r.press("50K")
    u.key_down("C", now())
    u.key_down("7", now())
    u.key_up("C", now())
    u.key_up("7", now())
    assert u.entry == "7" and u.error is None


PALM = ("7", "8", "9", "C", "DEAL", "4", "5", "6", "K", "-", "1", "2", "3", "M", "+", "0", ".")


def test_b2_a_hand_on_the_keypad_moves_no_money_and_is_refused_once():
    # Every key down at once, as the matrix's look reports them (row by row): typed one after
    # another they were 4 5 6 K - (a payment) and 1 2 3 M +.
    r = Rig()
    r.insert("R", 2)
    r.advance(1000)
    r.take_tones()
    u, now = r.unit, r.clock.now
    for k in PALM:
        u.key_down(k, now())
    r.advance(500)
    assert u.error == "too-many-keys" and r.take_tones() == ["click", "click", "error"]
    for k in PALM:
        u.key_up(k, now())
    r.advance(4000)  # C and DEAL were down past their 3 s: neither a new game nor maintenance
    assert r.bal(2) == START and u.ledger.store.records() == []
    assert u.deal_phase() == "idle" and not u.maintenance and u.entry == "78"
    assert r.take_tones() == []  # the releases took nothing either
    r.press("C", "1M-")  # the next keys are typed as ever
    assert r.bal(2) == START - 1000000 and u.error is None


def test_b2_three_keys_rolled_over_by_a_typing_hand_are_three_keys():
    r = Rig()
    u, now = r.unit, r.clock.now
    for k in "150":
        u.key_down(k, now())
        r.advance(70)
    for k in "150":
        u.key_up(k, now())
    assert u.entry == "150" and u.error is None


def test_b2_a_hand_on_a_sleeping_unit_wakes_it_and_moves_no_money():
    r = Rig()
    r.insert("L", 1)
    r.advance(61000)  # B16: off
    assert not r.unit.power
    u, now = r.unit, r.clock.now
    for k in ("7", "8", "M", "+"):  # the 7 wakes it; typed, 8 M + were a receive
        u.key_down(k, now())
    for k in ("7", "8", "M", "+"):
        u.key_up(k, now())
    r.advance(4000)
    assert u.power and r.bal(1) == START and u.ledger.store.records() == []


def test_b10_undo_one_level_logged():
    r = Rig()
    r.insert("L", 1)
    r.press("100K+", "C")
    assert r.bal(1) == START
    log = r.unit.ledger.store.records()
    assert log[-1][1] == "undo" and log[-1][7] == log[-2][0]
    r.press("C")  # one level only: nothing more happens
    assert r.bal(1) == START and len(log) == 2


def test_b10_undo_of_transfer_shows_payer():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.press("1M-")
    r.advance(1000)
    assert r.text() == "16"
    r.press("C")
    assert r.bal(1) == START and r.bal(2) == START
    assert r.text() == "15"


def test_b10_undo_shows_the_restored_card_even_with_another_card_in_r():
    # The receive on card 3 stays open while card 2 goes into R: the undo restores card 3's
    # balance, and that is what shows, not card 2's untouched one.
    r = Rig()
    r.insert("R", 2)
    r.advance(1000).press("1M-")
    r.remove("R")
    r.insert("L", 3)
    r.advance(1000).press("5M+")
    r.insert("R", 2)
    r.advance(1000)
    assert r.text() == "14"  # with both cards in, the payer's (B3)
    r.press("C")
    assert r.bal(3) == START and r.text() == "15"


def test_b10_undo_within_the_payers_second_shows_the_payer_and_nothing_after():
    r = Rig()
    r.insert("R", 1)
    r.insert("L", 2)
    r.advance(1000).press("1M-")
    r.advance(500).press("C")
    assert r.bal(1) == START and r.text() == "15"
    r.take_tones()
    r.advance(2000)
    assert r.text() == "15" and r.take_tones() == []  # no payee's turn: the money came back


def test_b10_closed_by_removal_and_next_transaction():
    r = Rig()
    r.insert("L", 1)
    r.press("100K+")
    r.remove("L")
    r.insert("L", 1)
    r.press("C")
    assert r.bal(1) == START + 100000
    r.press("100K+", "200K+", "C")
    assert r.bal(1) == START + 200000  # only the last one reversed
    r.press("C")
    assert r.bal(1) == START + 200000


def test_b10_closed_by_switch_off():
    r = Rig()
    r.insert("L", 1)
    r.press("100K+")
    r.advance(60000)
    assert not r.unit.power
    r.press("C")  # wakes
    r.press("C")
    assert r.bal(1) == START + 100000


def test_b16_the_waking_key_ends_the_refusal_from_before_the_switch_off():
    r = Rig()
    r.insert("L", 1)
    r.advance(1000).press("5K+")
    assert r.unit.error == "below-minimum"
    r.advance(60000)
    assert not r.unit.power and r.unit.error == "below-minimum"  # until a key or a card
    r.press("C")
    assert r.unit.power and r.unit.error is None and r.text() == "15"


def test_b10_c_with_nothing_does_nothing():
    r = Rig()
    r.insert("L", 1)
    r.advance(1000)
    r.take_tones()
    r.press("C")
    assert r.bal(1) == START and r.unit.error is None
    assert "error" not in r.take_tones()


def test_b11_new_game_after_3s_hold():
    r = Rig()
    r.insert("R", 1)
    r.press("5M-")
    seq = r.unit.ledger.seq
    r.remove("R")
    r.take_tones()
    r.hold("C", 2999)
    assert r.bal(1) == START - 5000000
    r.hold("C", 3000)
    assert r.bal(1) == START
    assert r.unit.ledger.store.records() == []
    assert "new-game" in r.take_tones()
    r.insert("R", 1)
    r.press("1M-")
    assert r.unit.ledger.store.records()[0][0] == seq + 1  # seq numbers continue
    st = r.unit.ledger.store
    assert st.game(st.games[0])["balances"][0] == START - 5000000  # the game before, kept


def test_b11_a_hosts_new_game_ends_the_session_as_the_keypads_does():
    # C held 3 s on the keypad, or unit.new_game (NEWGAME): the accounts back to the start, and
    # the session (entry, tally, undo, message) gone alike; the deal timer runs on.
    shown = []
    for host in (False, True):
        r = Rig()
        r.insert("L", 1)
        r.press("5K+", "2")
        r.press("DEAL")
        if host:
            assert r.unit.new_game(r.clock.now()) is None
        else:
            r.hold("C", 3000)
        u = r.unit
        assert r.games == 1 and r.bal(1) == START and r.take_tones()[-1] == "new-game"
        assert u.entry == "" and u.tally == 0 and u.error is None and u.deal_phase() == "running"
        n = len(r.txns)
        r.press("C")  # B10: the receipt before the new game is not the banker's to undo
        assert len(r.txns) == n and r.bal(1) == START
        shown.append((r.shown(), u.entry, u.tally, u.deal_phase()))
    assert shown[0] == shown[1]


def test_the_log_says_where_each_move_came_from():
    # via is an argument of each input, not a state: a host's key and the keypad's, one after
    # the other, each log as they came (the record's 9th field: "key" or "serial").
    r = Rig()
    u = r.unit
    r.insert("L", 1)
    for k in "10K+":
        u.key_down(k, r.clock.now(), "serial")
        u.key_up(k, r.clock.now(), "serial")
    r.press("C")  # the keypad's undo of the host's receipt (B10)
    r.press("M")  # the keypad's Go (B9)
    assert [(t[1], t[8]) for t in r.txns] == [("receive", "serial"), ("undo", "key"),
                                              ("go", "key")]
    assert u.ledger.store.records() == r.txns  # and the store keeps it so
    # Maintenance needs someone at the unit: DEAL held over serial is only a DEAL.
    u.key_down("DEAL", r.clock.now(), "serial")
    r.advance(3000)
    u.key_up("DEAL", r.clock.now(), "serial")
    assert not u.maintenance and u.deal_phase() == "running"
    r.hold("DEAL", 3000)
    assert u.maintenance and r.text() == "SErv"


def test_b11_shorter_hold_is_a_plain_c():
    r = Rig()
    r.insert("L", 1)
    r.press("100K+")
    r.hold("C", 2000)
    assert r.bal(1) == START  # the undo of B10, on release


def test_b12_volume_cycles_and_persists():
    r = Rig()
    assert r.unit.ledger.volume == 2
    r.press(".")
    assert r.unit.ledger.volume == 1 and r.text() == "1"
    r.advance(1000)
    assert r.text() == "0"
    r.press(".")
    assert r.unit.ledger.volume == 0
    r.take_tones()
    r.insert("L", 1)
    r.press("100K+")
    assert r.take_tones() == []  # B18: at volume 0 nothing sounds
    r.remove("L")
    r.press(".")
    assert r.unit.ledger.volume == 2
    r2 = Rig(store=r.store)
    assert r2.unit.ledger.volume == 2
    r.press(".")
    r3 = Rig(store=r.store)
    assert r3.unit.ledger.volume == 1


def test_b12_point_is_decimal_with_a_card_or_an_entry():
    r = Rig()
    r.press("1.")
    assert r.unit.entry == "1." and r.unit.ledger.volume == 2
    r.press("C")
    r.insert("L", 1)
    r.press(".")
    assert r.unit.entry == "." and r.unit.ledger.volume == 2


def test_b13_deal_timer_phases():
    r = Rig(seed=7)
    r.press("DEAL")
    u = r.unit
    assert u.deal_phase() == "running" and u.red() == "slow" and u.green() == "off"
    ms = 0
    while u.deal_phase() == "running":
        r.advance(100)
        ms += 100
    assert u.deal_phase() == "ending" and u.red() == "fast"
    assert "deal-warning" in r.take_tones()
    while u.deal_phase() == "ending":
        r.advance(100)
        ms += 100
    assert 13000 <= ms <= 50100
    assert u.deal_phase() == "done" and u.red() == "off" and u.green() == "slow"
    assert r.take_tones() == ["deal-end"]
    r.advance(5000)
    assert u.deal_phase() == "idle" and u.green() == "off"


def test_b13_deal_stopped_early_and_restarted():
    r = Rig()
    r.press("DEAL")
    r.advance(2000)
    r.press("DEAL")
    assert r.unit.deal_phase() == "done" and r.unit.green() == "slow"
    assert r.take_tones()[-1] == "deal-end"
    r.press("DEAL")
    assert r.unit.deal_phase() == "running"


def test_b13_cards_and_keys_work_during_a_deal():
    r = Rig()
    r.press("DEAL")
    r.insert("L", 1)
    r.press("1M+")
    assert r.bal(1) == START + 1000000 and r.unit.deal_phase() == "running"


def test_b13_durations_cover_13_to_50_seconds():
    lo = 10 ** 9
    hi = 0
    for seed in range(300):
        r = Rig(seed=seed)
        r.press("DEAL")
        d = r.unit.deal_timer.end - r.clock.now()
        lo = min(lo, d)
        hi = max(hi, d)
        assert 13000 <= d <= 50000
    assert lo < 14000 and hi > 49000


def test_b13_a_unit_with_no_seed_draws_its_deals_from_the_hardware():
    # As a Pico boots (startup.py): deal.py draws from os.urandom when it runs.
    seen = set()
    for _ in range(40):
        r = Rig(seed=None)
        r.press("DEAL")
        d = r.unit.deal_timer.end - r.clock.now()
        assert 13000 <= d <= 50000
        seen.add(d)
        r.clock.advance(r.unit, d)
        assert r.unit.deal_phase() == "done" and r.take_tones()[-1] == "deal-end"
    assert len(seen) > 30  # not one fixed duration


def test_b13_a_random_source_stuck_high_still_gives_a_deal():
    # A source that only ever gives the values a uniform draw rejects (a dead ring oscillator,
    # an emulator's constant) must not hang the DEAL key.
    from board import rng

    calls = []

    def stuck():
        calls.append(1)
        return 0xFFFFFFFF

    n = 50000 - 13000 + 1
    assert 0 <= rng._below(stuck, n) < n and len(calls) == 8
    draws = iter([0xFFFFFFFF, 0xFFFFFFFF, 7])  # a rejection or two: the next good draw counts
    assert rng._below(lambda: next(draws), n) == 7


def test_b14_tally():
    r = Rig()
    r.press("2M+", "500K+", "100K-")
    assert r.unit.tally == 2400000
    assert r.shown() == ("2.4", False, True)
    r.press("5M-")
    assert r.unit.tally == 0
    r.press("3K+")  # below the 10k entry minimum: fine in the tally
    assert r.unit.tally == 3000
    r.press("7K", "C")
    assert r.unit.tally == 3000
    r.press("C")
    assert r.unit.tally == 0
    assert sum(r.unit.ledger.bal) == 6 * START  # no account moved


def test_b14_card_clears_tally():
    r = Rig()
    r.press("2M+")
    r.insert("L", 1)
    assert r.unit.tally == 0
    r.remove("L")
    assert r.text() == "0"


def test_b15_classic_profile():
    r = Rig(profile="classic")
    assert r.bal(1) == 1500
    r.insert("L", 1)
    r.press("M")
    assert r.bal(1) == 1700
    r.remove("L")
    r.insert("R", 1)
    r.press("50-")
    assert r.bal(1) == 1650
    r.advance(1000)
    assert r.shown() == ("1650", False, False)


def test_b15_francs_profile():
    r = Rig(profile="francs")
    assert r.bal(2) == 150000
    r.insert("L", 2)
    r.press("M")
    assert r.bal(2) == 170000
    assert r.shown() == ("170", True, False)
    r.press("2.5K+")
    assert r.bal(2) == 172500


def test_b15_profile_change_starts_new_game():
    r = Rig()
    r.insert("L", 1)
    r.press("1M+")
    r2 = Rig(profile="classic", store=r.store)
    assert r2.unit.ledger.profile.name == "classic"
    assert r2.bal(1) == 1500
    r3 = Rig(store=r.store)  # no profile asked for: the stored one
    assert r3.unit.ledger.profile.name == "classic"


def test_b16_switch_off_after_60s():
    r = Rig()
    r.insert("L", 1)
    r.press("150K")
    r.advance(59999)
    assert r.unit.power
    r.advance(1)
    u = r.unit
    assert not u.power and u.display() == ("", False, False)
    assert u.entry == "" and u.red() == "off"
    assert u.slots["L"] == 1  # cards stay where they are


def test_b16_maintenance_granted_at_start_is_back_at_each_wake_until_the_keypad_leaves_it():
    # A headless simulator's --maintenance: no keypad there could enter it again.
    r = Rig(maintenance=True)
    r.advance(60000)
    assert not r.unit.power and not r.unit.maintenance
    r.press("5")
    assert r.unit.power and r.unit.maintenance
    r.hold("DEAL", 3000)
    assert not r.unit.maintenance and r.text() == "PLAY"
    r.advance(60000)
    r.press("5")
    assert r.unit.power and not r.unit.maintenance


def test_b16_maintenance_entered_at_the_keypad_ends_at_the_switch_off():
    r = Rig()
    r.hold("DEAL", 3000)
    assert r.unit.maintenance
    r.advance(60000)
    r.press("5")
    assert r.unit.power and not r.unit.maintenance


def test_b16_waking_key_is_not_input():
    r = Rig()
    r.insert("L", 1)
    r.advance(60000)
    r.press("5")
    assert r.unit.power and r.unit.entry == ""
    r.press("5")
    assert r.unit.entry == "5"


def test_b16_card_wakes_and_counts():
    r = Rig()
    r.advance(60000)
    assert not r.unit.power
    r.insert("R", 2)
    assert r.unit.power and r.text() == "2"


def test_b16_tally_dropped_and_deal_end_counts_as_activity():
    r = Rig(seed=3)
    r.press("1M+")
    r.press("DEAL")
    end = r.unit.deal_timer.end
    r.advance(50000)
    assert r.unit.power and r.unit.deal_phase() in ("done", "idle")
    # 60 s after the deal's end, not after the key
    from brain.clock import ticks_diff
    left = 60000 - ticks_diff(r.clock.now(), end)
    r.advance(left - 1)
    assert r.unit.power
    r.advance(1)
    assert not r.unit.power and r.unit.tally == 0


def test_b16_removal_does_not_wake():
    r = Rig()
    r.insert("L", 1)
    r.advance(60000)
    r.remove("L")
    assert not r.unit.power and r.unit.slots["L"] is None


def test_b16_a_removal_while_off_ends_the_last_refusal_as_any_card_movement():
    r = Rig()
    r.insert("R", 2)
    r.press("20M-")  # B8: more than card 2 holds
    assert r.unit.error == "insufficient-funds"
    r.advance(60000)
    assert not r.unit.power and r.unit.error == "insufficient-funds"
    r.remove("R")
    assert not r.unit.power and r.unit.error is None


def test_b18_tones_are_named_and_distinct():
    from brain import tones

    assert set(tones.TONES) == {"click", "card", "money-in", "money-out", "error", "new-game",
                                "deal-warning", "deal-end",  # B18's names, each with notes
                                "winner", "clock-warning", "clock-end"}  # B19's, B20's
    seen = set()
    for name in tones.TONES:
        notes = tones.TONES[name]
        assert notes not in seen
        seen.add(notes)
    r = Rig()
    r.insert("L", 1)
    r.press("1", "M", "M")
    heard = r.take_tones()
    assert heard == ["card", "click", "click", "error"]
