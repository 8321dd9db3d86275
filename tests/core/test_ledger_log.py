"""The log lives in the store (brain/ledger.py, store/): what LOG (docs/protocol.md, serial
protocol), BACKUP and a checkpoint carry is exactly what was committed (B6, B10, B17), a write
that failed never shows, and a slot that goes bad under a running unit costs neither the money
nor the history: the store holds its last records in RAM and never reads the slot back; the
store's format (store/slot.py) stays imported."""

import sys

from brain import ledger as L
from harness import Rig
from store import FileStore
from desktop.memfs import MemFS
from storerig import FaultFS


def _file_rig(journal_max=None, keep=None):
    """A unit on a file store in RAM, card 1 in the left slot: ready for `10K+`."""
    r = Rig(store=FileStore("bank", FaultFS(), journal_max=journal_max, keep=keep))
    r.unit.card_in("L", 1, r.clock.now())
    return r


def _played(journal_max=None):
    """_file_rig after one `10K+`: the rig, its ledger and its file system."""
    r = _file_rig(journal_max=journal_max)
    r.press("10K+")
    return r, r.unit.ledger, r.unit.ledger.store.fs


def _rebooted(fs):
    """The unit that boots on fs (a power cut, then power)."""
    return Rig(store=FileStore("bank", fs)).unit


def test_records_give_the_balances_each_move_left():
    for store in (FileStore("bank", MemFS()), FileStore("bank", FaultFS())):
        r = Rig(store=store)
        r.unit.card_in("L", 1, r.clock.now())
        r.unit.card_in("R", 2, r.clock.now())
        r.press("3M-")  # B6: 2 pays 1, both balances after in one record
        r.unit.card_out("L", r.clock.now())
        r.press("1M-")  # 2 pays the bank
        led = r.unit.ledger
        # What each commit announced, balances after included:
        assert r.txns == led.store.records()
        assert led.store.records(1) == [r.txns[-1]]
        assert led.store.records(0) == [] and led.store.records(-3) == []


def test_the_store_keeps_its_last_records_and_folds_older_ones_into_its_base():
    for store in (FileStore("bank", MemFS()), FileStore("bank", FaultFS(), journal_max=4)):
        store.keep = 10
        r = Rig(store=store)
        led = r.unit.ledger
        r.unit.card_in("L", 1, r.clock.now())
        for _ in range(25):
            r.press("10K+")
        assert led.store.records() == r.txns[-10:]
        base = led.store.log.base
        assert base[1] == led.profile.start + 15 * 10000  # the 15 folded away
        assert led.bal[1] == led.profile.start + 25 * 10000
        r2 = Rig(store=store)  # a reboot reads the same back
        assert r2.unit.ledger.store.records() == r.txns[-10:] and r2.unit.ledger.bal == led.bal


def test_a_write_that_failed_but_landed_is_not_in_the_log_and_the_next_checkpoint_drops_it():
    r, led, fs = _played(50)
    before = (led.seq, list(led.bal), led.store.records())
    fs.fail_at = fs.steps + 3  # open, write, then the flush fails: the line is on flash
    r.press("20K+")
    fs.fail_at = None
    assert r.unit.error == "store-failed"
    # B17: refused means nothing happened
    assert (led.seq, led.bal, led.store.records()) == before
    r.press("C", "30K+")  # B2 kept the refused entry. The store no longer trusts its slot's
    # end: this write is a fresh checkpoint
    assert [t[L.AMOUNT] for t in led.store.records()] == [10000, 30000]
    u = _rebooted(fs)
    assert u.store_status == "ok"
    assert u.ledger.store.records() == led.store.records() and u.ledger.bal == led.bal


def test_a_transaction_refused_after_it_landed_is_not_there_after_a_power_cut_b17():
    # The sync fails once the bytes are down: the banker sees the refusal, so no boot may
    # bring the money back, whether the write was a journal line or a whole checkpoint.
    for journal_max in (50, 1):
        r, led, fs = _played(journal_max)
        before = list(led.bal)
        fs.fail_done = 1
        r.press("20K+")
        assert r.unit.error == "store-failed" and led.bal == before
        u = _rebooted(fs)  # the power cut, right after the refusal
        assert u.store_status == "ok" and u.ledger.bal == before, journal_max
        assert u.ledger.store.records() == led.store.records()


def test_a_checkpoint_s_copy_over_the_old_slot_that_landed_and_failed_loses_no_later_move_b17():
    # A checkpoint the old slot cannot be told of is copied over it too; that copy's sync
    # failing once it was down left a newer generation there than the slot the next moves
    # went to, and a boot read the copy: the moves after it, acknowledged, were gone.
    r, led, fs = _played()
    fs.fail_at = fs.steps + 1  # refused at its open: the next write is a checkpoint
    r.press("20K+")
    fs.fail_at = None
    assert r.unit.error == "store-failed"
    fs.fail_done = 2  # the checkpoint lands; its copy over the old slot lands, then fails
    r.press("C", "30K+")
    assert r.unit.error is None
    r.press("40K+")  # acknowledged after the copy: a boot must find it
    assert r.unit.error is None
    u = _rebooted(fs)
    assert u.store_status == "ok" and u.ledger.bal == led.bal
    assert u.ledger.store.records() == led.store.records()


def test_a_new_game_refused_after_it_landed_leaves_the_game_in_play_after_a_power_cut_b11():
    r, led, fs = _played()
    before = (led.seq, list(led.bal))
    for n in (1, 2):  # the game put away (kept), then the new game: each lands, then fails
        fs.fail_done = n
        r.hold("C", 3000)  # B11
        assert r.unit.error == "store-failed" and (led.seq, led.bal) == before, n
        u = _rebooted(fs)
        assert (u.ledger.seq, u.ledger.bal) == before and u.ledger.store.kept() == [], n


