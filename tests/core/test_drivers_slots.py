"""The card slot driver with a card sliding in: contacts closing one by one, bouncing."""

import machine
from board.drivers.slots import CODES, Slot


def mirror(pattern, width=4):
    """The pattern a card face down shows the contacts: its code, mirrored."""
    out = 0
    for i in range(width):
        if pattern & (1 << i):
            out |= 1 << (width - 1 - i)
    return out


class Card:
    """A card's leading edge in a slot: tabs close contacts as it slides past them."""

    def __init__(self, pattern):
        self.pattern = pattern
        self.depth = 0  # how many of the 5 contact rows it has reached (5 = seated)


def make_slot(card):
    contacts = [machine.Pin("K%d" % i, machine.Pin.IN, machine.Pin.PULL_UP) for i in range(4)]
    seated = machine.Pin("SEAT", machine.Pin.IN, machine.Pin.PULL_UP)
    for i, pin in enumerate(contacts):
        pin.reader = _contact(card, i)
    seated.reader = lambda: 0 if card.depth >= 5 else 1
    return Slot(contacts, seated)


def _contact(card, i):
    # contact i closes (reads 0) once the card has slid past it, if the card has a tab there
    def read():
        return 0 if card.depth > i and card.pattern & (1 << i) else 1

    return read


def slide(slot, card, poll_ms=5, t=0, end=300):
    """Slide the card in over 20 ms, its contacts closing one by one, with a bounce."""
    events = []
    steps = [(0, 1), (4, 2), (6, 1), (8, 2), (11, 3), (15, 4), (18, 5), (20, 4), (22, 5)]
    while t <= end:
        for at, depth in steps:
            if at <= t:
                card.depth = depth
        ev = slot.poll(t)
        if ev is not None:
            events.append((t, ev))
        t += poll_ms
    return events


def card_pattern(number):
    for pattern, n in CODES.items():
        if n == number:
            return pattern
    raise KeyError(number)


def test_a_card_sliding_in_is_one_card_in_with_its_number():
    for number in range(1, 7):
        card = Card(card_pattern(number))
        slot = make_slot(card)
        events = slide(slot, card)
        assert [ev for _, ev in events] == [("in", number)], (number, events)
        t, _ = events[0]
        assert 22 + Slot.stable_ms <= t <= 22 + Slot.stable_ms + 10  # ~50 ms after it settled
        assert slot.card == number


def test_taking_it_out_is_one_card_out():
    card = Card(card_pattern(3))
    slot = make_slot(card)
    slide(slot, card)
    events = []
    for t in range(400, 600, 5):
        card.depth = 5 if t < 410 else (4 if t < 414 else 0)
        ev = slot.poll(t)
        if ev:
            events.append(ev)
    assert events == [("out", None)]
    assert slot.card is None


def test_a_card_the_wrong_way_round_reads_as_none():
    for number in range(1, 7):
        # face down: the tabs meet the contacts mirrored
        card = Card(mirror(card_pattern(number)))
        slot = make_slot(card)
        assert slide(slot, card) == [], number
        assert slot.card is None
    # back end first: the blank trailing edge closes every contact
    card = Card(0b1111)
    slot = make_slot(card)
    assert slide(slot, card) == []


def test_the_codes_are_six_cards_and_no_mirror_is_a_code():
    assert sorted(CODES.values()) == [1, 2, 3, 4, 5, 6]
    for pattern in CODES:
        assert mirror(pattern) not in CODES
        assert mirror(pattern) != pattern
    assert 0 not in CODES and 0b1111 not in CODES


def test_a_short_touch_is_not_a_card():
    card = Card(card_pattern(2))
    slot = make_slot(card)
    events = []
    for t in range(0, 300, 5):
        card.depth = 5 if 20 <= t < 60 else 0  # seated for only 40 ms
        ev = slot.poll(t)
        if ev:
            events.append(ev)
    assert events == []


def test_with_irqs_a_slot_is_polled_only_while_a_card_moves():
    # The loop polls a listening slot only after a contact's edge and while
    # its reading settles; the card still reads as one 'in' with its number.
    card = Card(card_pattern(5))
    slot = make_slot(card)
    slot.listen(machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    assert slot.due()  # never read yet
    assert slot.poll(0) is None and not slot.due()  # empty and settled: nothing to poll
    steps = [(100, 1), (104, 2), (106, 1), (108, 2), (111, 3), (115, 4), (118, 5), (120, 4),
             (122, 5)]
    polls = []
    events = []
    for t in range(0, 400):  # 1 ms of the world at a time; the slot polled when due, 5 ms apart
        for at, depth in steps:
            if at == t:
                card.depth = depth
                machine.sense()
        if t % 5 == 0 and slot.due():
            polls.append(t)
            ev = slot.poll(t)
            if ev is not None:
                events.append((t, ev))
    assert [ev for _, ev in events] == [("in", 5)], (events, polls)
    assert 122 + Slot.stable_ms <= events[0][0] <= 122 + Slot.stable_ms + 10
    assert polls[0] == 100 and polls[-1] == events[0][0]  # none before the card, none after
    assert not slot.due()
