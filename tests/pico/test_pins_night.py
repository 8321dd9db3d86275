"""Game night at the pins of an emulated Pico running the genuine rp2 port: what only the chip
can show, the game clock (B20) keeping time while the unit is switched off in its light sleep,
waking it for its warning, and surviving a power cut on the flash, in Pico time. On batteries
(no USB host); only what a player sees on the glass and hears from the piezo.

The count (B19), a bankruptcy held on - (B21) and the pot (B22) are the brain's rules on keys
and cards the pins already carry in every other scenario: they are proven in the core, on
CPython and the MicroPython unix port (tests/core/test_night.py), not again here."""


from tests.pico import rig
from tests.pico.play import expect, heard, press, shown, type_keys

MIN = 60000


def test_b20_the_clock_runs_switched_off_wakes_for_its_warning_and_survives_a_cut(image):
    pico = rig.Pico(image, usb=False, vbus=False)
    pico.boot()
    press(pico, "K", hold_ms=3100)  # no clock: K held 3 s opens its view (B20)
    type_keys(pico, "7 +")
    assert shown(pico) == expect("7.00")
    press(pico, "K")  # the view ends; the clock runs on
    pico.idle(61000)
    assert not pico.parts.display.lit()  # switched off (B16)
    t0 = pico.now_ms()
    pico.idle(2 * MIN - 61000 + 500)  # 5 minutes left: it wakes for the warning
    # idle() lets the loop see the time once a second: the time left as it was then
    assert pico.parts.display.lit() and shown(pico) in (expect("5.00"), expect("4.59"))
    assert ("clock-warning", "loud") in heard(pico, t0)
    pico.idle(20000)
    flash = pico.cut()  # 4:40 left at the cut; 5:00 was kept
    pico = rig.Pico(image, flash=flash, usb=False, vbus=False)
    pico.boot()
    press(pico, "K")
    assert shown(pico) == expect("5.00")  # at most a minute more than at the cut
    pico.run(1000)
    assert shown(pico) == expect("4.59")
    press(pico, "K")
    t0 = pico.now_ms()
    pico.idle(5 * MIN)
    assert pico.parts.display.lit() and shown(pico) == expect("End")
    assert ("clock-end", "loud") in heard(pico, t0)
    press(pico, "1")  # the key after End starts the count
    assert shown(pico) == expect("Count")
