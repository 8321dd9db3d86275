"""The USB serial protocol on the emulated Pico, while a player uses the keypad and the slots.

A host on the USB port (the emulated host enumerates the Pico's CDC port as a computer does,
and sends a packet only when it has bytes, rig.py), the genuine rp2 port underneath: replies,
events and what the glass shows must agree, and nothing a host sends or fails to send may stop
the keypad. HELLO names the firmware: the frozen image ("+frozen") or deployed files
("+files"), and the build.
"""

import json
import os

import pytest

from host_tools import manifest
from tests.pico import rig
from tests.pico.play import expect, insert, press, shown, type_keys, wait_shown


@pytest.fixture(scope="module")
def pico(image):
    p = rig.Pico(image, usb=True, vbus=True)
    p.boot()
    return p


def state(pico):
    reply = pico.command("STATE")
    assert reply.startswith("OK {"), reply
    return json.loads(reply[3:])


@pytest.mark.parametrize("noise", ["\r\n", "\r", "\n", "HEL"], ids=["crlf", "cr", "lf", "half"])
def test_line_ends_or_half_a_line_never_stop_the_keypad(pico, noise):
    """Whatever arrives on serial, or does not, the keys keep working; the
    first case is a line end before any other byte a host ever sent (a terminal's Enter)."""
    pico.send(noise)
    pico.run(30)
    type_keys(pico, "1 0 K")
    assert shown(pico) == expect("10", "k")
    press(pico, "C")
    assert shown(pico) == expect("0")
    if noise == "HEL":
        start = len(pico.rx)
        pico.send("\n")  # the half line ends: one ERR, and the protocol goes on
        assert pico.reply(start) == "ERR unknown-command HEL"
    assert pico.command("HELLO").startswith("OK ")


def test_hello_over_usb(pico):
    reply = pico.command("HELLO")
    assert reply.startswith("OK ")
    hello = json.loads(reply[3:])
    assert hello["device"] == "bank-unit" and hello["protocol"] == 1
    assert hello["store"] in ("new", "ok")


def test_hello_says_which_firmware_it_is(pico, image, version):
    got = json.loads(pico.command("HELLO")[3:])["firmware"]
    kind = "frozen" if version == rig.FROZEN else "files"
    assert got.endswith("+" + kind), got
    built = got[:-len("+" + kind)]
    assert built.startswith(manifest.base_version())
    if kind == "files":
        assert built == manifest.describe()  # this checkout, as deploy writes it
    else:
        name = os.path.basename(image)
        assert name == "bank-unit-%s-RPI_PICO.uf2" % built  # the build the file is named for


def test_a_host_with_nothing_to_send_lets_the_unit_sleep(pico):
    """A real host sends an OUT packet only when a program writes to the port (rig.py): with
    the host enumerated and silent the loop sleeps between its deadlines, as with no host."""
    pico.run(300)
    c0, t0 = pico.mcu.core.cycles, pico.now_ms()
    pico.run(1000)
    busy = (pico.mcu.core.cycles - c0) / ((pico.now_ms() - t0) * 125e3)  # 125 MHz
    assert busy < 0.1, "the core was busy %.0f %% of an idle second" % (busy * 100)
    assert pico.command("HELLO").startswith("OK {")  # and the port answers at once


def test_the_protocol_sees_what_the_pins_did_and_the_glass_agrees(pico):
    assert pico.command("EVENTS ON") == "OK"
    insert(pico, "L", 2)
    wait_shown(pico, "2", timeout_ms=400)
    type_keys(pico, "3 0 0 K +")  # B4, through the keypad
    assert shown(pico) == expect("15.3", "M")
    st = state(pico)
    assert st["display"] == {"text": "15.3", "k": False, "M": True}
    assert st["slots"] == {"L": 2, "R": None}
    assert json.loads(pico.command("BALANCES")[3:])["2"] == 15300000
    log = json.loads(pico.command("LOG 1")[3:])
    assert log[-1]["kind"] == "receive" and log[-1]["amount"] == 300000
    assert log[-1]["via"] == "key"
    events = [line for line in pico.lines() if line.startswith("! txn")]
    assert events, "no ! txn event for a keypad transaction"


def test_keys_over_serial_show_on_the_glass(pico):
    reply = pico.command("KEY 1 0 0 K +")
    assert reply.startswith("OK ")
    assert json.loads(reply[3:])["display"]["text"] == "15.4"
    pico.run(30)
    assert shown(pico) == expect("15.4", "M")


