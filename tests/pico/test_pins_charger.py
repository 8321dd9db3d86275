"""A unit left on a charger, or on batteries, keeps time at its pins: the payee of a transfer
follows the payer (B6) and a minute with nothing switches the unit off (B16), whether a host
never spoke or has spoken, with VBUS (GP24) high or low.

The scenario of a table's first minutes, keys held 60 ms with 60 ms between: card 1 in L,
`1 5 0 K +` (B4), the card out, card 2 in R then card 3 in L, `1 2 0 K -` (B6, player to
player): the payer's new balance, then the payee's a second later, then, untouched, the glass
goes dark within a minute and a little (the minute warped to 1.5 s before it is due, the rest
emulated). Then the same again on that unit with VBUS the other way. Pico time throughout.

With no USB host at all (a charger) and with one that said HELLO and then went quiet, each with
VBUS high then low; and with a host that enumerated the port and never spoke, with VBUS high:
rp2040py's own, as its MicroPythonDevice runs a unit with the post-boot handshake left out.
That host answers every OUT buffer the firmware arms at once with an empty packet, so the core
takes a USB interrupt every few tens of microseconds and never sleeps: each Pico second costs
the emulator ten times the others', and the scenario is played once, on a charger, as that
setup has it.

And a host that comes and goes: a computer plugged into a unit already played on its charger,
the port closed and opened again, the computer rebooted; the game is the keys' throughout.
"""

import json

import pytest

from tests.pico import rig
from tests.pico.play import expect, insert, shown, wait_shown

HOLD_MS = 60
GAP_MS = 60
OFF_MS = 60000  # B16


def keys(pico, sequence):
    for k in sequence.split():
        pico.parts.keys.press(k, bounce=False)
        pico.run(HOLD_MS)
        pico.parts.keys.release(k, bounce=False)
        pico.run(GAP_MS)


def set_vbus(pico, high):
    pico.mcu.gpio[pico.parts.pins["VBUS_SENSE"]].set_input_value(high)


def table_minute(pico, first, payer, payee):
    """The scenario once; first, payer and payee: the balances (M) it must show."""
    insert(pico, "L", 1)
    pico.run(1200)  # B3: the number for a second, then the balance
    keys(pico, "1 5 0 K +")
    assert shown(pico) == expect(first, "M")  # B4
    pico.parts.slots["L"].remove()
    pico.run(150)
    insert(pico, "R", 2)
    pico.run(400)
    insert(pico, "L", 3)
    pico.run(400)
    keys(pico, "1 2 0 K -")
    last_key = pico.now_ms() - GAP_MS  # the - released: B16's minute starts
    assert shown(pico) == expect(payer, "M")  # B6: the payer first
    wait_shown(pico, payee, "M", timeout_ms=2000)  # then the payee, a second later
    warp = OFF_MS - 1500 - (pico.now_ms() - last_key)
    pico.idle(warp, step_ms=warp)  # one jump: the firmware sees the time at the window after
    assert pico.parts.display.lit()
    pico.run_until(lambda: not pico.parts.display.lit(), 3000, step_ms=20)  # B16: off
    for slot in ("L", "R"):
        pico.parts.slots[slot].remove()
    pico.run(200)
    pico.parts.keys.press("C", bounce=False)  # a key wakes it, and is not input (B16)
    pico.run(150)
    pico.parts.keys.release("C", bounce=False)
    pico.run_until(lambda: pico.parts.display.lit(), 1000, step_ms=10)
    pico.run(200)


@pytest.mark.parametrize("host", ["no-host", "host-silent", "host-spoke"])
def test_b6_b16_a_unit_keeps_time_on_a_charger_and_on_batteries(image, host):
    pico = rig.Pico(image, usb=host != "no-host", vbus=True, chatty_host=host == "host-silent")
    pico.boot()
    if host == "host-spoke":
        assert pico.command("HELLO").startswith("OK {")  # then silent, as a host gone quiet
    table_minute(pico, "15.15", "14.88", "15.12")  # VBUS high: a charger
    if host == "host-silent":
        return  # the setup above: on a charger
    set_vbus(pico, False)  # batteries
    table_minute(pico, "15.3", "14.76", "15.24")


def balances(pico):
    reply = pico.command("BALANCES")
    assert reply.startswith("OK {"), reply
    return json.loads(reply[3:])


def test_a_host_that_comes_late_goes_and_comes_back_finds_the_game_the_keys_played(image):
    """A unit on a charger, played at its keypad, then a computer plugged in: it enumerates the
    port and its replies say what the pins did (B4). The host closes the port and the keys play
    on; the computer reboots (a bus reset) and enumerates again: the game is the one the keys
    played, on the glass and in the replies, and the keys still work."""
    pico = rig.Pico(image, usb=False, vbus=True)
    pico.boot()
    insert(pico, "L", 2)
    pico.run(1200)
    keys(pico, "1 0 0 K +")
    assert shown(pico) == expect("15.1", "M")
    pico.plug_in()
    assert json.loads(pico.command("HELLO")[3:])["store"] == "ok"
    assert balances(pico)["2"] == 15100000
    pico.cdc.set_control_lines(dtr=False, rts=False)  # the port closed
    pico.run(50)
    keys(pico, "5 0 K +")
    pico.cdc.set_control_lines(dtr=True, rts=True)  # and opened again
    pico.run(50)
    assert balances(pico)["2"] == 15150000
    pico.plug_in()  # the computer rebooted: a bus reset, the port enumerated again
    assert pico.command("HELLO").startswith("OK {")
    keys(pico, "1 0 K +")
    assert shown(pico) == expect("15.16", "M")
    assert balances(pico)["2"] == 15160000


def light_sleeps(pico, ms):
    """How many light sleeps the unit takes in ms of Pico time: each switches clk_sys over
    (CLK_SYS_CTRL, 0x3C), and waiting in poll at full speed never does."""
    clocks = pico.mcu.clocks
    write = clocks.write_uint32
    n = [0]

    def counted(offset, value):
        n[0] += offset == 0x3C
        write(offset, value)

    clocks.write_uint32 = counted
    try:
        pico.run(ms)
    finally:
        clocks.write_uint32 = write
    return n[0]


def test_b16_a_unit_a_host_spoke_to_sleeps_light_on_batteries_once_its_cable_is_pulled(image):
    """docs/hardware.md, "Power": switched off on batteries (VBUS low) the unit spends its
    standby in light sleep, the 6-9 weeks of its budget. A host that spoke with VBUS high (a
    laptop naming the players) does not keep it awake once the cable is pulled; while VBUS is
    high it waits in poll, where a light sleep would drop the host's port."""
    pico = rig.Pico(image, usb=True, vbus=True)
    pico.boot()
    assert pico.command("HELLO").startswith("OK {")
    pico.idle(OFF_MS + 2000)
    assert not pico.parts.display.lit()  # B16: off
    assert light_sleeps(pico, 1000) == 0  # on the laptop's USB
    pico.cdc.set_control_lines(dtr=False, rts=False)
    set_vbus(pico, False)  # the cable pulled: batteries
    assert light_sleeps(pico, 1000) > 0
