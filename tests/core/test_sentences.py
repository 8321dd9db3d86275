"""desktop/words.py under both interpreters (the page's MicroPython runs it): every sentence
formats in both languages, every refusal the firmware can give is said in each, and the same
state gives byte-identical words under CPython and the unix port (mprun.py runs this file)."""

import time

from brain import money
from desktop import words

FILL = {"n": 3, "name": "Zo\u00eb", "seq": 7, "card": "card 3", "amount": "2 M", "has": "1 M",
        "go": "2 M", "right": "card 2", "left": "card 1", "entry": "25 M", "a": "150",
        "b": "2", "step": "1 k", "least": "10 k", "most": "20 M", "slot": "L", "code": "x",
        "s": "1.5", "src": "card 1", "dst": "card 3", "key": "5", "why": "no", "game": 4,
        "id": 4, "profile": "world", "mode": "tcp", "address": "127.0.0.1:1", "volume": 2,
        "tone": "-", "deal": "idle", "w": 38, "h": 17, "cw": 30, "ch": 10,
        "when": "15 Dec 13:00", "image": "bank-unit.uf2", "kind": "frozen", "t": "1.5",
        "pace": "as fast as real time", "x": "4.1", "names": "world, classic, francs",
        "seed": "abc", "what": "the pot on",
        "who": "the bank", "time": "14:05:12", "url": "http://127.0.0.1:8001/s/",
        "rows": "1. Ann 42 M", "text": "15 M",
        "option": "pot", "value": "maybe", "allowed": "on, off"}


def test_every_sentence_formats_in_both_languages():
    for lang in words.LANGS:
        for sid in words.TEXTS[lang]:
            text = words.say(sid, lang, **FILL)
            assert text and "{" not in text, (lang, sid)


def test_every_refusal_in_each_language():
    slots = {"L": 1, "R": 3}
    for lang in words.LANGS:
        for code in words.CODES:
            for key in (None, "+", "-", "M", ".", "L", "R", "C"):
                text = words.explain(code, "25M", slots, {1: 100, 3: 14500000}, "world", key,
                                     {1: "Ann"}, lang)
                assert text and "{" not in text, (lang, code, key)


def test_the_same_words_on_every_interpreter():
    # Spelled out: a sentence the page (MicroPython) and the window (CPython) say alike.
    assert words.explain("insufficient-funds", "20M", {"L": 1, "R": 3}, {3: 14500000},
                         "world", "-", {3: "Zo\u00eb"}, "fr") == \
        "Zo\u00eb (carte 3) ne peut pas payer 20 M : elle n'a que 14.5 M"
    assert words.txn_line((7, "transfer", 3, 1, 250000, 0, 0, 0, "key"), "world", {1: "Ann"},
                          "en") == "#7 transfer 3>Ann 250 k"
    assert words.amount(money.parse("1.5M", words._profile("world"), False)[0]) == "1.5 M"
    assert words.grouped(-1500000) == "-1,500,000"


class _Unit:
    """What holding() and under_unit() read of a unit."""

    def __init__(self, power=True, maintenance=False):
        self.power = power
        self.maintenance = maintenance
        self.hold_ms = 3000
        self.error = None
        self.held = None  # game night's key whose 3 s the unit counts
        self.ledger = _Ledger()

    def display(self):
        return "0", False, False


class _Ledger:
    def __init__(self):
        self.bal = [0] + [15000000] * 6
        self.profile = words._profile("world")


def test_the_holds_and_the_kept_games_alike_on_every_interpreter():
    # The window (CPython) and the page (MicroPython) count a hold down and list a kept game
    # with these: the same words on both (B11).
    on = _Unit()
    assert words.holding(on, "C", 1000, "en").startswith("holding C: a new game in 2.0 s")
    assert words.holding(on, "C", 3000, "en") == ""  # done: the new game says itself
    assert words.holding(on, "5", 1000, "en") == ""
    assert words.holding(_Unit(power=False), "C", 1000, "en") == ""
    assert words.holding(_Unit(maintenance=True), "DEAL", 1500, "fr").startswith(
        "DEAL maintenu : fin du mode maintenance dans 1,5 s")  # a French decimal comma
    assert words.holding(on, "+", 1000, "en") == ""  # + held is nothing but in game night's
    on.held = ("+", 0, "key")  # ... place: no card, nothing typed (B19)
    assert words.holding(on, "+", 1000, "en").startswith("holding +: the count in 2.0 s")
    on.held = ("-", 0, "key")
    assert words.holding(on, "-", 2500, "fr").startswith(
        "- maintenu : la carte en R fait faillite dans 0,5 s")
    on.held = None
    assert words.under_unit(on, "said", None, None, "hold", "note", "en") == "said"
    assert words.under_unit(on, "", None, None, "hold", "note", "en") == "hold"
    assert words.under_unit(on, "", None, None, "", "note", "en") == "note"
    game = {"id": 4, "profile": "world", "seq": 9, "transactions": 4,
            "balances": {"1": 17000000, "2": 14250000}}
    assert words.kept_game(game, {1: "Zo\u00eb"}, "fr") == (
        "partie 4 (world), 4 op\u00e9rations", ["Zo\u00eb 17 M", "2 14.25 M"])
    # By its number where the unit gives one, with when it was put away (mid-month at noon UTC:
    # the 15th in every time zone; the hour is the zone's), and a damaged one said so (B17).
    game.update({"number": 2, "kept": 1797336000})
    hour, minute = time.localtime(1797336000)[3:5]
    assert words.kept_game(game, None, "en")[0] == (
        "game 2 (world), 4 transactions, put away 15 Dec %02d:%02d" % (hour, minute))
    assert words.kept_game(game, None, "fr")[0] == (
        "partie 2 (world), 4 op\u00e9rations, rang\u00e9e le 15 d\u00e9c. %02d:%02d"
        % (hour, minute))
    assert words.kept_game({"id": 9, "number": 1, "damaged": True, "balances": None}, None,
                           "en") == ("game 1: damaged in the unit's memory",
                                     ["cannot be brought back"])