def test_a_bad_line_changes_nothing(pico):
    before = pico.command("BALANCES")
    assert pico.command("KEY 1 X").startswith("ERR bad-key")
    assert pico.command("FROBNICATE").startswith("ERR unknown-command")
    assert pico.command("x" * 300).startswith("ERR line-too-long")
    assert pico.command("BALANCES") == before


def test_a_card_over_serial_while_keys_are_pressed(pico):
    start = len(pico.rx)
    pico.parts.keys.press("5")
    pico.send("INSERT R 6\n")
    pico.run(60)
    pico.parts.keys.release("5")
    pico.run(200)
    text = bytes(pico.rx[start:]).decode()
    assert "OK {" in text
    st = state(pico)
    assert st["slots"] == {"L": 2, "R": 6}


def test_a_host_that_reads_gets_every_event_of_a_long_key_line(pico):
    """One KEY line of 90 keys: its 90 clicks and its reply, none dropped, whatever the unit
    keeps for a host that does not read."""
    assert pico.command("EVENTS ON") == "OK"
    start = len(pico.rx)
    reply = pico.command("KEY " + " ".join(["1", "C"] * 45), timeout_ms=10000)
    assert reply.startswith("OK {"), reply
    got = bytes(pico.rx[start:]).decode().replace("\r\n", "\n").split("\n")
    assert got.count('! tone {"name": "click"}') == 90, got
    assert not [line for line in got if line.startswith("! lost")]


def test_a_host_that_stops_reading_never_stops_the_keypad(pico):
    """A host keeps the port open, events on, and reads nothing more: the USB port fills, yet
    every key lands on the glass and every payment is made. Its next command waits for it; once
    it reads again it gets the lines kept for it, word of the events dropped, then its answer."""
    for slot in ("L", "R"):
        if state(pico)["slots"][slot] is not None:
            assert pico.command("REMOVE " + slot).startswith("OK")
    assert pico.command("INSERT L 3").startswith("OK")
    before = json.loads(pico.command("BALANCES")[3:])["3"]
    assert pico.command("EVENTS ON") == "OK"
    start = len(pico.rx)
    pico.stop_reading()
    for paid in range(1, 13):
        type_keys(pico, "1 0 K")
        assert shown(pico) == expect("10", "k")
        press(pico, "+")
        assert shown(pico) == expect("%g" % ((before + paid * 10000) / 1e6), "M")
    pico.send("BALANCES\n")
    pico.run(200)
    pico.read_again()
    pico.run_until(lambda: b"\nOK {" in pico.rx[start:], 3000)
    pico.run(100)
    got = bytes(pico.rx[start:]).decode().replace("\r\n", "\n").split("\n")[:-1]
    lost = [line for line in got if line.startswith("! lost ")]
    assert len(lost) == 1 and json.loads(lost[0][7:])["events"] > 0, got
    assert got.index(lost[0]) == len(got) - 2, "the word of the loss comes just before the answer"
    assert json.loads(got[-1][3:])["3"] == before + 12 * 10000
    assert pico.command("HELLO").startswith("OK {")


def test_a_host_plugged_in_again_after_it_stopped_reading_is_answered(image, version):
    """The unit's events fill the port's buffer while the host reads none; a bus reset keeps
    the buffer (MicroPython's) and sends nothing until something writes: the unit's next write
    starts it, and the new host's command is answered. v1.25.0's write with no room only waits,
    once, up to its half-second timeout, and starts nothing; rp2040py's host sends no SOF, at
    which MicroPython flushes the buffer for a host that opens the port: there the port stays
    full, and the keys still work (a Pico of its own: the port stays so)."""
    pico = rig.Pico(image, usb=True, vbus=True)
    pico.boot()
    assert pico.command("EVENTS ON") == "OK"
    pico.stop_reading()
    for _ in range(5):
        type_keys(pico, "1 0 K C")
    pico.plug_in()
    pico.read_again()
    start = len(pico.rx)
    pico.send("HELLO\n")
    pico.run(600)
    for key in ("2 0 K", "3 0 K"):  # the keys never wait on the port
        type_keys(pico, "C " + key)
        assert shown(pico) == expect(key.replace(" ", "")[:2], "k")
    press(pico, "C")
    if version == "1.25.0":
        return
    pico.run_until(lambda: b"OK {" in pico.rx[start:], 3000)
    assert pico.command("HELLO").startswith("OK {")


