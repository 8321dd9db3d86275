"""`python -m simulator --table [PORT] [--lan]` and `bank table [PORT] [--lan]` as a user runs
them (docs/table.md): real processes, a real unit's protocol over TCP, the phones' stream read
as a phone's browser reads it. Nothing is sent to any address but 127.0.0.1."""

import os
import signal
import socket
import subprocess
import sys

import pytest

from host_tools import Bank
from tests.tablephones import ROOT, Phone, Proc, bank_table, free_port, listening, simulator


def test_the_simulator_prints_the_tables_link_and_serves_it_on_this_machine_only():
    p, tcp, url = simulator()
    try:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        port = int(url.split(":")[2].split("/")[0])
        secret = url.split("/")[3]
        assert len(secret) >= 16
        assert listening(port) == ["127.0.0.1"]
        assert listening(int(tcp.split(":")[1])) == ["127.0.0.1"]
        phone = Phone(url)
        assert phone.until(lambda v: v["unit"] == "live")["balances"]["1"] == 15000000
    finally:
        p.stop()


def test_lan_serves_the_table_to_the_network_with_its_qr_code_and_the_protocol_stays_local():
    from simulator import web

    addr = web.lan_address()
    if addr is None:
        pytest.skip("this machine has no local network address to print")
    p, tcp, url = simulator("--lan")
    try:
        port = int(url.split(":")[2].split("/")[0])
        assert url.startswith("http://%s:%d/" % (addr, port))
        qr = [p.p.stdout.readline().rstrip("\n")]
        while len(qr) < (len(qr[0]) + 1) // 2:  # two rows of modules a line: a square
            qr.append(p.p.stdout.readline().rstrip("\n"))
        assert len(qr) >= 15 and {len(x) for x in qr} == {len(qr[0])}
        assert set("".join(qr)) <= set(" \u2580\u2584\u2588")
        assert listening(port) == ["0.0.0.0"]
        # Nothing on the network reaches the protocol: its TCP port stays on 127.0.0.1.
        assert listening(int(tcp.split(":")[1])) == ["127.0.0.1"]
        phone = Phone(url.replace(addr, "127.0.0.1"))  # the tests send nothing to the network
        phone.until(lambda v: v["unit"] == "live")
    finally:
        p.stop()


def test_a_move_on_the_unit_reaches_the_phone_as_the_unit_shows_it():
    p, tcp, url = simulator()
    try:
        phone = Phone(url)
        phone.until(lambda v: v["unit"] == "live")
        with Bank.open("socket://" + tcp) as bank:
            bank.insert("R", 2)
            bank.insert("L", 5)
            bank.press("1 . 5 M -")  # B6: card 2 pays card 5 (how soon: make bench)
            view = phone.until(lambda v: v["log"] and v["log"][-1]["kind"] == "transfer", 5)
            assert view["balances"] == {str(c): v for c, v in bank.balances().items()}
        t = view["log"][-1]
        assert (t["from"], t["to"], t["shown"], t["shown_balances"]) == (
            2, 5, "1.5 M", {"2": "13.5 M", "5": "16.5 M"})
    finally:
        p.stop()


def test_with_stdio_the_tables_line_goes_to_stderr_and_the_protocol_is_untouched():
    got = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio",
                          "--virtual-clock", "--table", "0"], cwd=ROOT, input="HELLO\nSTATE\n",
                         capture_output=True, text=True, timeout=30)
    plain = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio",
                            "--virtual-clock"], cwd=ROOT, input="HELLO\nSTATE\n",
                           capture_output=True, text=True, timeout=30)
    assert got.returncode == 0 and got.stdout == plain.stdout
    assert got.stderr.startswith("table http://127.0.0.1:"), got.stderr


@pytest.mark.parametrize("args, says", [
    (["--lan"], "--lan goes with --table (or --web)"),
    (["--pico", "--table"], "--pico takes an image, --rfid and --lang only"),
    (["--table", "70000"], "--table takes a number from 0 to 65535"),
])
def test_what_the_table_cannot_do_is_one_line_and_exit_2(args, says):
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and says in p.stderr.splitlines()[0], p.stderr
    assert "Traceback" not in p.stderr


def test_a_table_port_in_use_is_one_line_and_exit_2():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--tcp", "0",
                            "--table", str(port)], cwd=ROOT, capture_output=True, text=True,
                           timeout=30)
    finally:
        taken.close()
    assert p.returncode == 2
    assert p.stdout == ""  # no "listening" line for a script to connect to a simulator gone
    assert p.stderr == ("simulator: cannot serve the table on 127.0.0.1:%d: port %d is in use "
                        "on 127.0.0.1 (another table?); --table 0 picks a free one\n"
                        % (port, port))


def test_bank_table_on_a_port_in_use_names_its_own_way_to_a_free_one():
    p, tcp, _ = simulator()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        got = subprocess.run([sys.executable, "-m", "host_tools", "-p", "socket://" + tcp,
                              "table", str(port)], cwd=ROOT, capture_output=True, text=True,
                             timeout=30)
    finally:
        taken.close()
        p.stop()
    assert got.returncode == 2
    assert got.stderr == ("bank: cannot serve the table on 127.0.0.1:%d: port %d is in use on "
                          "127.0.0.1 (another table?); bank table 0 picks a free one\n"
                          % (port, port))


