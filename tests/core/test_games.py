"""B11: the games before are kept for the banker to bring back, at least the last three that
had transactions, so a second new game never pushes out a real one; GAMES lists them and
RESTORE GAME <id> brings one back (docs/protocol-extensions.md). On the store's files
(storerig.FaultFS, the firmware's FileStore) and through the protocol, as a host sees it."""

import json

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


def test_a_kept_game_of_older_firmware_one_line_without_its_log_is_listed_and_comes_back():
    # Firmware before kept games had logs put a game away as one line, `G {...}`: flashed with
    # a newer image, the unit booted to Err5 and dropped such games once the banker saw it.
    r, p = _rig()
    _pay(p, 1, "5M-")
    ok(p.handle("NEWGAME"))
    gid = ok(p.handle("GAMES"))[0]["id"]
    bal = [START - 5000000] + [START] * 5
    r.fs.files["/bank/game.%d" % gid] = bytearray(line("G " + json.dumps(
        {"id": gid, "profile": "world", "seq": gid, "transactions": 1, "balances": bal})))
    r, p = _reboot(r)
    assert json.loads(p.handle("HELLO")[-1][3:])["store"] == "ok"
    g = ok(p.handle("GAMES"))[0]
    assert (g["id"], g["transactions"], g["balances"]["1"]) == (gid, 1, START - 5000000)
    ok(p.handle("RESTORE GAME %d" % gid))
    assert ok(p.handle("BALANCES")) == {str(i + 1): bal[i] for i in range(6)}
    r, p = _reboot(r)
    assert ok(p.handle("BALANCES"))["1"] == START - 5000000
    assert json.loads(p.handle("HELLO")[-1][3:])["store"] == "ok"


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
    # the oldest are gone from the flash too, not only from the list: each once no slot names
    # it, at the checkpoint after the one that left it out (until then the other slot does)
    names = sorted(k for k in r.fs.files if k.startswith("/bank/game."))
    assert names == sorted(["/bank/game.%d" % g["id"] for g in kept] + ["/bank/game.%d" % seen[1]])
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))  # the next checkpoint: seen[1]'s goes, seen[2]'s waits for the next
    names = sorted(k for k in r.fs.files if k.startswith("/bank/game."))
    kept = ok(p.handle("GAMES"))
    assert names == sorted(["/bank/game.%d" % g["id"] for g in kept] + ["/bank/game.%d" % seen[2]])


def test_a_game_brought_back_is_still_kept_when_the_newest_slot_is_lost_b17():
    r, p = _rig()
    _pay(p, 1, "5M-")
    ok(p.handle("NEWGAME"))
    g = ok(p.handle("GAMES"))[0]
    ok(p.handle("RESTORE GAME %d" % g["id"]))
    newest = r.unit.ledger.store.paths[r.unit.ledger.store.cur]
    files = copy_files(r.fs.files)
    files[newest] = files[newest][:12] + b"X" + files[newest][13:]  # its header: a flipped byte
    r, p = _rig(files)
    assert ok(p.handle("HELLO"))["store"] == "damaged"  # said: the other slot stands
    back = ok(p.handle("GAMES"))
    assert [(k["id"], k["damaged"]) for k in back] == [(g["id"], False)]  # its file is there
    ok(p.handle("RESTORE GAME %d" % g["id"]))
    assert ok(p.handle("BALANCES")) == g["balances"]


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
                      "games", "numbers", "game", "count"], fields
    # The kept game is game 1, the one in play game 2.
    assert head.endswith('"games": [%d], "numbers": [1], "game": 2, "count": 1}' % gid), head
    r, p = _reboot(r)
    assert r.unit.store_status == "ok" and [g["id"] for g in ok(p.handle("GAMES"))] == [gid]
    # A header of another version is no slot this firmware reads: damage, never a guess (B17).
    files = copy_files(r.fs.files)
    files[path] = bytearray(line(head.replace('"v": 1', '"v": 2', 1)))
    r2, _ = _rig(files)
    assert r2.unit.store_status == "damaged"