def test_a_host_plugged_in_at_any_point_of_a_long_reply_is_answered(image):
    """docs/protocol.md, "A host that stops reading": a computer plugged in (or rebooted) while
    the unit writes a long reply to the one before is enumerated and answered, wherever in the
    reply its bus reset falls, and though it sends HELLO the moment it has opened the port,
    before the unit has seen the re-plug: the old host left no bytes unread, so those are the
    new host's. The port sends the next host what it had taken of the old reply
    first, cut mid-line: the unit ends that line, so that its reply to the new host's HELLO
    starts a line of its own. The reset could fall between the unit's look at the port and its
    write, which TinyUSB then started on an endpoint the reset had cleared: a panic, and the
    unit deaf and frozen to every host after (a Pico of its own: the points are a fixed spread,
    and what the port holds at each depends on the re-plugs before)."""
    pico = rig.Pico(image, usb=True, vbus=True)
    pico.boot()
    assert pico.command("INSERT L 2").startswith("OK")
    for _ in range(20):
        assert pico.command("KEY 1 0 K +").startswith("OK")
    for at_ms in (54, 102, 180, 198, 305, 339):
        pico.send("LOG\n")  # 20 transactions: more than the port holds
        pico.run(at_ms)
        pico.plug_in()
        start = len(pico.rx)
        pico.send("HELLO\n")
        pico.run_until(lambda start=start: b'\nOK {"device"' in pico.rx[start - 1:], 1000)
    reply = pico.command("HELLO")
    assert reply.startswith('OK {"device"'), reply
    press(pico, "5")
    assert shown(pico) == expect("5")


@pytest.mark.parametrize("leaves", ["closes the port", "is unplugged"])
def test_a_half_line_left_by_a_host_that_goes_is_dropped(pico, leaves):
    """docs/protocol.md, "Lines": a host that closes the port (DTR dropped, as a terminal or a
    dying script's port does), or whose cable is pulled and plugged in again (a bus reset and a
    new enumeration, ending on the request the old session ended on), leaves its half line
    behind; the next host's line is its own (B4: 150 K received, not 2,150 K), and a host that
    stays finishes its own line."""
    for slot in ("L", "R"):
        if state(pico)["slots"][slot] is not None:
            assert pico.command("REMOVE " + slot).startswith("OK")
    assert pico.command("INSERT L 4").startswith("OK")
    before = json.loads(pico.command("BALANCES")[3:])["4"]
    pico.send("KEY 2")
    pico.run(20)
    if leaves == "closes the port":
        pico.cdc.set_control_lines(dtr=False, rts=False)
        pico.run(20)
        pico.cdc.set_control_lines(dtr=True, rts=True)  # the next host opens it
    else:
        pico.plug_in()
    pico.run(20)
    reply = pico.command("KEY 150K +")
    assert reply.startswith("OK {"), reply
    assert json.loads(pico.command("BALANCES")[3:])["4"] == before + 150000
    pico.send("KEY 1")  # a host that stays: its line is finished by its next bytes
    pico.run(50)
    reply = pico.command("0 K +")
    assert reply.startswith("OK {"), reply
    assert json.loads(pico.command("BALANCES")[3:])["4"] == before + 160000


def test_a_half_line_a_stalled_unit_left_unread_is_not_the_next_hosts_after_a_replug(image,
                                                                                    version):
    """docs/protocol.md, "Lines": a host that stopped reading stalls the unit, which then reads
    none of its bytes either; its half line waits in MicroPython's input buffer, which a bus
    reset keeps. Plugged in again, the next host's `+` is its own: not `KEY 5 0 K` finished
    (B4: 50 K received), a refusal with nothing typed."""
    if version == "1.25.0":
        pytest.skip("v1.25.0's port stays full after a bus reset in the emulator (its host "
                    "sends no SOF): the next host's line is never read there")
    pico = rig.Pico(image, usb=True, vbus=True)
    pico.boot()
    assert pico.command("INSERT L 1").startswith("OK")
    assert pico.command("EVENTS ON") == "OK"
    pico.stop_reading()
    for _ in range(30):
        type_keys(pico, "1 C")  # clicks: events the host leaves unread, until the port is full
    pico.send("KEY 5 0 K")
    pico.run(50)
    pico.plug_in()
    pico.read_again()
    pico.run(200)
    pico.send("+\n")
    pico.run(300)
    assert shown(pico) == expect("15", "M")  # card 1's 15 M, not 15.05 M
    reply = pico.command("BALANCES")
    assert json.loads(reply[3:])["1"] == 15000000, reply