def test_the_table_needs_cpython_and_says_so_under_micropython():
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        pytest.skip("no MicroPython unix port here")
    p = subprocess.run([mp, "-m", "simulator", "--headless", "--table"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert p.stderr == "simulator: --table needs CPython (its web server's threads)\n"


def test_the_tables_line_takes_none_of_the_eight_tcp_places():
    p, tcp, url = simulator()
    banks = []
    try:
        for _ in range(8):  # docs/simulator.md, "Serving": 8 clients at once
            banks.append(Bank.open("socket://" + tcp))
        assert all(b.balances()[1] == 15000000 for b in banks)
    finally:
        for b in banks:
            b.close()
        p.stop()


def test_the_server_stopped_and_started_again_mid_game_keeps_its_link_and_the_game(tmp_path):
    port = free_port()
    state = str(tmp_path / "game")
    p, tcp, url = simulator("--state", state, table=str(port))
    try:
        with Bank.open("socket://" + tcp) as bank:
            bank.insert("L", 3)
            bank.press("2M+")
        phone = Phone(url)
        phone.until(lambda v: v["balances"].get("3") == 17000000)
    finally:
        p.stop()
    # The server gone: the phone's stream ends (it says so), after whatever it sent before (the
    # changes, and a ping should five seconds have passed without one).
    sent = [phone.next() for _ in range(5)]
    assert None in sent and all(m[0] in ("update", "ping") for m in sent[:sent.index(None)]), sent
    p, tcp, again = simulator("--state", state, table=str(port))
    try:
        assert again == url  # the phones' link is the same: they come back by themselves
        phone = Phone(url)
        view = phone.until(lambda v: v["unit"] == "live")
        assert view["balances"]["3"] == 17000000 and [t["seq"] for t in view["log"]] == [1]
    finally:
        p.stop()


def test_bank_table_follows_a_unit_that_goes_and_comes_back(tmp_path):
    unit_port = free_port()
    state = str(tmp_path / "unit")

    def unit():
        u = Proc([sys.executable, "-m", "simulator", "--headless", "--tcp", str(unit_port),
                  "--state", state])
        u.line("listening tcp ")
        return u

    u = unit()
    t, url = bank_table("127.0.0.1:%d" % unit_port, "0", "--state", str(tmp_path / "t"))
    try:
        phone = Phone(url)
        phone.until(lambda v: v["unit"] == "live")
        with Bank.open("socket://127.0.0.1:%d" % unit_port) as bank:
            bank.insert("L", 6)
            bank.press("300K+")
        phone.until(lambda v: v["balances"].get("6") == 15300000)
        u.stop()  # unplugged
        phone.until(lambda v: v["unit"] == "gone", 5)
        assert phone.view["balances"]["6"] == 15300000  # what it last gave, kept
        u = unit()  # plugged back: the view comes back by itself
        view = phone.until(lambda v: v["unit"] == "live", 8)
        assert view["balances"]["6"] == 15300000 and view["log"][-1]["amount"] == 300000
    finally:
        u.stop()
        out, err = t.stop(signal.SIGINT)
    assert t.p.returncode == 0 and "Traceback" not in err, err


def test_bank_table_keeps_its_link_between_runs(tmp_path):
    p, tcp, _ = simulator()
    try:
        port = free_port()
        first, url = bank_table(tcp, str(port), "--state", str(tmp_path))
        first.stop(signal.SIGINT)
        second, again = bank_table(tcp, str(port), "--state", str(tmp_path))
        second.stop(signal.SIGINT)
        assert again == url == "http://127.0.0.1:%d/%s/" % (port, url.split("/")[3])
    finally:
        p.stop()


def test_bank_table_stopped_by_sigterm_ends_the_phones_streams_with_status_0():
    p, tcp, _ = simulator()
    try:
        t, url = bank_table(tcp, "0")
        phone = Phone(url)
        phone.until(lambda v: v["unit"] == "live")
        out, err = t.stop(signal.SIGTERM)
        assert t.p.returncode == 0 and "Traceback" not in err, err
        sent = [phone.next() for _ in range(5)]
        assert None in sent, sent  # the phone is told the stream ended, as at Ctrl-C
    finally:
        p.stop()


def test_bank_table_follows_a_unit_on_a_serial_line():
    # A pty is a serial line as a Pico's USB port is one: pyserial opens it as a device.
    u = Proc([sys.executable, "-m", "simulator", "--headless", "--pty"])
    try:
        path = u.line("listening pty ").split()[-1]
        t = Proc([sys.executable, "-m", "host_tools", "-p", path, "table", "0"])
        url = t.line("table ").split()[1]
        try:
            phone = Phone(url)
            view = phone.until(lambda v: v["unit"] == "live")
            assert view["balances"] == {str(c): 15000000 for c in range(1, 7)}
        finally:
            t.stop(signal.SIGINT)
    finally:
        u.stop()
