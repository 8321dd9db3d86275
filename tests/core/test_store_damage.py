"""B17: a damaged store is detected and never read as something it is not. Torn writes
(every length a stored file can be cut to), a bit flipped at every byte of every stored file,
garbage and missing files: boot never crashes, never resets to the start quietly, and either
finds the last state, or an earlier state it has a whole copy of, or reports the damage."""

import json

from desktop import seeded
from protocol import Protocol
from storerig import FaultFS, Rand, SmallLedger, copy_files, session, state
from store import FileStore
from brain.unit import Unit
import startup

from desktop.vclock import VirtualClock

J = 16


def _played(ops=70, seed=5, night=False):
    """A game on FaultFS; the files, the final state and every state the game went through.
    night: game night's writes among them (B19-B22: the pot, the count, the clock, a
    bankruptcy), so their journal lines and header entry are in the files too."""
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    led.load(None)
    history = [state(led)]

    def after(i):
        history.append(state(led))

    session(led, ops, seed, None, after, night=night)
    return fs.files, state(led), history


def _checkpoint_seq(buf):
    """The seq of the checkpoint a slot file's header names."""
    from store.slot import payload

    return json.loads(payload(bytes(buf).split(b"\n", 1)[0])[2:].decode())["seq"]


def _boot(files):
    fs = FaultFS(copy_files(files))
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    status = led.load(None)
    return led, status


def _same_game(got, h):
    """got is h but for a seq gone on past lines lost, the count of its transactions kept."""
    (profile, seq, bal, volume, (kept, start)), (hp, hs, hb, hv, (hk, hstart)) = got[:5], h[:5]
    return (profile, bal, volume, kept) == (hp, hb, hv, hk) and seq >= hs and (
        seq - start == hs - hstart)


def _judge(led, status, final, history, flip=False, name=""):
    got = state(led)
    if "/game." in name:
        # A kept game's file (B11) is not the game in play: that stays exactly as it was, and
        # the kept game either reads whole (ok) or is reported lost, still named (B17), and
        # read as nothing.
        assert got[:4] == final[:4] and got[5] == final[5] and got[4][1] == final[4][1], got
        gid = int(name.split(".")[-1])
        if status == "ok":
            assert got == final, got
        else:
            assert status == "damaged", status
            assert got[4][0] == tuple(None if g[0] == gid else g for g in final[4][0]), got
            assert led.store.bad == [gid]
        return got
    assert status in ("ok", "damaged"), status  # never 'new': the marker says there was a game
    if status == "ok":
        assert got == final or (not flip and got in history), got
    else:
        # the last good copy (its log may be shorter: lost lines take their history along,
        # the balances stay), or Err6; the seq goes on past every line lost, so no seq a host
        # was told of names another transaction: with a bit flipped, every line was there
        assert got is None or [h for h in history if _same_game(got, h)], (got, history)
        assert got is None or not flip or got[1] >= final[1], (got[1], final[1])
    return got


def test_both_slots_are_in_use_in_the_played_game():
    files, final, history = _played()
    assert "/bank/bank.id" in files
    kept = [f for f in files if f.startswith("/bank/game.")]  # B11: the kept games
    assert len(kept) >= 1 and len(files) == 3 + len(kept)
    for name in ("/bank/bank.a", "/bank/bank.b"):
        assert len(files[name]) > 300
    led, status = _boot(files)
    assert status == "ok" and state(led) == final


def test_torn_at_every_length():
    _torn(_played())


def test_game_nights_lines_torn_at_every_length_b19_b22():
    files, final, history = _played(50, 11, night=True)
    assert final[6] != (False, None, None)  # the game ended with game night's state in it
    _torn((files, final, history))


def _torn(played):
    files, final, history = played
    damaged = 0
    for name in files:
        data = files[name]
        for n in range(len(data)):
            img = copy_files(files)
            img[name] = bytearray(data[:n])
            led, status = _boot(img)
            _judge(led, status, final, history, name=name)
            damaged += status == "damaged"
            if status == "damaged" and led.ready:  # the next write repairs the store
                assert isinstance(led.move("go", 0, 2, led.profile.go, 0), tuple)
    assert damaged > 0


def test_a_bit_flipped_anywhere_is_caught_or_harmless():
    _flipped(_played())


def test_a_bit_flipped_anywhere_in_game_nights_lines_is_caught_or_harmless_b19_b22():
    files, final, history = _played(50, 11, night=True)
    _flipped((files, final, history))


def _flipped(played):
    files, final, history = played
    caught = 0
    for name in files:
        data = files[name]
        for pos in range(len(data)):
            img = copy_files(files)
            img[name][pos] ^= 1 << (pos % 8)
            led, status = _boot(img)
            _judge(led, status, final, history, flip=True, name=name)
            caught += status == "damaged"
    assert caught > len(files["/bank/bank.a"]) // 2


