"""B17 in the simulator, as a process: every acknowledged transaction survives a restart, a
kill -9 at any moment, and switch-off/wake; a damaged state directory is reported over serial."""

import json
import os
import signal
import socket
import subprocess
import sys
import zlib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = 15000000


MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


class Sim:
    def __init__(self, state, *extra, python=None, virtual=True):
        cmd = [python or sys.executable, "-m", "simulator", "--headless", "--tcp", "0",
               "--state", str(state), "--seed", "1"] + (["--virtual-clock"] if virtual else [])
        cmd += list(extra)
        self.p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            first = self.p.stdout.readline().decode()
            assert first.startswith("listening tcp 127.0.0.1:"), first
            port = int(first.rsplit(":", 1)[1])
            self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        except BaseException:
            self.p.kill()  # never leave a simulator behind
            self.p.wait(10)
            raise
        self.f = self.s.makefile("rb")

    def send(self, *lines):
        self.s.sendall("".join(line + "\n" for line in lines).encode())

    def reply(self):
        while True:
            line = self.f.readline().decode()
            assert line, "the simulator closed the connection"
            if not line.startswith("!"):
                return line.rstrip("\n")

    def cmd(self, line):
        self.send(line)
        return self.reply()

    def json(self, line):
        r = self.cmd(line)
        assert r.startswith("OK "), r
        return json.loads(r[3:])

    def kill9(self):
        self.p.send_signal(signal.SIGKILL)
        self.p.wait(10)
        self.close()

    def stop(self):
        self.close()
        self.p.send_signal(signal.SIGTERM)
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait(10)

    def close(self):
        try:
            self.f.close()
            self.s.close()
        except OSError:
            pass
        for pipe in (self.p.stdout, self.p.stderr):
            pipe.close()


@pytest.fixture
def state(tmp_path):
    return tmp_path / "flash"


def _bal(sim):
    b = sim.json("BALANCES")
    return [b[str(c)] for c in range(1, 7)]


def test_restart_keeps_every_transaction_the_log_and_the_volume(state):
    sim = Sim(state)
    assert json.loads(sim.cmd("HELLO")[3:])["store"] == "new"
    sim.cmd("INSERT L 3")
    sim.cmd("KEY 2 5 0 K +")
    sim.cmd("REMOVE L")
    sim.cmd("INSERT R 2")
    sim.cmd("INSERT L 5")
    sim.cmd("KEY 1 . 5 M -")
    sim.cmd("REMOVE L")
    sim.cmd("REMOVE R")
    sim.cmd("KEY .")  # B12: volume 2 -> 1, persisted
    bal = _bal(sim)
    log = sim.json("LOG 50")
    sim.stop()
    sim = Sim(state)
    assert json.loads(sim.cmd("HELLO")[3:])["store"] == "ok"
    assert _bal(sim) == bal == [START, START - 1500000, START + 250000, START, START + 1500000,
                                START]
    assert sim.json("LOG 50") == log and [t["kind"] for t in log] == ["receive", "transfer"]
    assert sim.json("STATE")["sound"] == 1
    sim.stop()


def test_kill_9_at_any_moment_loses_no_acknowledged_transfer(state):
    """50 transfers of 10k from card 2 to card 1 are sent at once; the simulator is killed
    with SIGKILL after the k-th reply. Every acknowledged one is there, none is half there."""
    total = 0
    for k in (0, 1, 7, 23, 49):
        sim = Sim(state)
        before = _bal(sim)
        sim.cmd("INSERT R 2")
        sim.cmd("INSERT L 1")
        sim.send(*["KEY 1 0 K -"] * 50)
        for _ in range(k):
            r = sim.reply()
            assert r.startswith("OK "), r
        sim.kill9()
        sim = Sim(state)
        assert json.loads(sim.cmd("HELLO")[3:])["store"] == "ok"
        after = _bal(sim)
        moved = after[0] - before[0]
        assert moved % 10000 == 0 and k * 10000 <= moved <= 50 * 10000, (k, moved)
        assert after[1] == before[1] - moved and after[2:] == before[2:]  # both or neither
        total += moved
        sim.cmd("REMOVE L")
        sim.cmd("REMOVE R")
        sim.stop()
    sim = Sim(state)
    assert _bal(sim)[:2] == [START + total, START - total]
    sim.stop()