def test_a_header_whose_kept_games_do_not_read_is_damage_said_not_a_list_dropped_b17():
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    path, head = _newest_header(r.fs.files)
    files = copy_files(r.fs.files)
    # The line's CRC is good, so only the fields can tell: more ids than numbers.
    files[path][:len(line(head))] = line(head.replace('"numbers": [1]', '"numbers": []', 1))
    r2, p2 = _rig(files)
    assert r2.unit.store_status == "damaged"  # reported (B17), the game in play still read
    assert r2.unit.ledger.ready and ok(p2.handle("GAMES")) == []


def _flip(files):
    files["/bank/game.1"][20] ^= 4


def _damaged_kept_game(spoil=_flip):
    """A unit booting on a store whose one kept game (game 1, id 1) spoil damaged (by default,
    a flipped bit)."""
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    _pay(p, 2, "1M-")
    files = copy_files(r.fs.files)
    spoil(files)
    return _rig(files)


DAMAGED_1 = {"id": 1, "profile": None, "seq": 1, "transactions": None, "balances": None,
             "number": 1, "kept": None, "damaged": True}


def test_a_kept_game_that_does_not_read_is_listed_by_name_until_the_banker_has_seen_it():
    # B11, B17: reported, never silent; the game in play untouched
    r, p = _damaged_kept_game()
    assert r.unit.store_status == "damaged" and r.bal(2) == START - 1000000
    assert ok(p.handle("GAMES")) == [DAMAGED_1]
    assert p.handle("RESTORE GAME 1")[-1].startswith("ERR game-damaged game 1 ")
    assert p.handle("RESTORE PREVIOUS")[-1].startswith("ERR game-damaged")
    ok(p.handle("SET BALANCE 3 14000000"))  # a change no key made: the banker saw nothing
    r, p = _reboot(r)
    assert r.unit.store_status == "damaged" and r.bal(3) == 14000000
    assert ok(p.handle("GAMES")) == [DAMAGED_1]  # still named, still reported
    assert ok(p.handle("STATE"))["error"] == "store-damaged"
    r.press("C")  # the banker has seen it, at the unit (B17)
    assert ok(p.handle("STATE"))["error"] is None
    assert ok(p.handle("GAMES")) == []
    _pay(p, 4, "1M-")
    r, p = _reboot(r)
    assert r.unit.store_status == "ok" and "/bank/game.1" not in r.fs.files
    assert ok(p.handle("GAMES")) == [] and r.bal(4) == START - 1000000


def _header_of_99m(files):
    """game.1's header rewritten, its CRC good, with balances its log does not lead to."""
    lines = bytes(files["/bank/game.1"]).split(b"\n")
    head = json.loads(lines[0][11:])
    head["bal"] = [99000000] * 6
    lines[0] = line("H " + json.dumps(head, separators=(",", ":")))[:-1]
    files["/bank/game.1"] = bytearray(b"\n".join(lines))


def test_a_kept_game_whose_header_its_log_does_not_lead_to_is_refused_as_damaged():
    # B11, B17: boot checks a kept game by its lines' size and CRC; a header that reads, with
    # balances its log does not lead to, is found when the game is brought back: said as
    # game-damaged, listed damaged, and the game in play untouched
    r, p = _damaged_kept_game(_header_of_99m)
    assert r.unit.store_status == "ok"
    assert p.handle("RESTORE GAME 1")[-1].startswith("ERR game-damaged game 1 ")
    assert ok(p.handle("GAMES")) == [DAMAGED_1]
    assert ok(p.handle("STATE"))["error"] == "store-damaged"
    assert r.bal(2) == START - 1000000 and r.bal(1) == START
    assert ok(p.handle("HELLO"))["store"] == "damaged"