def test_err6_is_said_as_no_good_copy_not_as_the_last_good_copy_in_use():
    # B17: Err6's store is damaged too (STATE's error is store-damaged until a key), but no
    # copy is in use: the window, the terminal and the page say Err6's sentence, not Err5's.
    from harness import Rig

    st = Rig().store  # a game is stored, then both its slots are lost (the marker stays)
    for path in st.paths:
        st.fs.files.pop(path, None)
    u = Rig(store=st).unit
    assert (u.display()[0], u.error) == ("Err6", "store-damaged")
    for lang in words.LANGS:
        assert words.refused(u, lang=lang) == words.explain("no-game", lang=lang), lang


def test_the_french_is_the_rulebooks_and_french_typography_on_every_interpreter():
    from brain import tones

    for name in tones.TONES:  # every tone by a name of the language's
        assert words.tone_name(name, "en") == name
        assert words.tone_name(name, "fr") != name, name
    assert (words.tone_name("click", "fr"), words.tone_name("error", "fr")) == ("clic", "erreur")
    assert words.tone_name("3000 Hz", "fr") == "3000 Hz"  # the --pico window's, as it is
    fr = words.TEXTS["fr"]
    # the deal is the French rulebook's "ench\u00e8res", and the key keeps its name, DEAL
    assert [k for k, v in fr.items() if "distribution" in v] == []
    assert fr["win.deal-key"] == "DEAL  (ench\u00e8res)"
    assert "ench\u00e8res" in fr["deal.running"] and "ench\u00e8res" in fr["hold.deal.on"]
    # French groups digits with a narrow no-break space, and writes a decimal comma
    assert words.grouped(17000000, "fr") == "17\u202f000\u202f000"
    assert words.grouped(-1500, "fr") == "-1\u202f500"
    assert words.grouped(17000000, "en") == "17,000,000"
    assert (words.decimal(12.34, "fr"), words.decimal(12.34, "en")) == ("12,3", "12.3")
    # a restore in the log in plain words (no money moved: no "bank>bank 0")
    rec = (8, "restore", 0, 0, 0, 0, 0, 0, "key")
    assert words.txn_line(rec, "world", None, "en") == "#8 a previous game brought back"
    assert words.txn_line(rec, "world", None, "fr") == (
        "#8 une partie pr\u00e9c\u00e9dente reprise")
    # maintenance said to the banker, not to a developer
    for lang, banker in (("en", "the banker"), ("fr", "le banquier")):
        said = words.say("maintenance", lang)
        assert banker in said and "host" not in said and "h\u00f4te" not in said, said


def test_a_hosts_txn_event_is_said_as_the_window_says_it_and_a_hostile_one_not_at_all():
    undo = {"seq": 5, "kind": "undo", "from": 2, "to": 3, "amount": 2000000, "undoes": 4}
    assert words.txn_note(undo, "world", {3: "Ann"}, "en") == (
        "C reversed #4: 2 M back from card 2 to Ann (card 3)")
    # the pot with its article: "to the pot", "au pot", "du pot" (B22)
    for side, en, fr in (({"from": 4, "to": "pot"}, "back from card 4 to the pot",
                          "rendu de carte 4 au pot"),
                         ({"from": "pot", "to": 4}, "back from the pot to card 4",
                          "rendu du pot \u00e0 carte 4")):
        undo_pot = dict({"seq": 3, "kind": "undo", "amount": 500000, "undoes": 2}, **side)
        assert words.txn_note(undo_pot, "world", None, "en").endswith(en)
        assert words.txn_note(undo_pot, "world", None, "fr").endswith(fr)
    assert words.txn_note({"seq": 6, "kind": "pot-out", "from": "pot", "to": 1,
                           "amount": 1500}, "classic", None, "en") == (
        "card 1 collects the Free Parking pot: 1500")
    assert words.txn_note(dict(undo, kind="receive"), "world") is None  # the balance says it
    for bad in ({"from": [1]}, {"to": {}}, {"from": 9}, {"amount": True}, {"amount": -1},
                {"amount": 10 ** 30}, {"undoes": "4"}, {"undoes": None}, {"seq": None},
                {"kind": None}):
        assert words.txn_note(dict(undo, **bad), "world", {1: "Bo"}, "en") is None, bad
