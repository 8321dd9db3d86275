"""Game night in words (desktop/words.py, which the window, the terminal, the page and the host
tools say): the count by the players' names and who wins (B19), the game clock (B20), a
bankruptcy (B21) and the pot (B22), in English and French, on both interpreters."""

from desktop import words
from harness import Rig

START = 15000000


def _count(r, card, keys):
    r.insert("L", card)
    r.advance(1000)
    r.press(keys)
    r.remove("L")


def test_b19_the_count_names_the_winner_by_the_players_names():
    r = Rig()
    r.hold("+", 3000)
    assert words.what_now(r.unit, "en") == "count: put each remaining player's card in"
    _count(r, 3, "9M+")
    _count(r, 1, "2M+")
    names = {3: "Ann", 1: "Bob"}
    assert words.what_now(r.unit, "en", names) == (
        "count: 1. Ann (card 3) 24 M, 2. Bob (card 1) 17 M; Ann (card 3) wins with 24 M")
    assert words.what_now(r.unit, "fr", names) == (
        "d\u00e9compte : 1. Ann (carte 3) 24 M, 2. Bob (carte 1) 17 M; Ann (carte 3) gagne "
        "avec 24 M")
    _count(r, 5, "9M+")
    assert words.what_now(r.unit, "en", names).endswith(
        "; Ann (card 3) and card 5 share first place with 24 M")


def test_b20_b22_the_clock_and_the_pot_under_the_unit():
    r = Rig()
    r.unit.maintenance = True
    r.press("M")
    r.unit.maintenance = False
    r.hold("K", 3000)
    r.press("30+", "K")
    r.advance(90000)
    r.press("1")  # wakes it
    assert words.what_now(r.unit, "en") == (
        "Free Parking pot: 0  \u00b7  game clock: 29 min left")
    assert words.what_now(r.unit, "fr") == (
        "pot du Parc gratuit : 0  \u00b7  chrono de partie : 29 min restantes")


def test_b21_b22_a_bankruptcy_and_the_pot_collected_are_said():
    r = Rig()
    said = []
    r.unit.listeners.append(lambda kind, arg: said.append(words.note(
        kind, arg, r.unit.ledger.profile, {1: "Ann"}, "en")))
    r.insert("R", 2)
    r.insert("L", 1)
    r.hold("-", 3000)
    assert "card 2 is bankrupt: 15 M to Ann (card 1)" in said
    assert words.txn_line(r.txns[-1], "world", {1: "Ann"}, "en") == "#1 bankrupt 2>Ann 15 M"
    assert words.txn_line((4, "pot-in", 3, 7, 250000, 0, 0, 0, "key"), "world", None,
                          "fr") == "#4 au pot 3>pot 250 k"
    assert words.explain("pot-empty", lang="en") == (
        "the Free Parking pot is empty: nothing to collect")
    assert words.explain("no-balance", "", {"L": None, "R": 4}, lang="fr") == (
        "carte 4 n'a plus rien \u00e0 c\u00e9der")