def test_a_hosts_key_does_not_drop_a_damaged_kept_game():
    # B17: damage is the banker's to see. KEY C, a C held and a new game over serial are no
    # key on the unit's keypad: the lost game stays listed and reported, its file stays (it
    # might still be read off the flash), across a restart, until the banker's key.
    r, p = _damaged_kept_game()
    st = ok(p.handle("KEY C"))
    assert (st["error"], st["display"]["text"]) == ("store-damaged", "Err5")
    ok(p.handle("HOLD C 500"))
    ok(p.handle("NEWGAME"))  # B11 over serial: the game in play is kept, the lost one too
    assert ok(p.handle("STATE"))["error"] == "store-damaged"
    assert DAMAGED_1 in ok(p.handle("GAMES"))
    _pay(p, 4, "1M-")
    r, p = _reboot(r)
    assert r.unit.store_status == "damaged" and "/bank/game.1" in r.fs.files
    assert DAMAGED_1 in ok(p.handle("GAMES"))
    r.press("C")  # the banker, at the unit
    assert DAMAGED_1 not in ok(p.handle("GAMES"))
    _pay(p, 4, "1M-")
    r, p = _reboot(r)
    assert r.unit.store_status == "ok" and "/bank/game.1" not in r.fs.files


def _forged_balances(files):
    """game.1's header says balances its log does not lead to, its lines' size and CRC kept:
    only a restore's fold finds it out, never boot's check."""
    raw = bytes(files["/bank/game.1"])
    head, rest = raw.split(b"\n", 1)
    doc = json.loads(head[11:])
    doc["bal"] = [99000000] * 6
    files["/bank/game.1"] = bytearray(line("H " + json.dumps(doc)) + rest)


def test_a_kept_game_whose_log_does_not_lead_to_its_balances_stays_reported_at_a_restart():
    # B17: found out by a restore, it is damage reported until the banker's key, whether the
    # next thing is a restart or a transaction and then a restart
    for then in ((), ("INSERT R 3", "KEY 1 M -", "REMOVE R")):
        r, p = _damaged_kept_game(_forged_balances)
        assert r.unit.store_status == "ok"
        assert p.handle("RESTORE GAME 1")[-1].startswith("ERR game-damaged")
        assert ok(p.handle("GAMES")) == [DAMAGED_1] and r.bal(2) == START - 1000000
        for cmd in then:
            ok(p.handle(cmd))
        r, p = _reboot(r)
        assert r.unit.store_status == "damaged", then
        assert ok(p.handle("STATE"))["error"] == "store-damaged"
        r.press("C")  # the banker has seen it, at the unit
        assert ok(p.handle("STATE"))["error"] is None
        r, p = _reboot(r)
        assert r.unit.store_status == "ok"
        assert p.handle("RESTORE GAME 1")[-1].startswith("ERR game-damaged")  # found out again


def test_a_damaged_kept_game_is_not_pushed_out_by_newer_games_until_the_banker_has_seen_it():
    # B11 keeps the last three; B17 keeps a lost game reported until the banker's key. Three
    # new games over serial put it past the third: it stays listed, its file with it, across
    # a restart; the banker's key then leaves the last three.
    r, p = _damaged_kept_game()
    for card in (3, 4, 5):
        ok(p.handle("NEWGAME"))
        _pay(p, card, "1M-")
    games = ok(p.handle("GAMES"))
    assert len(games) == 4 and games[-1] == DAMAGED_1
    r, p = _reboot(r)
    assert r.unit.store_status == "damaged" and "/bank/game.1" in r.fs.files
    assert ok(p.handle("GAMES"))[-1] == DAMAGED_1
    r.press("C")  # the banker, at the unit
    assert [g["number"] for g in ok(p.handle("GAMES"))] == [4, 3, 2]
    _pay(p, 6, "1M-")
    r, p = _reboot(r)
    assert r.unit.store_status == "ok" and "/bank/game.1" not in r.fs.files
    assert [g["number"] for g in ok(p.handle("GAMES"))] == [4, 3, 2]