def test_garbage_and_missing_files():
    files, final, history = _played()
    rnd = Rand(3)
    for name in ("/bank/bank.a", "/bank/bank.b"):
        junk = bytearray(rnd.below(256) for _ in range(700))
        for bad in (junk, bytearray(b"\n" * 50), bytearray(b"x" * 5000), None):
            img = copy_files(files)
            if bad is None:
                del img[name]
            else:
                img[name] = bad
            led, status = _boot(img)
            _judge(led, status, final, history)
    # both slots gone, marker kept: the store vanished; say so, invent nothing (Err6)
    img = {"/bank/bank.id": files["/bank/bank.id"]}
    led, status = _boot(img)
    assert status == "damaged" and not led.ready and led.store.detail
    # both slots garbage, marker gone too: still damage, not a fresh start
    img = {"/bank/bank.a": bytearray(b"12345678 H {}\n"), "/bank/bank.b": bytearray(b"\x00\n")}
    led, status = _boot(img)
    assert status == "damaged" and not led.ready
    # nothing at all: a new unit
    led, status = _boot({})
    assert status == "new" and led.ready


def test_a_game_read_back_without_its_mark_is_marked_again_so_losing_it_later_is_err6():
    # B17: the mark (bank.id) is how boot tells a store that vanished from a new unit; a game
    # read back whose mark was lost is marked again at once, not at the next checkpoint
    files, final, history = _played()
    img = copy_files(files)
    del img["/bank/bank.id"]
    led, status = _boot(img)
    assert status == "ok" and state(led) == final
    left = copy_files(led.store.fs.files)
    assert "/bank/bank.id" in left
    del left["/bank/bank.a"], left["/bank/bank.b"]
    led, status = _boot(left)
    assert status == "damaged" and not led.ready


def _unit(files):
    fs = FaultFS(copy_files(files))
    clock = VirtualClock()
    u = Unit(FileStore("/bank", fs=fs, journal_max=J), seeded.Seeded(1), None)
    startup.boot_unit(u, clock.now())
    return u, clock, fs


def _banker_holds_c(u, clock):
    """C held 3 s on the unit's own keypad: the banker's new game (B11), and a key at the unit,
    which sees the damage reported (B17)."""
    u.key_down("C", clock.now(), "key")
    clock.advance(u, 3000)
    u.key_up("C", clock.now(), "key")


def test_the_unit_shows_err5_and_goes_on_with_the_last_good_copy():
    files, final, history = _played()
    img = copy_files(files)
    newest = "/bank/bank.a" if b" s " not in bytes(img["/bank/bank.a"]) else "/bank/bank.b"
    img[newest][20] ^= 4  # the newest slot's header
    u, clock, fs = _unit(img)
    assert u.store_status == "damaged" and u.error == "store-damaged"
    assert u.display() == ("Err5", False, False) and u.ledger.ready
    p = Protocol(u, clock)
    assert '"store": "damaged"' in p.handle("HELLO")[-1]
    assert '"error": "store-damaged"' in p.handle("STATE")[-1]
    p.handle("KEY C")
    p.handle("INSERT L 1")
    p.handle("KEY M")
    after = list(u.ledger.bal)
    u2, clock2, fs2 = _unit(fs.files)  # the write after damage made a fresh, whole checkpoint
    assert u2.ledger.bal == after
    # ... which removed the damaged slot: the damage is still reported, for nobody at the unit
    # has seen it (a host's keys are no banker's), until a key on the unit's keypad.
    assert u2.store_status == "damaged" and u2.display() == ("Err5", False, False)
    u2.key_down("C", clock2.now(), "key")
    u2.key_up("C", clock2.now(), "key")
    assert u2.error is None
    u3, _, _ = _unit(fs2.files)
    assert u3.store_status == "ok" and u3.ledger.bal == after


def test_err5_shows_again_after_a_hosts_volume_key_and_a_wake_and_goes_at_a_card():
    # docs/storage.md: Err5 shows until a key on the unit's keypad or a card movement; a
    # host's KEY leaves it, and so does a switch-off (B16) the unit wakes from by a host's key
    files, final, history = _played()
    img = copy_files(files)
    img["/bank/bank.a"] += b"junk\n"
    u, clock, fs = _unit(img)
    p = Protocol(u, clock)
    assert u.display() == ("Err5", False, False)
    p.handle("KEY .")  # B12: the volume, for a second
    assert u.display() == ("1", False, False)
    clock.advance(u, 1000)
    assert u.display() == ("Err5", False, False)
    clock.advance(u, 61000)  # B16: switched off
    p.handle("KEY 1")  # the waking key, no input
    assert u.power and u.display() == ("Err5", False, False)
    p.handle("INSERT L 1")  # a card at the unit: Err5 seen on the glass, still reported
    clock.advance(u, 1000)
    assert u.display() != ("Err5", False, False) and u.error == "store-damaged"


