"""`make bench`'s row for the table view (docs/table.md): the time from a transaction to its last
phone's update, twenty phones following a headless simulator's table on 127.0.0.1.

The phones: three headless Chromium (each a browser of its own, the page as a player has it,
its update the moment its page has drawn the change: a MutationObserver on the standings, which
every change of money redraws) and seventeen plain streams read as a browser reads them (an
update: the stream's message carrying the transaction). Fifty transactions, a tenth of a second
apart, each a `KEY ... +` sent over the protocol's TCP port; the time from its sending to the
last of the twenty phones having it (wall clock, one machine), median and slowest.
"""

import os
import random
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_MEASURED = "not measured"
TRANSACTIONS = 50
BROWSERS = 3
PHONES = 20
BUDGET_MS = 500

WATCH = """
window.benchSeen = {};
new MutationObserver(() => {
  const log = table.model() && table.model().log;
  if (log && log.length) {
    const seq = log[log.length - 1].seq;
    if (!(seq in window.benchSeen)) window.benchSeen[seq] = Date.now();
  }
}).observe(document.getElementById('stand'), {childList: true});
"""


def _paths():
    for p in (REPO, os.path.join(REPO, "firmware"), os.path.join(REPO, "tests", "web")):
        if p not in sys.path:
            sys.path.insert(0, p)


class Stream(threading.Thread):
    """A phone's stream in a thread: {seq: wall-clock seconds it came}."""

    def __init__(self, url):
        from tests.tablephones import Phone

        threading.Thread.__init__(self, daemon=True)
        self.phone = Phone(url, timeout=30)
        self.phone.until(lambda v: v["unit"] == "live")
        self.seen = {}

    def run(self):
        try:
            while True:
                got = self.phone.next()
                if got is None:
                    return
                kind, data = got
                if kind == "update" and data.get("txn"):
                    self.seen.setdefault(data["txn"]["seq"], time.time())
        except OSError:
            return


def measure():
    """{'median_ms', 'max_ms', 'browsers'} or a string: why not."""
    _paths()
    import pytest

    import browserpage
    from host_tools import Bank
    from tests.tablephones import simulator

    p, tcp, url = simulator(clock=None)
    drvs = []
    streams = []
    try:
        if browserpage.CHROMIUM and browserpage.CHROMEDRIVER:
            for card in range(1, BROWSERS + 1):
                try:
                    drv = browserpage.start_chromium(390, 844)
                except pytest.skip.Exception:
                    break
                drvs.append(drv)
                drv.get(url)
                drv.execute_async_script("const done = arguments[arguments.length - 1];"
                                         "table.ready.then(() => done(true));")
                deadline = time.monotonic() + 10
                while not drv.execute_script("return table.connected() && !!table.model() &&"
                                             " table.model().unit === 'live';"):
                    if time.monotonic() > deadline:
                        return "a phone's page did not follow the table"
                    time.sleep(0.05)
                drv.execute_script("table.pick(%d); table.show('standings');" % card)
                drv.execute_script(WATCH)
        for _ in range(PHONES - len(drvs)):
            s = Stream(url)
            s.start()
            streams.append(s)
        rng = random.Random(1)
        sent = {}
        with Bank.open("socket://" + tcp) as bank:
            for _ in range(TRANSACTIONS):
                bank.request("INSERT L %d" % rng.randint(1, 6))
                bank.request("KEY 1 0 K")
                t = time.time()
                bank.request("KEY +")
                sent[bank.log(1)[-1]["seq"]] = t
                bank.request("REMOVE L")
                time.sleep(0.1)
        time.sleep(1.0)
        seen = [s.seen for s in streams]
        for drv in drvs:
            got = drv.execute_script("return window.benchSeen;")
            seen.append({int(k): v / 1000.0 for k, v in got.items()})
        took = []
        for seq, t in sent.items():
            last = [phone.get(seq) for phone in seen]
            if None in last:
                return "a phone never had #%d" % seq
            took.append((max(last) - t) * 1000)
        took.sort()
        return {"median_ms": took[len(took) // 2], "max_ms": took[-1], "browsers": len(drvs)}
    finally:
        for drv in drvs:
            browserpage.stop_chromium(drv)
        p.stop()
        for s in streams:
            s.phone.close()


def rows():
    """The bench table's row: (figure, value, budget, holds)."""
    try:
        got = measure()
    except Exception as e:  # noqa: BLE001 - the table goes on without this row
        got = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:60])
    figure = "table view: a transaction to its last phone's update (%d phones" % PHONES
    if isinstance(got, str):
        return [(figure + ")", "%s (%s)" % (NOT_MEASURED, got), "<= %d ms" % BUDGET_MS, "no")]
    figure += ", %d of them Chromium; median / slowest of %d)" % (got["browsers"], TRANSACTIONS)
    return [(figure, "%.0f ms / %.0f ms" % (got["median_ms"], got["max_ms"]),
             "<= %d ms" % BUDGET_MS, "yes" if got["max_ms"] <= BUDGET_MS else "no")]


if __name__ == "__main__":
    for r in rows():
        print(" | ".join(r))