def test_games_pushed_out_while_damage_is_unseen_do_not_come_back_at_a_restart():
    # B11 keeps the last three, numbered as they started; B17 keeps the damage reported across
    # restarts (no key on the unit here). A pushed-out game's file waits for the next
    # checkpoint, and the older slot still names it: a restart takes it for no lost game.
    r, p = _rig()
    _pay(p, 1, "1M-")
    files = copy_files(r.fs.files)
    files["/bank/bank.a"] += line("junk")  # a whole line that is no transaction: damage
    r, p = _rig(files)
    assert r.unit.store_status == "damaged"
    for card in (2, 3, 4, 5):
        ok(p.handle("NEWGAME"))
        _pay(p, card, "1M-")
    want = [(g["id"], g["number"]) for g in ok(p.handle("GAMES"))]
    assert [n for _, n in want] == [4, 3, 2]  # game 5 in play, game 1 pushed out
    for _ in range(2):
        r, p = _reboot(r)
        assert r.unit.store_status == "damaged"
        assert [(g["id"], g["number"]) for g in ok(p.handle("GAMES"))] == want
    ok(p.handle("NEWGAME"))
    assert [g["number"] for g in ok(p.handle("GAMES"))] == [5, 4, 3]


def test_a_newest_header_whose_games_do_not_read_keeps_every_kept_game_that_reads():
    # B17: the list of kept games in the header in use does not read, though its CRC does: the
    # files that read are kept, numbered on, whichever slot named them (none was pushed out)
    r, p = _rig()
    for card in (1, 2, 3):
        _pay(p, card, "1M-")
        ok(p.handle("NEWGAME"))
    _pay(p, 4, "1M-")
    kept = sorted(g["id"] for g in ok(p.handle("GAMES")))
    assert len(kept) == 3
    files = copy_files(r.fs.files)
    heads = {}
    for name in ("/bank/bank.a", "/bank/bank.b"):
        raw = bytes(files[name])
        head, rest = raw.split(b"\n", 1)
        heads[name] = (json.loads(head[11:]), rest)
    newest = max(heads, key=lambda n: heads[n][0]["gen"])
    doc, rest = heads[newest]
    doc["games"] = ["x"] * len(doc["games"])
    files[newest] = bytearray(line("H " + json.dumps(doc)) + rest)
    r, p = _rig(files)
    assert r.unit.store_status == "damaged"
    assert sorted(g["id"] for g in ok(p.handle("GAMES"))) == kept


def test_game_files_no_header_names_are_removed_at_boot():
    r, p = _rig()
    _pay(p, 1, "1M-")
    ok(p.handle("NEWGAME"))
    files = copy_files(r.fs.files)
    files["/bank/game.77"] = bytearray(files["/bank/game.1"])  # what a kill leaves behind
    files["/bank/game.78"] = bytearray(b"0badf00d G {")
    files["/bank/game.x"] = bytearray(b"not ours")
    r, p = _rig(files)
    assert r.unit.store_status == "ok"
    assert sorted(k for k in r.fs.files if "game." in k) == ["/bank/game.1", "/bank/game.x"]
    assert [g["id"] for g in ok(p.handle("GAMES"))] == [1]
    # A header that does not read may name any of them: nothing is removed
    files = copy_files(r.fs.files)
    files["/bank/game.79"] = bytearray(b"")
    files["/bank/bank.a"][3] ^= 1  # the older slot: the game in play still reads
    r, p = _rig(files)
    assert r.unit.store_status == "damaged" and "/bank/game.79" in r.fs.files
    assert r.bal(1) == START and [g["id"] for g in ok(p.handle("GAMES"))] == [1]


def _log(p):
    return ok(p.handle("LOG 300"))