def test_switch_off_and_wake_keep_everything(state):
    sim = Sim(state)
    sim.cmd("INSERT L 4")
    sim.cmd("KEY M")  # B9: Go
    sim.cmd("REMOVE L")
    bal = _bal(sim)
    assert bal[3] == START + 2000000
    assert sim.json("ADVANCE 61000")["power"] == "off"  # B16
    assert sim.json("KEY 1")["power"] == "on"  # the waking key is not input
    assert _bal(sim) == bal
    sim.json("ADVANCE 61000")
    sim.kill9()  # switched off, then the batteries are pulled
    sim = Sim(state)
    assert _bal(sim) == bal and json.loads(sim.cmd("HELLO")[3:])["store"] == "ok"
    sim.stop()


def test_a_damaged_state_dir_is_reported_and_the_last_good_copy_used(state):
    sim = Sim(state)
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    sim.cmd("REMOVE L")
    bal = _bal(sim)
    sim.stop()
    with open(os.path.join(str(state), "bank.a"), "r+b") as f:  # a flip in the slot's last line
        data = f.read()
        f.seek(len(data) - 5)
        f.write(b"#")
    sim = Sim(state)
    hello = json.loads(sim.cmd("HELLO")[3:])
    st = sim.json("STATE")
    assert hello["store"] == "damaged" and st["error"] == "store-damaged"
    assert st["display"]["text"] in ("Err5", "Err6")
    assert _bal(sim) != bal or st["display"]["text"] == "Err5"  # never the new game, quietly
    sim.stop()


@pytest.mark.parametrize("python", [sys.executable] + (
    [MICROPYTHON] if os.path.exists(MICROPYTHON) else []))
def test_a_folder_where_a_slot_goes_is_moved_aside_and_play_goes_on_b17(state, python):
    # Made there by hand (over USB, say): the next checkpoint goes into that slot, and could
    # never be written; every transaction was refused, restarts and keys alike.
    sim = Sim(state, python=python)
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    sim.stop()
    folder = os.path.join(str(state), "bank.b")
    os.mkdir(folder)
    with open(os.path.join(folder, "x"), "w") as f:
        f.write("a file of the user's")
    sim = Sim(state, python=python)
    assert sim.json("STATE")["display"]["text"] == "Err5"  # unreadable: damage (B17)
    if sim.json("STATE")["slots"]["L"] != 6:
        sim.cmd("INSERT L 6")
    sim.cmd("KEY 2 0 K +")
    st = sim.json("STATE")
    assert st["error"] == "store-damaged" and st["entry"] == ""  # taken: no store-failed
    bal = _bal(sim)
    assert bal[5] == START + 120000
    sim.kill9()
    sim = Sim(state, python=python)
    assert _bal(sim) == bal
    sim.stop()
    with open(os.path.join(str(state), "bank.b.folder", "x")) as f:
        assert f.read() == "a file of the user's"  # kept, under a name the store never reads


