"""The unit's own image (`make uf2`): one file to flash, the firmware frozen in.

- Dragged onto a new Pico (a blank flash) the unit shows 0 with no file of ours on the flash;
  the game store is created at that first boot.
- Flashing a newer image leaves the file system as it is: booted again on the flash the first
  boot left, the game is there.
- Firmware files on that flash (a `make deploy` of another version, a main.py) are never run:
  the unit runs the frozen firmware whole, never half one version, half another.

The rest of the pin suite runs on the frozen image too ("frozen" among its versions), HELLO's
firmware string, which tells the frozen image ("+frozen") from deployed files ("+files") and
names the build, among it (tests/pico/test_pins_serial.py).
"""

import json

import pytest

from tests.pico import rig
from tests.pico.play import expect, insert, shown, type_keys, wait_shown


@pytest.fixture(scope="module")
def frozen():
    image = None if rig.emulator_missing() else rig.frozen_image()
    if image is None:
        pytest.skip("no frozen image: make uf2 builds it (tools/uf2.py says what it needs)")
    return image


def files_on(flash, layout):
    """Every file on the flash's LittleFS, as paths."""
    from littlefs import LittleFS, UserContext

    ctx = UserContext(buffsize=len(flash))
    ctx.buffer[:] = flash
    fs = LittleFS(context=ctx, block_size=layout.fs_blocksize,
                  block_count=layout.fs_blockcount, mount=True)
    out = []
    for root, _, names in fs.walk("/"):
        out += [root.rstrip("/") + "/" + n for n in names]
    return sorted(out)


def file_on(flash, layout, path):
    """A file on the flash's LittleFS, as bytes (None: not there)."""
    from littlefs import LittleFS, UserContext

    ctx = UserContext(buffsize=len(flash))
    ctx.buffer[:] = flash
    fs = LittleFS(context=ctx, block_size=layout.fs_blocksize,
                  block_count=layout.fs_blockcount, mount=True)
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def hello(pico):
    reply = pico.command("HELLO")
    assert reply.startswith("OK {"), reply
    return json.loads(reply[3:])


def test_the_frozen_image_on_a_new_pico_shows_0_and_keeps_its_game_on_a_new_image(frozen):
    pico = rig.Pico(frozen, usb=True, vbus=True)
    assert set(pico.flash_fs()) == {0xFF}  # erased, as a new Pico's flash
    pico.boot()
    assert shown(pico) == expect("0")
    said = hello(pico)
    assert said["store"] == "new" and said["firmware"].endswith("+frozen")
    insert(pico, "L", 1)
    wait_shown(pico, "1", timeout_ms=400)
    pico.run(1100)
    type_keys(pico, "1 0 K +")
    assert shown(pico) == expect("15.01", "M")
    pico.run(300)
    flash = pico.cut()
    on_flash = files_on(flash, pico.layout)
    assert on_flash and all(f.startswith("/bank/") for f in on_flash), on_flash

    again = rig.Pico(frozen, flash=flash, usb=True, vbus=True)
    again.boot()
    assert hello(again)["store"] == "ok"
    assert json.loads(again.command("BALANCES")[3:])["1"] == 15010000


def test_the_frozen_image_never_runs_firmware_files_on_the_flash(frozen):
    # A deploy of other firmware: a main.py and a brain/ that would each stop the unit at once.
    broken = b"raise SystemExit('the firmware on the flash ran')\n"
    pico = rig.Pico(frozen, usb=True, vbus=True, fs_extra=[
        ("main.py", broken), ("app.py", broken), ("brain/unit.py", broken),
        ("brain/__init__.py", b""), ("version.py", b"VERSION = 'old+files'\n")])
    pico.boot()
    assert shown(pico) == expect("0")
    assert hello(pico)["firmware"].endswith("+frozen")
    type_keys(pico, "1 2 K")
    assert shown(pico) == expect("12", "k")


def test_the_frozen_image_takes_from_a_makers_pins_py_only_the_pins_it_names(frozen):
    # A few lines, as a maker with the LED display writes them, or a pins.py from an older
    # checkout that names fewer pins than the firmware reads: the rest are the reference's. Such
    # a file left the unit dark (AttributeError at boot). A keypad's map is named as
    # docs/hardware.md names it, among the reference's names (a NameError before).
    pico = rig.Pico(frozen, usb=True, vbus=True, display="tm1637",
                    fs_extra=[("pins.py", b'DISPLAY = "TM1637"\nKEYPAD = KEYPAD_SWITCHES\n')])
    pico.boot()
    assert shown(pico) == expect("0")
    type_keys(pico, "1 2 K")
    assert shown(pico) == expect("12", "k")
    assert file_on(pico.flash_fs(), pico.layout, "/bank/crash.txt") is None


@pytest.mark.parametrize("src, why", [
    (b"DISPLAY = \n", "SyntaxError"),
    (b'DISPLAY = "tm1638"\n', "DISPLAY is ht1621 or tm1637"),
    (b"KEYPAD = 5\n", "KEYPAD = 5, where the reference"),
    (b"KEY_ROWS = (6, 7, 8, 99)\n", "invalid pin"),  # a pin no RP2040 has
    (b"KEY_COLS = (10, 11, 12, 13, 14, 28)\n", "KEYPAD has not"),  # a column with no keys
])
def test_the_frozen_image_says_a_bad_pins_py_in_crash_txt_and_plays_on_its_own_pin_map(
        frozen, src, why):
    pico = rig.Pico(frozen, usb=True, vbus=True, fs_extra=[("pins.py", src)])
    pico.boot()
    assert shown(pico) == expect("0")
    type_keys(pico, "1 2 K")
    assert shown(pico) == expect("12", "k")
    said = file_on(pico.flash_fs(), pico.layout, "/bank/crash.txt").decode()
    assert said.startswith("pins.py on the flash is no pin map this firmware reads; the "
                           "reference pin map is used")
    assert why in said, said