def test_damage_a_host_wrote_past_is_reported_at_every_boot_until_the_banker_sees_it():
    # B17: a host's write after damage is a fresh checkpoint, which removes the damaged slot;
    # the store goes on saying so, as many boots as it takes, until a key at the unit.
    files, final, history = _played()
    img = copy_files(files)
    newest = "/bank/bank.a" if b" s " not in bytes(img["/bank/bank.a"]) else "/bank/bank.b"
    img[newest][-5] ^= 4  # the newest slot's last journal line
    u, clock, fs = _unit(img)
    assert u.store_status == "damaged"
    p = Protocol(u, clock)
    p.handle("SET SOUND 1")
    p.handle("INSERT L 4")
    for boot in range(3):
        u, clock, fs = _unit(fs.files)
        p = Protocol(u, clock)
        assert '"store": "damaged"' in p.handle("HELLO")[-1], boot
        assert '"error": "store-damaged"' in p.handle("STATE")[-1], boot
        p.handle("KEY 1 0 K")  # a host's KEY sees nothing
    u.key_down("C", clock.now(), "key")  # the banker's (the host's entry cleared)
    u.key_up("C", clock.now(), "key")
    assert u.error is None
    bal = list(u.ledger.bal)
    u, clock, fs = _unit(fs.files)  # the key wrote it over: nothing more to report
    assert u.store_status == "ok" and u.error is None and u.ledger.bal == bal


def _err6():
    """A unit booted on a played game whose both slots are damaged (Err6): (unit, clock,
    its FaultFS)."""
    files, _, _ = _played()
    img = copy_files(files)
    for name in ("/bank/bank.a", "/bank/bank.b"):
        img[name][12] ^= 1
    return _unit(img)


def test_the_unit_shows_err6_without_a_good_copy_and_c_held_starts_a_game():
    u, clock, fs = _err6()
    assert u.store_status == "damaged" and not u.ledger.ready
    assert u.display() == ("Err6", False, False)
    p = Protocol(u, clock)
    seq = u.ledger.seq  # past the kept games' (they carry theirs)
    assert p.handle("INSERT L 1")[-1].startswith("OK")
    p.handle("KEY 5 0 K +")
    assert u.ledger.bal[1] == 0 and u.ledger.seq == seq  # refused: no balances invented
    p.handle("REMOVE L")
    p.handle("HOLD C 3000")  # a host's new game: the damage is still the banker's to see
    assert u.ledger.ready and u.ledger.bal[1] == 15000000
    u2, clock2, _ = _unit(fs.files)
    assert u2.store_status == "damaged" and u2.ledger.bal == u.ledger.bal
    _banker_holds_c(u, clock)
    u2, _, _ = _unit(fs.files)
    assert u2.store_status == "ok" and u2.ledger.bal == u.ledger.bal


def test_err6_reports_no_balances_no_log_and_no_backup_until_a_new_game():
    # B17: with no good copy the unit invents nothing: BALANCES, LOG and BACKUP are refused
    # (no-game), not answered with six zeros a host would print, save and restore later.
    u, clock, fs = _err6()
    p = Protocol(u, clock)
    for cmd in ("BALANCES", "LOG", "LOG 200", "BACKUP"):
        out = p.handle(cmd)
        assert out == ["ERR no-game no good copy of the game (Err6): none is invented; hold C "
                       "for 3 s on the unit for a new game"], (cmd, out)
    assert p.handle("BALANCES 1")[-1].startswith("ERR bad-argument")  # usage comes first
    p.handle("HOLD C 3000")  # B11: a new game, and balances to report again
    reply = p.handle("BALANCES")[-1]
    assert json.loads(reply[3:]) == {str(c): 15000000 for c in range(1, 7)}, reply
    assert p.handle("LOG")[-1] == "OK []" and p.handle("BACKUP")[-1].startswith("OK {")


def test_err6_refuses_the_volume_the_pot_the_count_and_the_clock_and_writes_nothing():
    # B17: with no good copy there is no game to keep a setting in: the volume and the pot are
    # refused (no-game) as a transaction is, game night's held keys are the keys B1-B18 refuse,
    # the unit goes on showing Err6, and the damaged files stay as found.
    u, clock, fs = _err6()
    p = Protocol(u, clock)
    u.key_down("C", clock.now())  # the banker has seen Err6: a refusal now says its own code
    u.key_up("C", clock.now())
    before = copy_files(fs.files)
    for cmd, code in (("KEY .", "no-game"), ("SET SOUND 0", "no-game"),
                      ("HOLD + 3000", "no-amount"), ("HOLD K 3000", "bad-entry"),
                      ("SET POT ON", "no-game"),
                      ("KEY M", "bad-entry")):
        u.maintenance = "M" in cmd or "POT" in cmd  # as the banker at the unit would give it
        out = p.handle(cmd)[-1]
        assert out.startswith("ERR " + code) or '"error": "%s"' % code in out, (cmd, out)
        assert u.display() == ("Err6", False, False) and not u.ledger.ready, cmd
        assert fs.files == before, cmd
    assert u.ledger.volume == 2 and not u.ledger.pot_on
    assert u.ledger.count is None and u.game_clock is None
    p.handle("HOLD C 3000")  # B11: a new game, and settings to keep again
    assert p.handle("SET SOUND 0")[-1].startswith("OK") and u.ledger.volume == 0