@pytest.mark.parametrize("before", ["a keypad at rest", "another key just let go",
                                    "the same key just let go", "another key held down"])
def test_a_key_tapped_while_the_unit_builds_a_long_reply_is_not_lost(pico, before):
    """A player's brisk tap (50 ms) while a host's LOG of 20 transactions is put together (a
    long run of work between two looks at the keypad) counts as at any other time, even just
    after a key let go (its debounce lockout running, in which its contact may still chatter)
    or with another held down (in another column of the matrix: one in the held key's column
    changes no column's level): the digits are on the glass once the reply is out (B2: the
    entry shows as typed)."""
    for slot in ("L", "R"):
        if state(pico)["slots"][slot] is not None:
            assert pico.command("REMOVE " + slot).startswith("OK")
    assert pico.command("INSERT L 3").startswith("OK")
    while len(json.loads(pico.command("LOG")[3:])) < 20:
        assert pico.command("KEY 1 0 K +").startswith("OK")
    pico.run(200)
    first = {"a keypad at rest": "", "another key just let go": "1",
             "another key held down": "1"}.get(before, "7")
    tap = "8" if before == "another key held down" else "7"  # 1 and 7 share a column
    keys = pico.parts.keys
    if before == "another key held down":
        keys.press(first)
        pico.run(60)
    elif first:
        press(pico, first, gap_ms=5)
    sent = len(pico.rx)
    pico.send("LOG\n")
    pico.run(5)
    press(pico, tap, gap_ms=10)
    pico.run_until(lambda: b"]\n" in pico.rx[sent:], 3000)
    if before == "another key held down":
        keys.release(first)
    pico.run(100)
    assert shown(pico) == expect(first + tap)
    press(pico, "C")
    assert pico.command("REMOVE L").startswith("OK")


@pytest.mark.parametrize("after_ms", [10, 60])
def test_a_ctrl_c_as_the_unit_powers_up_never_stops_it(image, after_ms):
    """A host that opens the port as the unit boots (mpremote sends "\r\x03" as it does): the
    unit boots on and plays, never left dark at the MicroPython prompt (B16: on at power-up)."""
    p = rig.Pico(image, usb=True, vbus=True)
    p.run_until(lambda: p.connected_ms is not None, 6000)
    p.run(after_ms)
    p.send("\r\x03")
    p.run(1500)
    assert b">>>" not in bytes(p.rx)
    type_keys(p, "1 0 K")
    assert shown(p) == expect("10", "k")
    p.send("\n")  # the 0x03 began a line of its own: refused as line noise (bad-line)
    p.run(50)
    assert p.command("HELLO").startswith("OK {")


def test_mpremote_gets_the_repl_only_once_the_keypad_put_the_unit_in_maintenance(pico):
    """docs/protocol.md, "Lines": in play no byte a host sends stops the program (from the REPL
    a host could write any balance); DEAL held 3 s on the keypad (SErv) lets mpremote in. Last
    in this module: the program ends here."""
    for noise in ("\r\x03", "\x03\x03", "\r\x03\r\x01"):  # mpremote's way in; Ctrl-C twice
        pico.send(noise + "\n")
        pico.run(50)
        assert pico.command("HELLO").startswith("OK {"), noise
    assert b"raw REPL" not in bytes(pico.rx)
    pico.parts.keys.press("DEAL")
    pico.run(60)  # the firmware sees the key go down, then the hold's time passes (B11's way)
    pico.idle(3240)  # B-rules' maintenance: DEAL held 3 s on the unit itself
    pico.parts.keys.release("DEAL")
    wait_shown(pico, "SErv")
    start = len(pico.rx)
    pico.send("\r\x03")
    pico.run(300)
    pico.send("\r\x01")  # mpremote's next step: the raw REPL
    pico.run_until(lambda: b"raw REPL; CTRL-B to exit" in bytes(pico.rx[start:]), 3000)
