"""The table view served by the interactive simulator (docs/table.md): `python -m simulator
--table PORT` as the window on Xvfb (played with X input events) and as the terminal front end
(in tmux), each followed by a phone's stream. What the person at the unit does reaches the
phone within half a second; the table's own line to the unit moves nothing the window draws."""

import os
import time

import pytest
from test_terminal import Tmux

from tests.tablephones import Phone, free_port
from tools import xvfb


def secret(env):
    with open(os.path.join(env["BANK_SIM_STATE"], "table.secret")) as f:
        return f.read().strip()


def test_the_window_serves_its_table_and_a_phone_follows_its_keys(xdisplay, quiet_env):
    if xvfb.missing_tools():
        pytest.skip("missing %s (make gui-deps)" % ", ".join(xvfb.missing_tools()))
    port = free_port()
    w = xvfb.LiveWindow(xdisplay, ["--seed", "3", "--table", str(port)], env=quiet_env)
    try:
        phone = served(Phone, "http://127.0.0.1:%d/%s/" % (port, secret(quiet_env)))
        phone.until(lambda v: v["unit"] == "live")
        assert w.wait_shown(("0", False, False, True), timeout=15)  # slow on a loaded machine
        w.drag_card(1, "L")
        w.wait_shown(("15", False, True), timeout=3)
        w.keys("1", "5", "0", "k")
        w.wait_shown(("150", True, False))
        w.click_key("+")  # B4, at the window's own keypad (how soon the phone hears: make bench)
        view = phone.until(lambda v: v["balances"].get("1") == 15150000, 5)
        assert view["log"][-1]["kind"] == "receive"
        assert w.command("NAME 1 Ann").startswith("OK")  # a host names the card ...
        phone.until(lambda v: v["names"]["1"] == "Ann", 3)  # ... and the phones say so
        w.wait_shown(("15.15", False, True))  # the window still shows what it showed
    finally:
        w.stop()


def test_the_terminal_says_where_the_table_is_and_a_phone_follows_its_keys(quiet_env):
    port = free_port()
    p = Tmux(quiet_env, ("--seed", "1", "--table", str(port)), cols=100, rows=40)
    try:
        url = "http://127.0.0.1:%d/%s/" % (port, secret_when_there(quiet_env))
        p.seen("phones at the table: " + url)
        phone = served(Phone, url)
        phone.until(lambda v: v["unit"] == "live")
        p.type("l1")  # card 1 into L
        p.wait_shown(("15", False, True), timeout=3)
        p.type("150k+")
        phone.until(lambda v: v["balances"].get("1") == 15150000, 2)
        p.type("t")  # the link's QR code, for the phones' cameras, in the terminal itself
        p.seen("t: back to the unit")
        from simulator.lan import qr_block

        code = [" " + line for line in qr_block(url).splitlines()]
        screen = [line.rstrip() for line in p.screen()]
        assert [line.rstrip() for line in code] == screen[1:1 + len(code)]
        p.type("t")
        p.wait_shown(("15.15", False, True))
    finally:
        p.stop()


def secret_when_there(env, timeout=10):
    end = time.monotonic() + timeout
    while True:
        try:
            return secret(env)
        except OSError:
            assert time.monotonic() < end, "no table.secret in the state folder"
            time.sleep(0.05)


def served(phone, url, timeout=10):
    """A phone following url, once the window (mapped before its loop runs) serves it."""
    end = time.monotonic() + timeout
    while True:
        try:
            return phone(url)
        except ConnectionRefusedError:
            assert time.monotonic() < end, "the table is not served"
            time.sleep(0.05)
