"""B11: the games before are kept for the banker to bring back, at least the last three that
had transactions, so a second new game never pushes out a real one; GAMES lists them and
RESTORE GAME <id> brings one back (docs/protocol-extensions.md). On the store's files
(storerig.FaultFS, the firmware's FileStore) and through the protocol, as a host sees it."""

import json

from brain import games
from harness import Rig
from protocol import Protocol
from store import FileStore, line
from storerig import FaultFS, copy_files

START = 15000000  # world


def _rig(files=None, maintenance=True):
    fs = FaultFS(files)
    r = Rig(store=FileStore("/bank", fs=fs))
    r.unit.maintenance = maintenance
    r.fs = fs
    return r, Protocol(r.unit, r.clock)


def _reboot(r):
    return _rig(copy_files(r.fs.files), r.unit.maintenance)


def ok(lines):
    assert lines[-1].startswith("OK"), lines
    rest = lines[-1][3:]
    return json.loads(rest) if rest else None


def _pay(p, card, keys):
    """A payment (-, the card on the right) or a receipt (+, on the left: B3)."""
    slot = "L" if keys.endswith("+") else "R"
    ok(p.handle("INSERT %s %d" % (slot, card)))
    ok(p.handle("KEY " + keys))
    ok(p.handle("REMOVE " + slot))


def test_two_new_games_keep_the_real_game_and_it_comes_back():
    r, p = _rig()
    _pay(p, 1, "5M-")
    _pay(p, 2, "1M+")
    ok(p.handle("NEWGAME"))
    ok(p.handle("NEWGAME"))  # the first new game had no transactions: nothing is pushed out
    r.hold("C", 3000)  # nor by the keypad's
    kept = ok(p.handle("GAMES"))
    assert len(kept) == 1
    g = kept[0]
    assert (g["profile"], g["seq"], g["transactions"]) == ("world", 2, 2)
    assert g["balances"] == {"1": START - 5000000, "2": START + 1000000, "3": START,
                             "4": START, "5": START, "6": START}
    r, p = _reboot(r)  # kept on flash, not only in RAM
    assert ok(p.handle("GAMES")) == kept
    st = ok(p.handle("RESTORE GAME %d" % g["id"]))
    assert st["maintenance"] is True
    bal = ok(p.handle("BALANCES"))
    assert bal == g["balances"]
    last = ok(p.handle("LOG 1"))[0]
    assert (last["kind"], last["via"], last["seq"]) == ("restore", "serial", 3)
    assert ok(p.handle("GAMES")) == []  # it is in play again; the empty game is not kept
    r, p = _reboot(r)
    assert ok(p.handle("BALANCES")) == g["balances"]


def test_the_last_three_real_games_are_kept_newest_first():
    r, p = _rig()
    seen = []
    for i in range(5):
        _pay(p, 1 + i, "%dM-" % (i + 1))
        seen.append(r.unit.ledger.seq)
        ok(p.handle("NEWGAME"))
    kept = ok(p.handle("GAMES"))
    assert [g["seq"] for g in kept] == [seen[4], seen[3], seen[2]]
    assert [g["balances"][str(5 - k)] for k, g in enumerate(kept)] == [
        START - 5000000, START - 4000000, START - 3000000]
    # the oldest are gone from the flash too, not only from the list
    names = sorted(k for k in r.fs.files if k.startswith("/bank/game."))
    assert names == sorted("/bank/game.%d" % g["id"] for g in kept)


def test_restore_keeps_the_current_game_and_previous_is_the_newest():
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    _pay(p, 2, "2M-")
    ok(p.handle("NEWGAME"))
    _pay(p, 3, "3M-")
    kept = ok(p.handle("GAMES"))
    oldest = kept[-1]["id"]
    ok(p.handle("RESTORE GAME %d" % oldest))
    assert r.bal(1) == START - 1000000 and r.bal(3) == START
    kept = ok(p.handle("GAMES"))
    assert [g["balances"]["3"] for g in kept] == [START - 3000000, START]
    ok(p.handle("RESTORE PREVIOUS"))  # as before: the newest backup
    assert r.bal(3) == START - 3000000 and r.bal(1) == START
    assert ok(p.handle("GAMES"))[0]["balances"]["1"] == START - 1000000