def test_a_volume_refused_after_it_landed_is_not_there_after_a_power_cut_b12():
    r = Rig(store=FileStore("bank", FaultFS()))
    fs = r.unit.ledger.store.fs
    fs.fail_done = 1
    r.press(".")  # B12: the volume would go 2 -> 1
    assert r.unit.error == "store-failed" and r.unit.ledger.volume == 2
    assert _rebooted(fs).ledger.volume == 2


def test_a_volume_change_the_store_refuses_leaves_the_volume_as_it_was_b12():
    r = Rig(store=FileStore("bank", FaultFS()))
    fs = r.unit.ledger.store.fs
    fs.fail_at = fs.steps + 1  # the write of the new volume fails
    r.press(".")  # B12: no card, no entry: the volume would go 2 -> 1
    fs.fail_at = None
    assert r.unit.error == "store-failed" and r.unit.ledger.volume == 2
    assert _rebooted(fs).ledger.volume == 2  # nor after a reboot
    r.press(".")
    assert r.unit.error is None and r.unit.ledger.volume == 1
    assert _rebooted(fs).ledger.volume == 1


def test_a_slot_that_goes_bad_under_a_running_unit_costs_neither_money_nor_history():
    # B17: the checkpoint carries the log the store holds, not what the damaged slot would
    # read back.
    r = _file_rig(journal_max=3)
    led = r.unit.ledger
    store = led.store
    r.press("10K+")
    path = store.paths[store.cur]
    store.fs.files[path][20] ^= 0x01  # the header line of the slot in use goes bad
    assert led.store.records() == r.txns
    for _ in range(3):  # the third append fills the journal: a checkpoint from the balances
        r.press("10K+")
    assert led.bal[1] == led.profile.start + 4 * 10000
    assert led.store.records() == r.txns  # the checkpoint carried the whole log on
    r2 = Rig(store=FileStore("bank", store.fs))
    assert r2.unit.ledger.bal == led.bal and r2.unit.ledger.seq == led.seq
    assert r2.unit.ledger.store.records() == r.txns


def test_a_bad_line_mid_slot_is_not_carried_into_the_next_checkpoint():
    # B17: the store's records are what was committed, whatever the slot's lines turned into.
    r = _file_rig(journal_max=6)
    led = r.unit.ledger
    store = led.store
    for k in (1, 2, 3):
        r.press("%dK+" % (10 * k))
    data = store.fs.files[store.paths[store.cur]]
    lines = bytes(data).split(b"\n")
    at = sum(len(x) + 1 for x in lines[:-3]) + 20  # inside the second-to-last record's line
    data[at] ^= 0x01
    assert [t[L.AMOUNT] for t in led.store.records()] == [10000, 20000, 30000]
    assert led.bal[1] == led.profile.start + 60000  # the balances in RAM stand
    for _ in range(4):  # 3 more fill the journal (6 lines); the 4th is a checkpoint
        r.press("10K+")
    assert len(r.txns) == 7
    assert led.store.records() == r.txns
    r2 = Rig(store=FileStore("bank", store.fs))
    assert r2.unit.ledger.bal == led.bal and r2.unit.ledger.seq == led.seq
    assert r2.unit.ledger.bal[1] == led.profile.start + 100000
    assert r2.unit.ledger.store.records() == r.txns


def test_a_line_with_a_good_crc_but_no_record_in_it_is_not_read_as_one():
    # B17: a CRC proves a line is whole, not that it is ours; "r 2" would read as seq 2.
    from store import line

    r = _file_rig(journal_max=10)
    led = r.unit.ledger
    store = led.store
    r.press("10K+")
    f = store.fs.files[store.paths[store.cur]]
    at = len(f)
    r.press("20K+")
    assert led.bal[1] == led.profile.start + 30000
    f[at:at] = line("r 2")  # the odd line before the last: boot stops before both
    r2 = Rig(store=FileStore("bank", store.fs))
    assert r2.unit.store_status == "damaged"
    assert [t[0] for t in r2.unit.ledger.store.records()] == [1]
    assert r2.unit.ledger.bal[1] == led.profile.start + 10000  # the lines before the damage


def test_a_new_game_and_the_volume_read_back_after_a_reboot():
    store = FileStore("bank", MemFS())
    r = Rig(store=store)
    r.hold("C", 3000)  # B11: a new game
    assert r.games == 1
    r.press(".")  # B12: the volume
    assert r.unit.ledger.volume == 1
    r2 = Rig(store=store)  # a reboot reads the store again
    assert r2.unit.ledger.volume == 1


def test_the_store_keeps_its_code_once_imported_and_reads_the_same_log_again():
    # The slot format is a plain import, kept once loaded; reading the log does not change
    # what it reads.
    store = FileStore("bank", FaultFS(), journal_max=2)
    r = Rig(store=store)
    r.unit.card_in("L", 1, r.clock.now())
    led = r.unit.ledger
    gen = store.gen
    for _ in range(3):
        r.press("10K+")
    assert store.gen > gen  # a checkpoint was written
    code = sys.modules["store.slot"]
    first = led.store.records()
    assert len(first) == 3 and led.store.records() == first  # LOG twice: the same records
    assert led.store.records(2) == first[1:]
    gen = store.gen
    for _ in range(3):  # two appends fill the journal; the third is a checkpoint
        r.press("10K+")
    assert store.gen > gen  # another checkpoint, from the same code
    assert sys.modules["store.slot"] is code
    assert led.store.records()[:3] == first and len(led.store.records()) == 6
    r2 = Rig(store=FileStore("bank", store.fs))  # and it reads back
    assert r2.unit.ledger.store.records() == led.store.records()
    assert r2.unit.ledger.bal == led.bal