def test_after_damage_to_the_newest_slot_no_seq_a_host_was_told_of_is_given_again():
    # B17, Err5: a cut or zeros take the lines after them along; no line is there to count,
    # so the seq goes on past every one the lost checkpoint and a whole journal could hold.
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    led.load(None)
    for i in range(3 * J + 5):
        led.move("receive", 0, 1 + i % 6, 1000, 0)
    told, path = led.seq, led.store.paths[led.store.cur]
    buf = bytes(fs.files[path])
    ends = [i + 1 for i, b in enumerate(buf) if b == 10]
    checkpoint_end = ends[json.loads(buf[11:ends[0] - 1])["n"]]  # "<crc> H {...}"
    damaged = [buf[:at] for at in [0, 5] + ends[:-1] if at < checkpoint_end]  # cut inside it
    damaged += [buf[:at] + bytes(100) + buf[at + 100:] for at in (0, 300, checkpoint_end - 50)]
    for img in damaged:
        files = copy_files(fs.files)
        files[path] = bytearray(img)
        led2, status = _boot(files)
        assert status == "damaged" and led2.ready, len(img)
        assert led2.move("receive", 0, 1, 1000, 0)[0] > told, (len(img), led2.seq, told)


# -- lines whose CRC reads but whose money does not: forged, or a firmware's bug ------------------

def _two_moves():
    """A store whose slot in use is a checkpoint (its log folded from its base) and journal
    lines after it, the other slot the checkpoint before: (files, the slot in use, the
    balances before the last move, after it, the balances after every move)."""
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    led.load(None)
    history = [list(led.bal)]
    for i in range(J + 3):
        led.move("receive", 0, 1 + i % 6, 1000000, 0)
        history.append(list(led.bal))
    first = list(led.bal)
    led.move("transfer", 1, 2, 300000, 0)
    history.append(list(led.bal))
    return fs.files, led.store.paths[led.store.cur], first, list(led.bal), history


def test_a_journal_line_whose_balances_do_not_add_up_is_damage_and_the_lines_before_it_stand():
    from store.slot import line

    files, path, first, second, history = _two_moves()
    lines = bytes(files[path]).split(b"\n")[:-1]
    last = lines[-1].decode().split(" ", 1)[1].split(" ")  # "r seq kind from to amount ..."
    last[7] = str(int(last[7]) + 5000000)  # card 2 after it: 5 M more than the move gives
    img = copy_files(files)
    img[path] = bytearray(b"\n".join(lines[:-1]) + b"\n" + line(" ".join(last)))
    led, status = _boot(img)
    assert status == "damaged" and led.ready  # Err5, not Err6: the game before it stands
    # and the seq goes on past every line the journal after its checkpoint may have held,
    # lest a host see one it was told of given again
    past = _checkpoint_seq(files[path]) + J
    assert past >= J + 4 and led.bal == first
    assert led.seq == past and led.move("receive", 0, 1, 1, 0)[0] == past + 1
    again, _ = _boot(led.store.fs.files)  # the checkpoint after it carries the gap
    assert again.bal == led.bal and again.seq == past + 1
    last[7] = str(-1)  # a balance below 0, its sum forged to match
    img[path] = bytearray(b"\n".join(lines[:-1]) + b"\n" + line(" ".join(last)))
    led, status = _boot(img)
    assert status == "damaged" and led.bal == first


def test_a_tail_longer_than_any_line_written_is_damage_and_the_game_before_it_stands():
    # A cut append is at most one line's worth: 64 KB after the last whole line is no cut but
    # damage (Err5), and it is never read whole (a Pico's heap would not hold a megabyte).
    files, path, first, second, history = _two_moves()
    for junk in (b"7" * 65536, b"7" * 65536 + b"\n"):
        img = copy_files(files)
        img[path] = bytearray(bytes(files[path]) + junk)
        led, status = _boot(img)
        assert status == "damaged" and led.ready, status
        # the seq goes on past each line the journal may have held
        assert led.bal == second and led.seq == _checkpoint_seq(files[path]) + J
    for cut in (1, 30):  # a cut append, by contrast, is no damage
        img = copy_files(files)
        img[path] = bytearray(bytes(files[path]) + b"7" * cut)
        led, status = _boot(img)
        assert status == "ok" and led.bal == second