def test_games_and_restore_refuse_bad_input_and_change_nothing():
    r, p = _rig(maintenance=False)
    _pay(p, 1, "1M-")
    r.hold("C", 3000)
    gid = ok(p.handle("GAMES"))[0]["id"]
    before = (list(r.unit.ledger.bal), r.unit.ledger.seq)
    for cmd, code in (("RESTORE GAME %d" % gid, "ERR maintenance-required"),
                      ("NEWGAME", "ERR maintenance-required"),
                      ("GAMES 1", "ERR bad-argument"), ("RESTORE GAME", "ERR bad-argument"),
                      ("RESTORE GAME x", "ERR bad-argument"), ("RESTORE", "ERR bad-argument")):
        assert p.handle(cmd)[-1].startswith(code), cmd
    r.unit.maintenance = True
    assert p.handle("RESTORE GAME %d" % (gid + 1))[-1].startswith("ERR no-backup")
    assert (list(r.unit.ledger.bal), r.unit.ledger.seq) == before


def test_set_balance_and_restore_send_txn_events_without_a_gap():
    r, p = _rig()
    ok(p.handle("EVENTS ON"))
    _pay(p, 1, "1M-")
    r.hold("C", 3000)
    gid = ok(p.handle("GAMES"))[0]["id"]
    out = p.handle("SET BALANCE 2 17000000")
    txns = [json.loads(x[6:]) for x in out if x.startswith("! txn ")]
    assert len(txns) == 1 and txns[0]["kind"] == "set" and txns[0]["balances"] == {"2": 17000000}
    out = p.handle("RESTORE GAME %d" % gid)
    txns += [json.loads(x[6:]) for x in out if x.startswith("! txn ")]
    assert txns[-1]["kind"] == "restore" and txns[-1]["via"] == "serial"
    assert [t["seq"] for t in txns] == [2, 3]


def _newest_header(files):
    """(path, header line's payload) of the newest slot the store wrote."""
    best = None
    for path in ("/bank/bank.a", "/bank/bank.b"):
        if path in files:
            payload = bytes(files[path]).split(b"\n")[0][9:].decode()
            gen = json.loads(payload[2:])["gen"]
            if best is None or gen > best[0]:
                best = (gen, path, payload)
    return best[1], best[2]


def test_the_store_header_is_version_1_and_names_the_kept_games_b11():
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    gid = ok(p.handle("GAMES"))[0]["id"]
    path, head = _newest_header(r.fs.files)
    # The fields in the order docs/storage.md gives them; the version first.
    assert head.startswith('H {"v": 1, "gen": '), head
    fields = [w.split('"')[1] for w in head[3:].split(", ") if w.startswith('"')]
    assert fields == ["v", "gen", "profile", "seq", "volume", "n", "base", "bal", "start",
                      "games"], fields
    assert head.endswith('"games": [%d]}' % gid), head
    r, p = _reboot(r)
    assert r.unit.store_status == "ok" and [g["id"] for g in ok(p.handle("GAMES"))] == [gid]
    # A header of another version is no slot this firmware reads: damage, never a guess (B17).
    files = copy_files(r.fs.files)
    files[path] = bytearray(line(head.replace('"v": 1', '"v": 2', 1)))
    r2, _ = _rig(files)
    assert r2.unit.store_status == "damaged"


def test_a_kept_game_that_does_not_read_is_reported_and_not_offered():
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    _pay(p, 2, "1M-")
    files = copy_files(r.fs.files)
    name = [k for k in files if k.startswith("/bank/game.")][0]
    files[name][20] ^= 4
    r2, p2 = _rig(files)
    assert r2.unit.store_status == "damaged"
    assert ok(p2.handle("GAMES")) == [] and r2.bal(2) == START - 1000000
    games.reset(r2.unit.ledger)  # the next checkpoint names it no more: ok again
    r3, _ = _reboot(r2)
    assert r3.unit.store_status == "ok"