def test_a_kept_game_comes_back_with_its_log():  # B11: each whole, its log as LOG reaches
    r, p = _rig()
    _pay(p, 1, "5M-")
    _pay(p, 2, "1M+")
    r.hold("C", 100)
    ok(p.handle("INSERT R 3"))
    ok(p.handle("INSERT L 4"))
    ok(p.handle("KEY 2 5 0 K -"))
    ok(p.handle("KEY C"))  # B10: the transfer undone
    ok(p.handle("REMOVE L"))
    ok(p.handle("REMOVE R"))
    before = _log(p)
    assert [t["kind"] for t in before] == ["pay", "receive", "transfer", "undo"]
    ok(p.handle("NEWGAME"))
    _pay(p, 5, "3M-")
    assert [t["kind"] for t in _log(p)] == ["pay"]
    gid = ok(p.handle("GAMES"))[0]["id"]
    ok(p.handle("RESTORE GAME %d" % gid))
    after = _log(p)
    assert after[:-1] == before and after[-1]["kind"] == "restore"
    r, p = _reboot(r)
    assert _log(p) == after and r.unit.store_status == "ok"
    # and the game it replaced went away with its own log, which comes back in its turn
    ok(p.handle("RESTORE PREVIOUS"))
    assert [t["kind"] for t in _log(p)] == ["pay", "restore"]
    assert r.bal(5) == START - 3000000


def test_a_restore_in_a_log_brought_back_carries_the_balances_it_had():  # B11
    # LOG works a restore's six balances out backwards from the ledger's; a game brought back
    # with its log, an earlier restore in it, still gives each restore what its `! txn` said.
    r, p = _rig()
    sent = []
    handle = p.handle

    def send(line):
        lines = handle(line)
        sent.extend(json.loads(e[6:]) for e in lines if e.startswith("! txn "))
        return lines

    p.handle = send
    ok(p.handle("EVENTS ON"))
    _pay(p, 1, "5M-")
    ok(p.handle("NEWGAME"))
    _pay(p, 5, "3M-")
    ok(p.handle("RESTORE PREVIOUS"))  # the game of card 1's payment, its log with it
    _pay(p, 2, "1M+")
    ok(p.handle("NEWGAME"))
    _pay(p, 6, "2M-")
    ok(p.handle("RESTORE PREVIOUS"))  # that game again: two restores in its log
    restores = [t for t in sent if t["kind"] == "restore"]
    assert len(restores) == 2
    assert restores[0]["balances"]["1"] == START - 5000000
    assert restores[0]["balances"]["2"] == START
    assert restores[1]["balances"]["2"] == START + 1000000
    log = _log(p)
    assert [t["kind"] for t in log] == ["pay", "restore", "receive", "restore"]
    assert [log[1], log[3]] == restores
    r, p = _reboot(r)
    assert _log(p) == log


def test_a_kept_game_brings_back_the_last_200_of_its_log():
    r, p = _rig()
    ok(p.handle("INSERT L 1"))
    for _ in range(230):
        ok(p.handle("KEY 1 0 K +"))
    ok(p.handle("REMOVE L"))
    before = _log(p)
    assert len(before) == 200 and before[-1]["seq"] == 230
    ok(p.handle("NEWGAME"))
    ok(p.handle("RESTORE PREVIOUS"))
    after = _log(p)
    assert len(after) == 200 and after[:-1] == before[1:] and after[-1]["kind"] == "restore"
    r, p = _reboot(r)  # the log adds up to the balances from its base: boot checks it
    assert r.unit.store_status == "ok" and _log(p) == after and r.bal(1) == START + 2300000