def test_a_header_whose_balances_are_no_whole_numbers_or_do_not_fold_is_no_copy_of_ours():
    from store.slot import line, payload

    files, path, first, second, history = _two_moves()
    other = [p for p in ("/bank/bank.a", "/bank/bank.b") if p != path][0]
    for change in ("fraction", "no-fold"):
        img = copy_files(files)
        head_line, rest = bytes(img[path]).split(b"\n", 1)
        head = json.loads(payload(head_line + b"\n")[2:])
        if change == "fraction":
            head["bal"][0] = head["bal"][0] + 0.5  # read as a whole number, it would be money
        else:
            head["bal"][1] += 1000  # its log folds to other balances
        img[path] = bytearray(line("H " + json.dumps(head)) + rest)
        led, status = _boot(img)
        assert status == "damaged", change
        assert other in files and led.ready  # the other slot, the last good copy (B17)
        assert [b for b in led.bal if b != int(b)] == [] and led.bal != second, change


def test_two_slots_of_one_generation_read_as_the_first_with_its_journal_folded():  # B17
    # The firmware never writes two slots of one generation, but a copied file can: the first
    # slot counts, read whole, as it always did (a read that skipped its records lost them).
    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    led.load(None)
    led.move("receive", 0, 1, 1000000, 0)
    led.move("receive", 0, 2, 500000, 0)
    final = state(led)
    mine = bytes(fs.files[led.store.paths[led.store.cur]])
    assert mine.count(b"\n") == 3  # the header and two journal lines
    img = copy_files(fs.files)
    img["/bank/bank.a"] = bytearray(mine)
    img["/bank/bank.b"] = bytearray(mine.split(b"\n", 1)[0] + b"\n")
    led, status = _boot(img)
    assert status == "ok" and state(led) == final


def test_a_header_from_before_kept_games_were_numbered_reads_whole_not_as_damage():  # B11, B17
    # Firmware before kept games' numbers wrote headers without "numbers", "game" and "count":
    # flashed with a newer image, such a unit booted to Err5 with its game whole.
    from store.slot import line, payload

    fs = FaultFS()
    led = SmallLedger(FileStore("/bank", fs=fs, journal_max=J))
    led.load(None)
    for game in range(3):
        led.move("receive", 0, 1 + game, 1000000 * (game + 1), 0)
        led.reset()
    led.move("pay", 2, 0, 300000, 0)
    final = state(led)
    old = copy_files(fs.files)
    for path in ("/bank/bank.a", "/bank/bank.b"):
        if path in old:
            head_line, rest = bytes(old[path]).split(b"\n", 1)
            head = json.loads(payload(head_line + b"\n")[2:])
            for key in ("numbers", "game", "count"):
                del head[key]
            old[path] = bytearray(line("H " + json.dumps(head)) + rest)
    led, status = _boot(old)
    assert status == "ok" and state(led) == final
    ids = led.store.kept()
    assert [led.store.number_of(i) for i in ids] == [3, 2, 1]  # by age, the newest last put away


def test_a_header_whose_night_entry_is_no_object_is_damage_not_a_crash():  # B17, B19-B22
    from store.slot import line, payload

    files, path, first, second, history = _two_moves()
    for night in (7, [1, 2], "on"):
        img = copy_files(files)
        head_line, rest = bytes(img[path]).split(b"\n", 1)
        head = json.loads(payload(head_line + b"\n")[2:])
        head["night"] = night
        img[path] = bytearray(line("H " + json.dumps(head)) + rest)
        led, status = _boot(img)
        assert status == "damaged", night


def test_values_this_firmware_never_writes_are_damage_not_money():
    # A balance past the most one holds, a volume past 2, a start past the game's seq: whole
    # lines with good CRCs, which no firmware of ours writes. Never read as money or settings.
    from store.slot import line, payload

    files, path, first, second, history = _two_moves()
    lines = bytes(files[path]).split(b"\n")[:-1]
    last = lines[-1].decode().split(" ", 1)[1].split(" ")
    big = 10 ** 30
    last[5], last[7] = str(big), str(second[2] - 300000 + big)  # to card 2, past the most
    last[6] = str(first[1] - big)
    img = copy_files(files)
    img[path] = bytearray(b"\n".join(lines[:-1]) + b"\n" + line(" ".join(last)))
    led, status = _boot(img)
    assert status == "damaged" and led.bal == first
    img = copy_files(files)
    img[path] += line("v 9")
    led, status = _boot(img)
    assert status == "damaged" and led.volume == 2 and led.bal == second
    for key, value in (("volume", 7), ("start", 999), ("start", -5), ("bal", None)):
        img = copy_files(files)
        head_line, rest = bytes(img[path]).split(b"\n", 1)
        head = json.loads(payload(head_line + b"\n")[2:])
        if key == "bal":
            head["base"][2] = head["bal"][2] = 10 ** 30
        else:
            head[key] = value
        img[path] = bytearray(line("H " + json.dumps(head)) + rest)
        led, status = _boot(img)
        assert status == "damaged" and led.ready, key  # the other slot, the last good copy
        assert max(led.bal) < 10 ** 12 and led.volume in (0, 1, 2), key


