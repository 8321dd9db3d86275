"""The log a ledger keeps in RAM (txlog.py) and the rare code it reaches through transient.py:
what LOG (SPEC, serial protocol) and a checkpoint read back is what was committed (B17), and a
unit in play keeps neither the boot's loader nor the new-game code imported (B11, B12)."""

import sys

import ledger as L
from harness import Rig
from store_extra import MemoryStore
from txlog import KINDS, Log


def test_a_record_comes_back_as_it_went_in():
    log = Log(4)
    recs = [
        (1, "receive", 0, 6, 20000000, 0, 35000000, 0, "key"),
        (2, "transfer", 6, 1, 999999999999, 0, 0, 0, "serial"),  # beyond 32 bits
        (4294967295, "undo", 1, 6, 5, 0, 0, 4294967294, "key"),  # B10: names the seq undone
    ] + [(10 + i, k, 3, 4, i, 0, 0, 0, "serial") for i, k in enumerate(KINDS)]
    for rec in recs:
        log = Log(1)
        assert log.append(rec) is None
        got = log.get(0)
        assert got[:5] == rec[:5] and got[7:] == rec[7:], (got, rec)
        assert got[5] is None and got[6] is None  # worked out by Ledger.records


def test_a_full_ring_hands_back_its_oldest_record():
    log = Log(3)
    for seq in range(1, 4):
        assert log.append((seq, "pay", 2, 0, seq * 1000, 0, 0, 0, "key")) is None
    gone = log.append((4, "go", 0, 5, 2000000, 0, 0, 0, "key"))
    assert gone[0] == 1 and gone[L.AMOUNT] == 1000 and len(log) == 3
    assert [log.get(i)[0] for i in range(3)] == [2, 3, 4]


def test_records_give_the_balances_each_move_left():
    r = Rig()
    r.unit.card_in("L", 1, r.clock.now())
    r.unit.card_in("R", 2, r.clock.now())
    r.press("3M-")  # B6: 2 pays 1, both balances after in one record
    r.unit.card_out("L", r.clock.now())
    r.press("1M-")  # 2 pays the bank
    led = r.unit.ledger
    assert r.txns == led.records()  # what each commit announced, balances after included
    assert led.records(1) == [r.txns[-1]]
    assert led.records(0) == []


def test_the_ring_folds_its_oldest_records_into_the_base():
    from store import FileStore
    from storerig import FaultFS

    r = Rig(store=FileStore("bank", FaultFS()))  # appends: no JSON of the whole game each time
    led = r.unit.ledger
    r.unit.card_in("L", 1, r.clock.now())
    for _ in range(led.log_max + 5):
        r.press("10K+")
    recs = led.records()
    assert len(recs) == led.log_max and recs[-1] == r.txns[-1]
    assert recs[0] == r.txns[5]
    assert led.base[1] == led.profile.start + 5 * 10000


def test_boot_and_rare_changes_leave_their_code_unimported():
    store = MemoryStore()
    r = Rig(store=store)
    assert "storeload" not in sys.modules  # read at boot, dropped
    r.hold("C", 3000)  # B11: a new game
    assert r.games == 1
    assert "games" not in sys.modules
    r.press(".")  # B12: the volume, through games.py too
    assert r.unit.volume == 1 and "games" not in sys.modules
    r2 = Rig(store=store)  # a reboot reads the store again: the loader comes back for it
    assert r2.unit.volume == 1 and "storeload" not in sys.modules


def test_a_checkpoint_leaves_its_code_unimported():
    from store import FileStore
    from storerig import FaultFS

    store = FileStore("bank", FaultFS(), journal_max=2)
    r = Rig(store=store)
    r.unit.card_in("L", 1, r.clock.now())
    gen = store.gen
    for _ in range(3):
        r.press("10K+")
    assert store.gen > gen  # a checkpoint was written
    assert "checkpoint" not in sys.modules and "storeload" not in sys.modules
    r2 = Rig(store=FileStore("bank", store.fs))  # and it reads back
    assert r2.unit.ledger.records() == r.unit.ledger.records()