def _stdio(python, state, *lines):
    cmd = [python, "-m", "simulator", "--headless", "--stdio", "--state", str(state),
           "--virtual-clock", "--seed", "1"]
    out = subprocess.run(cmd, cwd=ROOT, input="".join(x + "\n" for x in lines).encode(),
                         capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return [x for x in out.stdout.decode().splitlines() if not x.startswith("!")]


def test_the_unix_port_simulator_reads_and_writes_the_same_store(state):
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        pytest.skip("no MicroPython unix port in this venv (Linux x86_64 only)")
    sim = Sim(state)
    sim.cmd("INSERT L 2")
    sim.cmd("KEY 3 0 K +")
    bal = _bal(sim)
    sim.kill9()
    out = _stdio(mp, state, "BALANCES", "INSERT L 2", "KEY 2 0 K +", "BALANCES", "HELLO")
    assert json.loads(out[0][3:]) == {str(c + 1): b for c, b in enumerate(bal)}
    bal2 = json.loads(out[3][3:])
    assert bal2["2"] == bal[1] + 20000 and json.loads(out[4][3:])["store"] == "ok"
    sim = Sim(state)
    assert _bal(sim) == [bal2[str(c)] for c in range(1, 7)]
    sim.stop()


@pytest.fixture(params=["cpython", "micropython"])
def python(request):
    """Each interpreter the simulator runs under (the unix port where this venv has it)."""
    if request.param == "cpython":
        return sys.executable
    if not os.path.exists(MICROPYTHON):
        pytest.skip("no MicroPython unix port in this venv (Linux x86_64 only)")
    return MICROPYTHON


def _flip(path, pos, bit=0x10):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        data[pos] ^= bit
        f.seek(0)
        f.write(data)


def _hello(sim):
    return json.loads(sim.cmd("HELLO")[3:])["store"]


def test_a_last_line_without_its_newline_does_not_count(state, python):  # B17
    # All of an append but its "\n" on the disk (a short write to a full disk, which the unit
    # answered store-failed): never acknowledged, so the next boot does not count it.
    sim = Sim(state, python=python)
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    bal = _bal(sim)
    sim.stop()
    slot = os.path.join(str(state), "bank.a")  # a new store's first slot, its journal after
    with open(slot, "rb") as f:
        assert f.read().endswith(b" r 1 receive 0 6 100000 0 %d 0 serial\n" % bal[5])
    rec = b"r 2 receive 0 6 50000 0 %d 0 serial" % (bal[5] + 50000)
    with open(slot, "ab") as f:
        f.write(b"%08x " % zlib.crc32(rec) + rec)
    sim = Sim(state, python=python)
    assert _hello(sim) == "ok" and _bal(sim) == bal
    assert [t["seq"] for t in sim.json("LOG")] == [1]
    sim.stop()


def test_without_a_good_copy_no_balances_are_reported(state, python):  # B17
    sim = Sim(state, python=python)
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    sim.stop()
    for name in ("bank.a", "bank.b"):
        if os.path.exists(os.path.join(str(state), name)):
            _flip(os.path.join(str(state), name), 12)  # every slot's header
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and sim.json("STATE")["display"]["text"] == "Err6"
    for cmd in ("BALANCES", "LOG", "BACKUP"):
        assert sim.cmd(cmd).startswith("ERR no-game no good copy of the game (Err6)"), cmd
    sim.json("HOLD C 3000")  # B11: the banker's new game
    assert _bal(sim) == [START] * 6
    sim.stop()


def test_a_damaged_names_file_is_reported_and_the_good_copy_used(state, python):  # B17
    sim = Sim(state, python=python)
    sim.json("NAME 1 Ann")
    sim.json("NAME 3 Cy")  # the newest names; the file before holds Ann alone
    sim.stop()
    files = [os.path.join(str(state), n) for n in ("bank.n0", "bank.n1")]
    newest = max(files, key=lambda n: open(n, "rb").read()[9:10])
    other = [n for n in files if n != newest][0]
    size = os.path.getsize(newest)
    for pos in (0, 9, size // 2, size - 1):  # the CRC, the generation, a name, the newline
        _flip(newest, pos)
        sim = Sim(state, python=python)
        assert _hello(sim) == "damaged", pos
        got = sim.json("NAMES")
        assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged"), (pos, got)
        assert sim.json("STATE")["error"] == "store-damaged"
        sim.stop()
        _flip(newest, pos)  # put back: the next flip is the only damage
    _flip(newest, 12)
    _flip(other, 12)
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged"
    assert sim.json("NAMES") == {"1": None, "2": None, "3": None, "4": None, "5": None,
                                 "6": None, "store": "damaged"}
    sim.stop()


def test_names_damaged_while_running_are_reported(state, python):  # B17
    sim = Sim(state, python=python)
    sim.json("NAME 1 Ann")
    sim.json("NAME 3 Cy")
    assert _hello(sim) == "new" and "store" not in sim.json("NAMES")
    newest = max((os.path.join(str(state), n) for n in ("bank.n0", "bank.n1")),
                 key=lambda n: open(n, "rb").read()[9:10])
    _flip(newest, 15)
    got = sim.json("NAMES")
    assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged")
    assert _hello(sim) == "damaged" and sim.json("STATE")["error"] == "store-damaged"
    sim.stop()


def _game_file(state):
    games = [n for n in os.listdir(str(state)) if n.startswith("game.")]
    assert len(games) == 1, games
    return os.path.join(str(state), games[0]), int(games[0][5:])


def test_a_kept_game_damaged_while_running_stays_reported_through_a_hosts_key(state, python):
    # B11, B17: only a key on the unit's own keypad is the banker having seen it
    # (tests/core/test_games.py presses one); a host's KEY C over TCP is none.
    sim = Sim(state, "--maintenance", python=python)
    sim.cmd("INSERT L 2")
    sim.cmd("KEY 1 M +")
    sim.cmd("REMOVE L")
    sim.json("NEWGAME")
    path, gid = _game_file(state)
    assert [g["damaged"] for g in sim.json("GAMES")] == [False]
    _flip(path, os.path.getsize(path) // 2)  # the flash goes bad under the running unit
    lost = {"id": gid, "profile": None, "seq": gid, "transactions": None, "balances": None,
            "number": 1, "kept": None, "damaged": True}
    assert sim.json("GAMES") == [lost]
    assert sim.cmd("RESTORE GAME %d" % gid).startswith("ERR game-damaged game 1 ")
    assert _hello(sim) == "damaged" and sim.json("STATE")["error"] == "store-damaged"
    sim.json("SET BALANCE 4 14000000")  # a change, but no key: nobody has seen it yet
    sim.stop()
    sim = Sim(state, "--maintenance", python=python)
    assert _hello(sim) == "damaged" and sim.json("GAMES") == [lost]  # named, still reported
    assert sim.json("KEY C")["error"] == "store-damaged"  # a host's key: nobody saw it
    assert sim.json("GAMES") == [lost]
    sim.cmd("INSERT L 5")
    sim.cmd("KEY 1 M +")
    sim.stop()
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and sim.json("GAMES") == [lost]
    assert os.path.exists(path)
    assert _bal(sim)[3:5] == [14000000, START + 1000000]
    sim.stop()


def _one_kept(state, python):
    """A simulator (maintenance) whose game with a Go is kept by a new game: (sim, GAMES)."""
    sim = Sim(state, "--maintenance", python=python)
    sim.cmd("INSERT L 2")
    sim.cmd("KEY 1 M +")
    sim.cmd("REMOVE L")
    sim.json("NEWGAME")
    return sim, sim.json("GAMES")


def test_game_files_no_header_names_are_removed_at_boot(state, python):
    sim, kept = _one_kept(state, python)
    sim.kill9()
    path, gid = _game_file(state)
    with open(path, "rb") as f:
        data = f.read()
    for k in range(1, 6):  # what kills between a game's file and its checkpoint leave
        with open(os.path.join(str(state), "game.%d" % (gid + 100 + k)), "wb") as f:
            f.write(data[:len(data) * k // 6])
    sim = Sim(state, python=python)
    assert _hello(sim) == "ok" and sim.json("GAMES") == kept
    assert [n for n in os.listdir(str(state)) if n.startswith("game.")] == ["game.%d" % gid]
    sim.stop()


def test_stray_file_names_in_the_state_folder_stop_nothing(state, python):  # B11, B17
    # A name no store writes: digits that are no ASCII ('²' is a digit to CPython's isdigit
    # and no int), bytes that are no UTF-8 (MicroPython's listdir raised UnicodeError): the
    # simulator would not start at all.
    sim, kept = _one_kept(state, python)
    sim.stop()
    d = os.fsencode(str(state))
    for name in ("game.\u00b2".encode(), b"game.\xff", b"bank.n\xff"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(b"stray\n")
    sim = Sim(state, python=python)
    try:
        assert _hello(sim) == "ok" and sim.json("GAMES") == kept and len(kept) == 1
    finally:
        sim.stop()


def test_a_kept_game_comes_back_with_its_history(state, python):  # B11
    sim = Sim(state, "--maintenance", python=python)
    sim.cmd("INSERT R 3")
    sim.cmd("INSERT L 6")
    for keys in ("2 5 0 K -", "1 M -", "C"):  # two transfers, the last undone (B10)
        sim.json("KEY " + keys)
    sim.cmd("REMOVE L")
    sim.cmd("REMOVE R")
    before = sim.json("LOG 200")
    assert [t["kind"] for t in before] == ["transfer", "transfer", "undo"]
    sim.json("NEWGAME")
    sim.cmd("INSERT L 1")
    sim.json("KEY M")
    sim.cmd("REMOVE L")
    (g,) = sim.json("GAMES")
    assert (g["number"], g["transactions"], g["kept"]) == (1, 3, None)  # a virtual clock
    sim.json("RESTORE GAME %d" % g["id"])
    after = sim.json("LOG 200")
    assert after[:-1] == before and after[-1]["kind"] == "restore"
    sim.stop()
    sim = Sim(state, python=python)
    assert sim.json("LOG 200") == after and _hello(sim) == "ok"
    (g,) = sim.json("GAMES")
    assert g["number"] == 2 and [t["kind"] for t in sim.json("LOG 1")] == ["restore"]
    sim.stop()


def test_a_game_is_dated_when_put_away_where_the_simulator_knows_the_time(state, python):
    import time

    sim = Sim(state, "--maintenance", python=python, virtual=False)
    sim.cmd("INSERT L 2")
    sim.cmd("KEY 1 M +")
    sim.cmd("REMOVE L")
    t0 = int(time.time())
    sim.json("NEWGAME")
    t1 = time.time()
    (g,) = sim.json("GAMES")
    assert g["number"] == 1 and t0 <= g["kept"] <= t1
    sim.stop()


def test_store_files_there_but_unreadable_are_damage_never_an_empty_store(state, python):
    # B17: a file that is there and does not read (a directory in its place here; no
    # permission or a failing disk alike) is damage, on either interpreter: never a file that
    # is not there, which would make a lost game a fresh one at 15 M.
    sim = Sim(state, python=python)
    sim.json("NAME 1 Ann")
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    bal = _bal(sim)
    sim.stop()
    d = str(state)
    os.mkdir(os.path.join(d, "bank.b"))  # the slot not in use
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and _bal(sim) == bal and sim.json("NAMES")["1"] == "Ann"
    sim.stop()
    os.rmdir(os.path.join(d, "bank.b"))
    os.rename(os.path.join(d, "bank.a"), os.path.join(d, "kept-aside"))
    os.remove(os.path.join(d, "bank.id"))
    os.mkdir(os.path.join(d, "bank.id"))  # the marker, unreadable, and no slot
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and sim.json("STATE")["display"]["text"] == "Err6"
    sim.stop()
    os.rmdir(os.path.join(d, "bank.id"))  # no marker: the names file still says a store was
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and sim.json("STATE")["display"]["text"] == "Err6"
    sim.stop()
    os.rename(os.path.join(d, "kept-aside"), os.path.join(d, "bank.a"))
    names = [n for n in os.listdir(d) if n.startswith("bank.n")]
    for n in names:
        os.rename(os.path.join(d, n), os.path.join(d, n + "-aside"))
        os.mkdir(os.path.join(d, n))  # the names, unreadable
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and _bal(sim) == bal and sim.json("NAMES")["1"] is None
    sim.stop()


def test_a_fifo_in_a_store_files_place_is_damage_and_never_holds_the_boot(state, python):
    # B17: a named pipe where the slot not in use is (no writer will ever come) would hold the
    # boot's read for ever: it is a file that does not read, as a directory there is.
    sim = Sim(state, python=python)
    sim.cmd("INSERT L 6")
    sim.cmd("KEY 1 0 0 K +")
    bal = _bal(sim)
    sim.stop()
    os.mkfifo(os.path.join(str(state), "bank.b"))
    sim = Sim(state, python=python)
    assert _hello(sim) == "damaged" and _bal(sim) == bal
    sim.stop()


def test_a_slot_removed_or_cut_under_a_running_unit_costs_no_acknowledged_move(state, python):
    # B17: the store appends only to a slot as long as it left it; one removed, emptied or cut
    # under the unit is no longer the game, and the next move writes the game whole elsewhere.
    for harm in ("remove", "empty", "cut"):
        d = os.path.join(str(state), harm)
        sim = Sim(d, python=python)
        sim.cmd("INSERT L 6")
        sim.cmd("KEY 1 0 0 K +")
        slot = max((os.path.join(d, n) for n in ("bank.a", "bank.b")
                    if os.path.exists(os.path.join(d, n))), key=os.path.getmtime)
        if harm == "remove":
            os.remove(slot)
        else:
            with open(slot, "r+b") as f:
                f.truncate(0 if harm == "empty" else os.path.getsize(slot) - 5)
        for _ in range(2):
            assert sim.json("KEY 1 0 0 K +")["error"] is None, harm
        bal = _bal(sim)
        assert bal[5] == START + 300000
        sim.stop()
        sim = Sim(d, python=python)
        assert _bal(sim) == bal, harm
        assert [t["seq"] for t in sim.json("LOG")] == [1, 2, 3], harm
        sim.stop()