def test_a_record_whose_kind_and_accounts_disagree_is_damage_not_money():
    # Lines with good CRCs whose balances fold, but that no firmware of ours writes: a
    # transfer from a card to itself, a receive from a card, an undo of what is yet to come,
    # a payment that says it undoes something. Never read as money (B17).
    from store.slot import line

    files, path, first, second, history = _two_moves()
    led, status = _boot(files)
    seq, b1, b3 = led.seq + 1, second[1], second[3]
    for forged in ("transfer 1 1 1000 %d %d 0" % (b1 - 1000, b1 + 1000),
                   "receive 3 1 1000 %d %d 0" % (b3 - 1000, b1 + 1000),
                   "undo 1 0 1000 %d 0 %d" % (b1 - 1000, seq + 5),
                   "pay 1 0 1000 %d 0 1" % (b1 - 1000)):
        img = copy_files(files)
        img[path] += line("r %d %s key" % (seq, forged))
        led, status = _boot(img)
        # the seq goes on past the line and any the journal may have held after it: had
        # they been transactions, a host was told of them
        assert status == "damaged" and led.bal == second, forged
        assert led.seq == _checkpoint_seq(files[path]) + J >= seq, forged
    img = copy_files(files)
    img[path] += line("r %d transfer 1 3 1000 %d %d 0 key" % (seq, b1 - 1000, b3 + 1000))
    led, status = _boot(img)
    assert status == "ok" and led.seq == seq  # the same line, true to its kind, reads


def test_a_number_written_as_no_firmware_writes_it_is_damage_on_every_interpreter():
    # "+1000", "1_000", " 1000" read as 1000 to int() on both interpreters, "\u0661000" (an
    # Arabic-Indic one) on CPython alone: a line with a good CRC that spells a number so was
    # not written by us, and is damage wherever it is read (B17), never money on one only.
    from store.slot import line

    files, path, first, second, history = _two_moves()
    led, status = _boot(files)
    seq, b1, b3 = led.seq + 1, second[1], second[3]
    for amount in ("+1000", "1_000", " 1000", "\u0661000"):
        for forged in ("r %d transfer 1 3 %s %d %d 0 key" % (seq, amount, b1 - 1000, b3 + 1000),
                       "v " + amount[:-3]):
            img = copy_files(files)
            img[path] += line(forged)
            led, status = _boot(img)
            assert status == "damaged" and led.bal == second, forged
            assert led.seq == _checkpoint_seq(files[path]) + J >= seq, forged
            assert led.volume == 2, forged


class _Unreadable(FaultFS):
    """A flash whose read of one file fails (as MicroPython's readline of a folder does)."""

    def __init__(self, files, bad):
        FaultFS.__init__(self, files)
        self.bad = bad

    def open(self, path, mode):
        f = FaultFS.open(self, path, mode)
        if path == self.bad and "r" in mode:
            def fail(*args):
                raise OSError(5)
            f.readline = f.read = fail
        return f


def test_a_read_that_fails_at_boot_is_damage_reported_not_a_unit_that_cannot_start():
    files, path, first, second, history = _two_moves()
    for bad in ("/bank/bank.a", "/bank/bank.b"):
        led = SmallLedger(FileStore("/bank", fs=_Unreadable(copy_files(files), bad),
                                    journal_max=J))
        status = led.load(None)
        assert status == "damaged" and led.store.detail, bad  # Err5 or Err6, said
        assert not led.ready or led.bal in history, bad  # a state it went through


def _unit_with_a_kept_game(*moves):
    """A unit on FaultFS whose first game, card 2 in L and moves typed (1 M + by default),
    is kept by a new game (B11): (fs, unit, clock, protocol)."""
    fs = FaultFS()
    clock = VirtualClock()
    u = Unit(FileStore("/bank", fs=fs, journal_max=J), seeded.Seeded(1), None)
    startup.boot_unit(u, clock.now())
    p = Protocol(u, clock)
    for line in ("INSERT L 2",) + tuple("KEY " + m for m in moves or ("1 M +",)) + (
            "REMOVE L", "HOLD C 3000"):
        p.handle(line)
    return fs, u, clock, p