def test_kept_games_are_numbered_in_the_order_they_were_played():
    r, p = _rig()
    r.store.wall = lambda: 1796135625.5  # the simulator's clock: time.time()
    for card in (1, 2, 3):
        _pay(p, card, "1M-")
        ok(p.handle("NEWGAME"))
        ok(p.handle("NEWGAME"))  # a game with no transactions: not kept, its number reused
    kept = ok(p.handle("GAMES"))
    assert [(g["number"], g["id"]) for g in kept] == [(3, 3), (2, 2), (1, 1)]
    assert [g["kept"] for g in kept] == [1796135625] * 3
    ok(p.handle("RESTORE GAME 1"))  # game 1 comes back as game 1; game 4 (empty) is not kept
    _pay(p, 4, "1M-")
    ok(p.handle("NEWGAME"))  # game 1 put away again; the new game is game 4
    _pay(p, 5, "1M-")
    r.store.wall = lambda: 662688000  # a Pico whose clock no host set: 2021-01-01
    ok(p.handle("NEWGAME"))
    r, p = _reboot(r)  # the numbers are kept on flash
    kept = ok(p.handle("GAMES"))
    assert [g["number"] for g in kept] == [4, 1, 3]
    assert [g["kept"] for g in kept] == [None, 1796135625, 1796135625]
    ok(p.handle("RESTORE GAME %d" % kept[1]["id"]))
    ok(p.handle("NEWGAME"))
    assert [g["number"] for g in ok(p.handle("GAMES"))] == [1, 4, 3]


def test_a_restore_keeps_its_balances_in_the_log_after_a_damaged_line_is_skipped():  # B11 B17
    # A journal line that does not read is skipped and its seq never given again: the log stops
    # short of the game's seq, and the restore before it still says what it brought back.
    r, p = _rig()
    _pay(p, 1, "5M-")
    ok(p.handle("NEWGAME"))
    ok(p.handle("RESTORE PREVIOUS"))
    _pay(p, 2, "1M+")
    _pay(p, 3, "2M-")
    log = _log(p)
    assert [t["kind"] for t in log] == ["pay", "restore", "receive", "pay"]
    files = r.fs.files
    path = [n for n in ("/bank/bank.a", "/bank/bank.b")
            if n in files and bytes(files[n]).split(b"\n")[-2][9:11] == b"r "][0]
    img = copy_files(files)
    img[path][-3] ^= 1  # in the last line, card 3's payment: its CRC no longer reads
    r, p = _rig(img)
    assert r.unit.store_status == "damaged"
    after = _log(p)
    assert after == log[:3]  # the payment is lost, and the restore says its balances still
    assert after[1]["balances"]["1"] == START - 5000000
    assert r.unit.ledger.seq >= log[-1]["seq"]  # the lost payment's seq is not given again


def test_a_kept_game_the_file_system_fails_to_read_once_is_not_called_damaged_nor_dropped():
    # B11, B17: the flash failing at a close, or the process out of files (EMFILE), is no
    # damage of the game's: GAMES said "damaged": true and RESTORE game-damaged while the store
    # reported nothing, and an EMFILE made it damage the banker's key then dropped for good.
    r, p = _rig()
    _pay(p, 1, "5M-")
    ok(p.handle("NEWGAME"))
    kept = ok(p.handle("GAMES"))
    fs = r.fs
    fs.fail_at = fs.steps + 1  # the close of game.1, read
    assert p.handle("GAMES")[-1].startswith("ERR store-failed")
    fs.fail_at = fs.steps + 1
    assert p.handle("RESTORE GAME %d" % kept[0]["id"])[-1].startswith("ERR store-failed")
    open_ = fs.open

    def out_of_files(path, mode):
        if "game." in path:
            raise OSError(24)
        return open_(path, mode)

    fs.open = out_of_files
    assert p.handle("GAMES")[-1].startswith("ERR store-failed")
    fs.open = open_
    assert ok(p.handle("HELLO"))["store"] == "ok" and ok(p.handle("GAMES")) == kept
    r.press("C")  # the banker's key: nothing was reported, nothing goes
    _pay(p, 2, "1M+")
    r, p = _reboot(r)
    assert ok(p.handle("GAMES")) == kept
