"""Game night on the page (B19, B22): ?pot=on turns the Free Parking pot on where the profile
is chosen, and the banker panel's switch as the unit allows it; the line under the unit says
the pot and the count by name, who wins, as the window does; in a real Chromium, on the page's
MicroPython."""

import json


def _act(drv, *steps):
    for step in steps:
        if step[0] == "key":
            drv.execute_script("bank.act('down', arguments[0]); bank.act('up', arguments[0]);",
                               step[1])
        else:
            drv.execute_script("bank.act(arguments[0], arguments[1], arguments[2]);", *step)


def test_b19_b22_the_pot_and_the_winner_under_the_unit(page):
    page.query += "&clock=virtual&seed=1&lang=en&pot=on"
    page.load()
    drv = page.drv
    state = page.send("STATE")
    assert '"pot": 0' in state[-1], state
    assert page.send("NAME 3 Ann")[-1].startswith("OK ")
    _act(drv, ("in", "R", 2), ("key", "1"), ("key", "M"), ("key", "+"), ("out", "R"))
    assert drv.find_element("id", "said").text == "Free Parking pot: 1 M"
    assert '"count": {"on": true' in page.send("HOLD + 3000")[-1]  # + held 3 s: the count
    _act(drv, ("in", "L", 3), ("key", "9"), ("key", "M"), ("key", "+"), ("out", "L"))
    said = drv.find_element("id", "said").text  # as shown: the page's spaces collapse
    assert said == ("Free Parking pot: 1 M \u00b7 count: 1. Ann (card 3) 24 M; Ann (card 3) "
                    "wins with 24 M"), said
    st = json.loads(page.send("STATE")[-1][3:])
    assert st["count"]["ranking"] == [3] and st["pot"] == 1000000


def _text(drv, element_id):
    return drv.find_element("id", element_id).text


def _hold_deal(page):
    drv = page.drv
    drv.execute_script("bank.act('down', 'DEAL');")
    page.send("ADVANCE 3000")
    drv.execute_script("bank.act('up', 'DEAL');")


def test_b22_the_panels_pot_switch_asks_the_unit_and_says_its_refusals(page):
    # The switch sends SET POT on the panel's own line: the unit decides (maintenance mode,
    # never off while the pot holds money), and a refusal is said beside it and under the unit.
    page.query += "&clock=virtual&seed=1&lang=en"
    page.load()
    drv = page.drv
    switch = drv.find_element("id", "pot")
    box = drv.find_element("css selector", ".pot-switch label")
    assert box.text == "Free Parking pot" and box.size["height"] >= 44
    assert not switch.is_selected()
    box.click()  # in play: refused
    needs = ("turning the Free Parking pot on or off needs maintenance mode: hold DEAL for 3 "
             "seconds on the unit, then try again")
    assert _text(drv, "pot-said") == needs and _text(drv, "said") == needs
    assert not switch.is_selected() and '"pot": null' in page.send("STATE")[-1]
    _hold_deal(page)  # maintenance mode, on the page's own keypad
    box.click()
    assert _text(drv, "pot-said").startswith("the Free Parking pot is on")
    assert switch.is_selected() and '"pot": 0' in page.send("STATE")[-1]
    _hold_deal(page)
    _act(drv, ("in", "R", 2), ("key", "1"), ("key", "M"), ("key", "+"), ("out", "R"))
    assert _text(drv, "pot-amount") == "1 M"
    _hold_deal(page)
    box.click()  # off with money in it: refused, with its amount
    assert _text(drv, "pot-said") == "the pot holds 1 M: collect it before turning the pot off"
    assert switch.is_selected() and '"pot": 1000000' in page.send("STATE")[-1]
    drv.find_element("id", "lang").send_keys("Fran\u00e7ais")  # kept for the next load...
    try:
        assert box.text == "pot du Parc gratuit"
        box.click()
        assert _text(drv, "pot-said") == ("le pot contient 1 M : ramassez-le avant de "
                                          "d\u00e9sactiver le pot")
        _hold_deal(page)
        _act(drv, ("in", "L", 3), ("key", "+"), ("out", "L"))  # the pot collected
        _hold_deal(page)
        box.click()
        assert _text(drv, "pot-said") == "le pot du Parc gratuit est d\u00e9sactiv\u00e9"
        assert not switch.is_selected() and _text(drv, "pot-amount") == ""
        assert '"pot": null' in page.send("STATE")[-1]
    finally:
        drv.find_element("id", "lang").send_keys("English")  # ... so English again