def test_err6_keeps_the_kept_games_that_read_and_a_new_game_names_them():
    # B11, B17: with both slots lost no header names the kept games, but their files read
    # whole: GAMES lists them, one can be brought back, and a new game keeps them named.
    fs, u, clock, p = _unit_with_a_kept_game()  # the game with a move is kept
    kept = json.loads(p.handle("GAMES")[-1][3:])
    assert len(kept) == 1
    for name in ("/bank/bank.a", "/bank/bank.b"):
        if name in fs.files:
            fs.files[name][12] ^= 1
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    assert u.display() == ("Err6", False, False)
    assert json.loads(p.handle("GAMES")[-1][3:]) == kept
    _banker_holds_c(u, clock)  # the banker's new game, as Err6 asks
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    assert u.store_status == "ok" and json.loads(p.handle("GAMES")[-1][3:]) == kept
    u.maintenance = True
    assert p.handle("RESTORE PREVIOUS")[-1].startswith("OK")
    assert u.ledger.bal[2] == 15000000 + 1000000


def test_err6_from_game_nights_lines_keeps_every_kept_game_its_slots_name():
    # B17: a night line whose CRC reads but that says nothing this firmware writes leaves no
    # game to trust (Err6); the kept games, named by both slots' headers, are still listed.
    fs, u, clock, p = _unit_with_a_kept_game()
    from store.slot import line

    for cmd in ("INSERT L 3", "KEY 1 M +", "REMOVE L", "HOLD C 3000"):
        p.handle(cmd)
    kept = json.loads(p.handle("GAMES")[-1][3:])
    assert len(kept) == 2
    for name in ("/bank/bank.a", "/bank/bank.b"):
        fs.files[name] += line("p 7")
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    assert u.display() == ("Err6", False, False)
    assert json.loads(p.handle("GAMES")[-1][3:]) == kept


def test_after_err6_the_games_seqs_go_on_past_the_kept_ones():
    # B11, B17: the game lost with both slots took its seq with it; the kept games' files still
    # carry theirs. A new game, or one brought back, numbers on past them: a game put away
    # later never takes a kept game's file, and what is written reads back at the next boot.
    fs, u, clock, p = _unit_with_a_kept_game("1 M +", "2 M +")  # kept: card 2 at 18 M
    for name in ("/bank/bank.a", "/bank/bank.b"):
        if name in fs.files:
            fs.files[name][12] ^= 1
    damaged = copy_files(fs.files)
    u, clock, fs = _unit(damaged)
    p = Protocol(u, clock)
    _banker_holds_c(u, clock)  # the banker's new game
    p.handle("INSERT L 3")
    p.handle("KEY 1 M +")
    p.handle("KEY 1 M +")  # as many moves as the kept game's seq: put away, the same number
    p.handle("REMOVE L")
    p.handle("HOLD C 3000")  # this game kept too, beside the first
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    games = json.loads(p.handle("GAMES")[-1][3:])
    assert u.store_status == "ok" and len(games) == 2, games
    assert sorted(g["balances"]["2"] for g in games) == [15000000, 18000000], games
    u, clock, fs = _unit(damaged)  # or brought back straight from Err6
    p = Protocol(u, clock)
    u.maintenance = True  # entered at the keypad: keys the banker pressed, who saw Err6
    u.key_down("C", clock.now(), "key")
    u.key_up("C", clock.now(), "key")
    assert p.handle("RESTORE PREVIOUS")[-1].startswith("OK")
    u, clock, fs = _unit(fs.files)
    assert u.store_status == "ok" and u.ledger.bal[2] == 18000000


def test_a_kept_game_past_the_last_good_copy_keeps_its_file_when_a_later_game_is_put_away():
    # B11, B17: both slots damaged but one still reads up to a line lost, so the game in play
    # is earlier than the kept game whose file reads whole: the game goes on numbered past it,
    # and the game put away later is a file of its own, never written over the kept one.
    fs, u, clock, p = _unit_with_a_kept_game("1 M +", "2 M +")  # kept: card 2 at 18 M
    new = u.ledger.store.paths[u.ledger.store.cur]
    old = u.ledger.store.paths[1 - u.ledger.store.cur]
    fs.files[new][12] ^= 1
    lines = bytes(fs.files[old]).split(b"\n")
    lines[2] = lines[2].replace(b"serial", b"seriaL")  # the second move's line, its CRC bad
    fs.files[old] = bytearray(b"\n".join(lines))
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    assert u.store_status == "damaged" and u.ledger.bal[2] == 16000000
    assert [g["balances"]["2"] for g in json.loads(p.handle("GAMES")[-1][3:])] == [18000000]
    for line in ("KEY C", "INSERT L 3", "KEY 1 M +", "REMOVE L"):
        p.handle(line)
    _banker_holds_c(u, clock)
    u, clock, fs = _unit(fs.files)
    p = Protocol(u, clock)
    games = json.loads(p.handle("GAMES")[-1][3:])
    assert u.store_status == "ok" and sorted(
        (g["balances"]["2"], g["balances"]["3"]) for g in games) == [
        (16000000, 16000000), (18000000, 15000000)], games


