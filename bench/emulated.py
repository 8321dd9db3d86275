"""The firmware's figures in Pico time: the genuine MicroPython rp2 port in the emulated RP2040.

    python -m bench.emulated [VERSION]  # one JSON object on the last line

The emulator's clock follows the emulated core at 125 MHz (tests/pico/rig.py), so durations
read here are what a Pico takes, before real flash timing (the emulated flash programs at
once). Each figure is a median of several tries. The unit is deployed as `make deploy` does (or,
VERSION "frozen", the unit's own image boots on a blank flash) and played through its pins
(simulator/pico/parts.py): latency runs from the instant a contact closes (or a byte is sent) to
the last display write (or reply byte) it causes.
"""

import json
import os
import statistics
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)

from tests.pico import rig  # noqa: E402
from tests.pico.play import (insert, long_game, press, remove, type_keys,  # noqa: E402
                             wait_shown)


def _last_write_after(pico, t0, settle_ms=60):
    """Run until the display has had no write for settle_ms; the last write's time after t0."""
    disp = pico.parts.display

    def settled():
        last = disp.last_write_ms
        return last is not None and last > t0 and pico.now_ms() - last >= settle_ms

    pico.run_until(settled, 2000, step_ms=2)
    return disp.last_write_ms - t0


def key_latency(pico, key):
    keys = pico.parts.keys
    keys.press(key)
    t0 = keys.first_closed[key]
    ms = _last_write_after(pico, t0)
    keys.release(key)
    pico.run(60)
    return ms


def digit_latency(pico, tries):
    """Median key_latency of `1 2 3` typed tries times, C after each."""
    digits = []
    for _ in range(tries):
        for k in ("1", "2", "3"):
            digits.append(key_latency(pico, k))
        press(pico, "C")
    return statistics.median(digits)


def busy_share(pico, ms):
    c0, t0 = pico.mcu.core.cycles, pico.now_ms()
    pico.run(ms)
    return (pico.mcu.core.cycles - c0) / ((pico.now_ms() - t0) * 125e3)


def first_picture_ms(pico):
    """When the first picture was written: the LCD's set-up commands come before it, as soon
    as the board is built."""
    return next(t for t, kind, _ in pico.parts.display.frames if kind == "write")


def play_figures(image, tries):
    out = {}
    boots = []
    for _ in range(tries):
        p = rig.Pico(image, usb=False, vbus=False)
        p.boot()
        boots.append(first_picture_ms(p))
    out["boot_ms"] = statistics.median(boots)
    pico = p
    pico.run(300)
    out["idle_busy"] = busy_share(pico, 2000)
    seats = []
    for card in (1, 2, 3, 4):
        insert(pico, "L", card)
        pico.run_until(lambda: pico.parts.slots["L"].seated_ms is not None, 200)
        seated = pico.parts.slots["L"].seated_ms
        wait_shown(pico, str(card), timeout_ms=400)
        seats.append(pico.parts.display.last_write_ms - seated)
        remove(pico, "L")
        pico.parts.slots["L"].seated_ms = None
        pico.run(100)
    out["card_ms"] = statistics.median(seats)
    insert(pico, "L", 5)
    pico.run(1200)
    out["digit_ms"] = digit_latency(pico, tries)
    commits = []
    # One commit reads anywhere from about 10 to 35 ms (docs/performance.md says why): a
    # median of three is any of them, of fifteen the one a player meets.
    for _ in range(tries * 5):
        type_keys(pico, "1 0 K")
        commits.append(key_latency(pico, "+"))
    out["commit_ms"] = statistics.median(commits)
    return out


def serial_figures(image, tries):
    out = {}
    # rp2040py's own host, which answers every OUT buffer at once (rig.py; docs/performance.md)
    pico = rig.Pico(image, usb=True, vbus=True, chatty_host=True)
    pico.boot()
    mem = json.loads(pico.command("MEM")[3:])
    out["heap_after_hello"] = mem["now"]
    out["heap_after_boot"] = mem["firmware"]
    out["heap_free"] = mem["free"]
    out["free_after_boot"] = mem["now"] + mem["free"] - mem["boot"]
    replies = []
    for _ in range(tries * 2):
        t0 = pico.now_ms()
        pico.command("STATE")
        replies.append(pico.now_ms() - t0)
    out["reply_ms"] = statistics.median(replies)
    pico.run(200)
    out["idle_busy_usb"] = busy_share(pico, 500)
    # A game's heap as play leaves it: MEM collects and times the collection on the unit.
    pico.command("INSERT L 1")
    for _ in range(10):
        pico.command("KEY 1 0 K +")
    pico.command("LOG 20")
    gcs = [json.loads(pico.command("MEM")[3:])["gc_us"] / 1000 for _ in range(tries)]
    out["gc_ms"] = statistics.median(gcs)
    # A key with the host enumerated and silent: the emulated host keeps the port busy
    # (docs/performance.md), which the firmware holds off while a key is drawn.
    pico.idle(1500)  # last: typing changes nothing measured above
    out["digit_usb_ms"] = digit_latency(pico, tries)
    return out


def long_game_figures(image):
    # both slots full: boot folds 327 records, the most it ever folds
    with tempfile.TemporaryDirectory() as state:
        files, _ = long_game(state)
    pico = rig.Pico(image, fs_extra=files, usb=True, vbus=False)
    pico.boot()
    out = {"long_boot_ms": first_picture_ms(pico)}
    pico.command("HELLO")
    mem = json.loads(pico.command("MEM")[3:])
    out["long_heap_free"] = mem["free"]
    out["long_gc_ms"] = mem["gc_us"] / 1000
    return out


def main(argv):
    images = rig.find_images()
    version = argv[1] if len(argv) > 1 else sorted(v for v in images if v != rig.FROZEN)[-1]
    image = images[version]
    result = {"version": version}
    result.update(play_figures(image, 3))
    result.update(serial_figures(image, 3))
    result.update(long_game_figures(image))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
