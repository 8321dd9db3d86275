"""`make table-screenshots`: docs/table-phone.png, docs/table-standings.png,
docs/table-not-connected.png, docs/table-pick.png and docs/table-french.png (docs/table.md).

A headless simulator serves its table on 127.0.0.1 (a virtual clock, so each moment is the one
meant); a game among six named players is played over its protocol, as a banker's host tool
plays it, and the deal timer started; headless Chromium at a 390 x 844 phone's size (twice its
pixels) follows it as the players do: Bob's phone (his balance, his history, the deal timer),
Ann's standings, Chloé's in French, a phone before its player has chosen, and Bob's once the
server has gone (not connected).

    python tools/table_screenshots.py [DIR]
"""

import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "web")]

NAMES = ("Ann", "Bob", "Chlo\u00e9", "Dev", "Emma", "Farid")
GAME = (  # the banker at the unit, over its protocol
    "INSERT L 2", "KEY 2M+", "REMOVE L",  # Bob sells a property back to the bank
    "INSERT L 2", "KEY M", "REMOVE L",  # Bob passes Go
    "INSERT R 2", "INSERT L 1", "KEY 500K-", "REMOVE L", "REMOVE R",  # Bob pays Ann rent
    "INSERT R 3", "INSERT L 2", "KEY 1.5M-", "REMOVE L", "REMOVE R",  # Chloé pays Bob
    "INSERT R 2", "KEY 200K-", "REMOVE R",  # Bob pays the bank a tax
    "INSERT R 4", "INSERT L 6", "KEY 750K-", "REMOVE L", "REMOVE R",
    "INSERT L 5", "KEY 2M+", "REMOVE L",
    "INSERT R 2", "INSERT L 5", "KEY 300K-", "KEY C", "REMOVE L", "REMOVE R",  # a C: undone
    "INSERT R 1", "KEY 1.2M-", "REMOVE R",
    "KEY DEAL",  # B13: an auction's timer, running
)


def main(argv):
    from browserpage import start_chromium, stop_chromium

    from host_tools import Bank
    from tests.tablephones import simulator

    dest = argv[0] if argv else os.path.join(ROOT, "docs")
    os.makedirs(dest, exist_ok=True)
    state = tempfile.mkdtemp(prefix="bank-table-shots-")
    p, tcp, url = simulator("--state", state)
    phones = []

    def phone(lang="en"):
        drv = start_chromium(390, 844)
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        phones.append(drv)
        drv.get(url + "?lang=" + lang)
        drv.execute_async_script("const done = arguments[arguments.length - 1];"
                                 "table.ready.then(() => done(true));")
        end = time.monotonic() + 10
        while not drv.execute_script("return table.connected() && !!table.model() && "
                                     "table.model().unit === 'live';"):
            assert time.monotonic() < end, "the page did not follow the table"
            time.sleep(0.05)
        return drv

    def settle(drv, seconds=0.6):
        time.sleep(seconds)  # the stream's last change drawn (and the STATE poll's)
        return drv

    def shot(drv, name):
        # The deal timer's dot flashes: drawn lit, as the moment it is taken is anyone's.
        drv.execute_script("document.getAnimations().forEach((a) => { a.currentTime = 0; "
                           "a.pause(); });")
        drv.save_screenshot(os.path.join(dest, name))
        print("wrote", os.path.join(dest, name))

    try:
        with Bank.open("socket://" + tcp) as bank:
            for card, name in enumerate(NAMES, 1):
                bank.set_name(card, name)
            for line in GAME:
                bank.request(line)
        shot(settle(phone()), "table-pick.png")
        bob = phone()
        bob.execute_script("table.pick(2); table.show('history');")
        shot(settle(bob), "table-phone.png")
        ann = phone()
        ann.execute_script("table.pick(1); table.show('standings');")
        shot(settle(ann), "table-standings.png")
        chloe = phone("fr")
        chloe.execute_script("table.pick(3); table.show('history');")
        shot(settle(chloe), "table-french.png")
        p.stop()
        end = time.monotonic() + 5
        while bob.execute_script("return table.connected();"):
            assert time.monotonic() < end, "the page did not see the server go"
            time.sleep(0.05)
        shot(settle(bob, 0.3), "table-not-connected.png")
    finally:
        for drv in phones:
            stop_chromium(drv)
        p.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