def _header_edited(files, path, edit):
    """files with path's header rewritten by edit(head) -> its JSON text, its CRC made good."""
    from store.slot import line, payload

    img = copy_files(files)
    head_line, rest = bytes(img[path]).split(b"\n", 1)
    head = json.loads(payload(head_line + b"\n")[2:])
    img[path] = bytearray(line("H " + edit(head)) + rest)
    return img


def test_a_header_none_of_ours_with_a_good_crc_leaves_the_other_slot_in_use():
    # B17: a header that says nothing this firmware writes is no copy of ours, however it
    # fails to read (a short pot, a number past any int, a nesting past the stack, balances
    # for another number of cards, a profile there is none of): the last good copy is used,
    # never a traceback, never Err6 beside a good slot.
    files, path, first, second, history = _two_moves()

    def swapped(key, text):
        def edit(head):
            head[key] = "SWAP"
            return json.dumps(head).replace('"SWAP"', text)

        return edit

    edits = [swapped("pot", "[0]"), swapped("gen", "1e400"), swapped("seq", "1e400"),
             swapped("games", "[" * 1000 + "]" * 1000), swapped("base", "[1, 2, 3, 4, 5]"),
             swapped("bal", "[1, 2, 3, 4, 5, 6, 7]"), swapped("profile", '"xyz"'),
             swapped("profile", "5"), swapped("profile", '["world"]'), swapped("v", "1.0"),
             swapped("v", "true"), swapped("n", "-1")]
    for i, edit in enumerate(edits):
        led, status = _boot(_header_edited(files, path, edit))
        assert status == "damaged" and led.ready, i
        assert list(led.bal) in history and list(led.bal) != second, i


def test_a_kept_game_none_of_ours_is_reported_damaged_not_brought_back():
    # B11, B17: a kept game's file whose header reads but says what no game of this firmware
    # is (a profile there is none of, fewer than no transactions, a date before 1970 or past
    # the year 9999, more lines than it holds) is damaged, as one that does not read: never a
    # game brought back that writes what the next boot rejects, nor a date no host can show.
    fs, u, clock, p = _unit_with_a_kept_game()
    (game,) = [n for n in fs.files if "/game." in n]

    def set_to(key, value):
        def edit(head):
            head[key] = value
            return json.dumps(head)

        return edit

    for edit in (set_to("profile", "xyz"), set_to("transactions", -3), set_to("kept", -5),
                 set_to("kept", 10 ** 30), set_to("n", 10 ** 9), set_to("v", True)):
        u, clock, _ = _unit(_header_edited(fs.files, game, edit))
        p = Protocol(u, clock)
        assert u.store_status == "damaged"
        (kept,) = json.loads(p.handle("GAMES")[-1][3:])
        assert kept["damaged"] is True
        u.maintenance = True
        assert p.handle("RESTORE PREVIOUS")[-1].startswith("ERR")
        assert u.ledger.bal[2] == 15000000


def test_a_slot_that_holds_a_kept_games_file_is_err6_reported_until_the_banker_sees_it():
    # B17: a kept game's file copied over both slots (by hand, a tool) reads whole but is no
    # game in play: Err6, and a host's new game since does not make the next boot ok.
    fs, u, clock, p = _unit_with_a_kept_game()
    kept = [name for name in fs.files if "/game." in name][0]
    for name in ("/bank/bank.a", "/bank/bank.b"):
        fs.files[name] = bytearray(fs.files[kept])
    u, clock, fs = _unit(fs.files)
    assert u.store_status == "damaged" and not u.ledger.ready
    u.maintenance = True  # as a host's tools find it: granted at the keypad before
    assert Protocol(u, clock).handle("NEWGAME")[-1].startswith("OK")
    u, clock, fs = _unit(fs.files)
    assert u.store_status == "damaged" and u.ledger.ready
    _banker_holds_c(u, clock)
    u, clock, fs = _unit(fs.files)
    assert u.store_status == "ok"


def test_a_kept_games_file_over_one_slot_keeps_every_kept_game_and_the_seq_goes_on():
    # B11, B17: such a file read as the game's newest slot named no kept game, so boot removed
    # every kept game's file, and the seq began again at 0, past numbers a host was told of.
    fs, u, clock, p = _unit_with_a_kept_game()
    p.handle("INSERT L 2")
    p.handle("KEY 2 M +")
    p.handle("HOLD C 3000")  # a second game kept
    kept = sorted(name for name in fs.files if "/game." in name)
    seq = u.ledger.seq
    files = copy_files(fs.files)
    files.pop("/bank/bank.b", None)
    files["/bank/bank.a"] = bytearray(files[kept[-1]])
    u, clock, fs = _unit(files)
    assert u.store_status == "damaged" and not u.ledger.ready  # Err6
    assert sorted(name for name in fs.files if "/game." in name) == kept
    assert u.ledger.seq >= seq and len(u.ledger.store.kept()) == len(kept) == 2
