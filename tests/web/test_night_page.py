"""Game night on the page (B19, B22): ?pot=on turns the Free Parking pot on where the profile
is chosen, and the line under the unit says the pot and the count by name, who wins, as the
window does; in a real Chromium, on the page's MicroPython."""

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
    _act(drv, ("key", "+"), ("in", "L", 3), ("key", "9"), ("key", "M"), ("key", "+"),
         ("out", "L"))
    said = drv.find_element("id", "said").text  # as shown: the page's spaces collapse
    assert said == ("Free Parking pot: 1 M \u00b7 count: 1. Ann (card 3) 24 M; Ann (card 3) "
                    "wins with 24 M"), said
    st = json.loads(page.send("STATE")[-1][3:])
    assert st["count"]["ranking"] == [3] and st["pot"] == 1000000
