"""firmware/desktop/words.py: every refusal the firmware can produce, said in a sentence (
"the window must say it in a sentence a player understands"). Each case is made by the real
firmware through the protocol, and the sentence is worked out only from what a front end sees:
STATE's error, the entry, the slots, the balances."""

import json
import os
import re

import simulator  # noqa: F401  (firmware/ on sys.path)
from desktop import words as explain
from simulator import options
from simulator.host import Host

FIRMWARE = os.path.join(os.path.dirname(simulator.__file__), "..", "firmware")


def unit(*lines, profile=None):
    """Run protocol lines on a fresh simulated unit; (state, balances) after the last."""
    argv = ["--virtual-clock", "--seed", "1"] + (["--profile", profile] if profile else [])
    host = Host(options.parse(argv))
    reply = None
    for line in lines:
        reply = host.protocol.handle(line)[-1]
    state = json.loads(host.protocol.handle("STATE")[-1][3:])
    bal = json.loads(host.protocol.handle("BALANCES")[-1][3:])
    return reply, state, {int(k): v for k, v in bal.items()}


def said(*lines, key=None, names=None, profile=None):
    reply, state, bal = unit(*lines, profile=profile)
    code = state["error"]
    if code is None and reply.startswith("ERR "):
        code = reply.split()[1]  # a card movement's refusal is its reply, not STATE's
    assert code is not None, (lines, reply, state)
    return code, explain.explain(code, state["entry"], state["slots"], bal, state.get(
        "profile", profile), key=key, names=names)


def test_a_payment_larger_than_the_balance():  # B8
    code, text = said("INSERT R 3", "INSERT L 1", "KEY 5 0 0 K -", "KEY 2 0 M -", key="-")
    assert code == "insufficient-funds"
    assert text == "card 3 cannot pay 20 M: it has 14.5 M"  # the payer, the amount, its balance
    _, text = said("INSERT R 3", "KEY 5 . 5 M -", "KEY 1 0 M -", key="-", names={3: "Ann"})
    assert text == "Ann (card 3) cannot pay 10 M: it has 9.5 M"


def test_go_twice():  # B9
    code, text = said("INSERT L 2", "KEY M", "KEY M", key="M")
    assert code == "go-taken"
    assert text.startswith("card 2 has had its Go salary (2 M) on this insertion: take the card "
                           "out and put it back")


def test_keys_that_do_not_fit_the_slots():  # B7
    code, text = said("INSERT R 4", "KEY 1 0 K +", key="+")
    assert code == "wrong-slot"
    assert text == "+ (receive) needs the card in the left slot L; card 4 is in R"
    _, text = said("INSERT L 4", "KEY 1 0 K -", key="-")
    assert text == "\u2212 (pay) needs the paying card in the right slot R; card 4 is in L"
    _, text = said("INSERT L 1", "INSERT R 2", "KEY 1 0 K +", key="+")
    assert text.startswith("with two cards in, press \u2212 to pay from R (card 2) to L (card 1)")
    _, text = said("INSERT R 2", "KEY M", key="M")
    assert text.startswith("Go (M) needs one card alone in the left slot L")


def test_entries_out_of_range():  # B2
    code, text = said("INSERT L 1", "KEY 5 K +", key="+")
    assert code == "below-minimum"
    assert text == "5 K is below the smallest amount at one time, 10 k"
    code, text = said("INSERT L 1", "KEY 2 5 M +", key="+")
    assert code == "above-maximum"
    assert text == "25 M is above the largest amount at one time, 20 M: split it in two"
    code, text = said("INSERT L 1", "KEY 1 2 . 5 K +", key="+")
    assert code == "too-fine" and text.startswith("12.5 K is finer than the unit counts")
    code, text = said("INSERT L 1", "KEY 1 5 0 +", key="+")
    assert code == "no-suffix" and text.startswith("end the amount with K (thousands) or M")
    code, text = said("INSERT L 1", "KEY +", key="+")
    assert code == "no-amount" and text.startswith("type an amount first")


def test_keys_the_entry_cannot_take():  # B2
    code, text = said("KEY 1 2 3 4 5 6", key="6")
    assert code == "bad-entry" and text == "an amount has at most 5 digits"
    _, text = said("INSERT L 1", "KEY . 1 2 3 4 5", key="5")  # the point took one of 5 cells
    assert text == "after a point typed first, at most 4 digits: the point takes a cell of its own"
    _, text = said("KEY 1 . 2 .", key=".")
    assert text == "an amount has one decimal point at most"
    _, text = said("KEY 1 0 K 5", key="5")
    assert text.startswith("10 K is finished: nothing can follow K or M")
    _, text = said("KEY M", key="M")
    assert text.startswith("M alone is Go, and needs a card in the left slot L")


def test_a_refused_key_read_from_state_alone_is_not_called_a_sixth_digit():  # B2
    # bank status reads STATE, which has the refusal's code and the entry, not the key.
    _, text = said("KEY K")
    assert text == "type the digits first, then K or M"
    _, text = said("KEY 1 . 2 .")
    assert text == ("1.2 cannot take that key: an amount has at most 5 digits and one point, "
                    "then K or M")
    _, text = said("KEY 1 2 3 4 5 6")
    assert text.startswith("12345 cannot take that key")


def test_card_movements():  # B3
    code, text = said("INSERT L 3", "INSERT L 4", key="L")
    assert (code, text) == ("slot-occupied",
                            "slot L holds card 3 already: take it out first")
    code, text = said("INSERT L 3", "INSERT R 3", key="R")
    assert code == "card-in-use" and text.startswith("card 3 is in the other slot already")
    code, text = said("REMOVE R", key="R")
    assert (code, text) == ("slot-empty", "slot R has no card to take out")


def test_the_display_codes():  # B8, B17
    assert explain.on_display("Err1") == "insufficient-funds"
    assert explain.explain(explain.on_display("Err5")).startswith(
        "Err5: the unit's memory was damaged; it is using the last good copy")
    assert explain.explain(explain.on_display("Err6")).startswith(
        "Err6: no good copy of the game was found. Hold C for 3 seconds")
    assert explain.on_display("15") is None


def test_every_code_the_firmware_produces_has_its_own_sentence():
    found = set()
    for d, _, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(d, name)) as f:
                    src = f.read()
                found.update(re.findall(
                    r'(?:_refuse\(|return |error = |return None, )"([a-z]+-[a-z-]+)"', src))
    assert len(found) >= 15
    assert found <= set(explain.CODES), found - set(explain.CODES)
    for code in explain.CODES:
        text = explain.explain(code)
        assert code not in text and not text.startswith("the unit refused that"), code
