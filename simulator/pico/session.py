"""The desktop window's unit as an emulated RP2040 running a .uf2, played at its pins.

`python -m simulator --pico [IMAGE.uf2]`: the image a maker will flash (the unit's own, from
`make uf2`, when none is named) runs in rp2040py (machine.py) with the unit's parts at its
pins (parts.py). What the window draws is read from those parts: the glass from the HT1621's
RAM as the module's wiring lights it (glass.py), the lights from their pins, the tone from the
PWM the beeper pin is given; a click or a key closes the key matrix's switch, a card closes
the slot's contacts tab by tab and then the seated one. Nothing of the firmware runs on the
desktop: no rule is read from it, only pins.

The window wakes every `tick_ms` and runs the emulated core for the wall time that passed
(at most `max_step_ms` at a time): Pico time then keeps up with the wall clock while the core
sleeps, and falls behind it while the core works, which is the emulator's speed, not the
firmware's (an idle second takes under a tenth of one; a key's work runs about four times
slower than on a Pico).

A stock image (one that does not carry the firmware frozen in) gets the firmware's files on
its flash as `make deploy` lays them out (firmware_files), fresh at each start. The unit's own
image's flash is kept between windows (flash_file), as a Pico keeps its game across a power
cut or a newer image, and held by one window at a time (host.hold_flash).
"""

import os
import subprocess
import time

from simulator.pico import machine

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2_MAGIC = (0x0A324655, 0x9E5D5157)


class NoImage(ValueError):
    """No image to run, or not one this can run (one line)."""


def _tool(name):
    """A module of tools/ (uf2, deploy): the build's own code, not a copy."""
    import importlib
    import sys

    sys.path.insert(0, os.path.join(REPO, "tools"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def default_image():
    """The image `make uf2` left in build/uf2/, or None."""
    return _tool("uf2").find()


def payload(path):
    """The bytes a .uf2 writes into flash, in order (each 512-byte block carries its
    payload, 256 bytes in the images MicroPython and picotool write)."""
    import struct

    with open(path, "rb") as f:
        data = f.read()
    out = bytearray()
    for i in range(0, len(data) - 511, 512):
        m0, m1, _flags, _addr, size = struct.unpack_from("<5I", data, i)
        if (m0, m1) != UF2_MAGIC:
            raise NoImage("%s is not a UF2 image" % path)
        out += data[i + 32:i + 32 + min(size, 476)]
    if not out:
        raise NoImage("%s is not a UF2 image" % path)
    return bytes(out)


def banner_version(data):
    """(major, minor) of the MicroPython an image's bytes say they are, or None."""
    i = data.find(b"MicroPython v")
    if i < 0:
        return None
    try:
        return tuple(int(n) for n in data[i + 13:i + 30].split(b"-")[0].split(b".")[:2])
    except ValueError:
        return None


def firmware_files(data):
    """[(path on the Pico, bytes)]: what `make deploy` puts on the stock image whose bytes are
    data: modules compiled by mpy-cross where the image imports what it writes (MicroPython
    1.23 and later read .mpy 6.3), else the sources, which the emulated chip then compiles at
    every start (about a minute of wall time)."""
    deploy = _tool("deploy")
    import shutil
    import tempfile

    files = deploy.sources()
    version = banner_version(data)
    work = tempfile.mkdtemp(prefix="bank-pico-")  # compile_all clears its folder: one's own
    try:
        try:
            if version is not None and version >= (1, 23) and deploy.cross_version() == (6, 3):
                files = deploy.compile_all(files, work)
        except (OSError, ValueError, subprocess.SubprocessError):
            pass  # no mpy-cross here: the sources
        out = []
        for dest, local in files:
            with open(local, "rb") as f:
                out.append((dest, f.read()))
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def start(image=None, vbus=True, kept=None, kept_path=None, rfid=False):
    """An EmulatedPico running image (the `make uf2` one when None), and whether the image
    carries the firmware; NoImage says why not. The unit's own image boots on the flash kept
    (bytes of its file system region, a former window's, read from kept_path) when one is
    given, as a Pico flashed with a newer image keeps its game; else on a new flash. A kept
    flash of another size is refused, never replaced: the game in it is not lost unasked.
    rfid: the RFID build, its pins.py on the flash and its six cards tags numbered 1-6."""
    if image is None:
        image = default_image()
        if image is None:
            raise NoImage("no image to run: name one (--pico IMAGE.uf2), or build the unit's "
                          "own with make uf2")
    if not os.path.isfile(image):
        raise NoImage("no such image: %s" % image)
    data = payload(image)
    frozen = b"brain/unit.py" in data  # the frozen modules' names: the firmware is in it
    try:
        from rp2040py.boards import BOARDS, resolve_firmware
    except ImportError:
        raise NoImage("--pico needs rp2040py and littlefs-python: run make setup") from None
    spec = resolve_firmware(BOARDS["pico"], "micropython", image)
    layout = spec.layout
    size = layout.fs_blocksize * layout.fs_blockcount
    if frozen and kept is not None and len(kept) != size:
        raise NoImage("%s is not the flash of a Pico's file system (%d bytes, not %d): move it "
                      "away to start on a new flash" % (kept_path, len(kept), size))
    pins = box = None
    extra = []
    if rfid:
        from simulator.pico import desk

        src, pins = desk.rfid_pins()
        extra = [("pins.py", src.encode())]  # beside a deployed pins.mpy, imported first
        box = desk.numbered_box()
    if frozen and kept is not None:
        flash = desk.with_file(kept, layout, "pins.py", extra[0][1]) if extra else kept
    elif frozen:
        flash = machine.flash_image([], layout, extra) if extra else b"\xff" * size
    else:
        flash = machine.flash_image([], layout, firmware_files(data) + extra)
    pico = machine.EmulatedPico(image, spec, flash, usb=False, vbus=vbus, pins=pins, box=box)
    return pico, frozen


def read_flash(path):
    """The flash a former window kept in path, or None."""
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def flash_file(rfid=False):
    """Where the window keeps the unit's own image's flash between runs: beside the
    simulator's own (frontend.state_dir, or $BANK_SIM_STATE), or None for BANK_SIM_STATE=none.
    The RFID build's unit is another unit: its flash is another file."""
    from simulator import frontend
    from simulator.xdg import state_env

    where = state_env()
    if where is None:
        return None
    return os.path.join(where or frontend.state_dir(), "pico-rfid.flash" if rfid else
                        "pico.flash")


class _Silent:
    """The window's sound: the emulated piezo is shown, not played."""

    def stop(self):
        pass


class PicoClock:
    """Pico time, in whole ms, for the window's holds."""

    virtual = False

    def __init__(self, pico):
        self.pico = pico

    def now(self):
        return int(self.pico.now_ms())


class PicoUnit:
    """What the window reads of "the unit", here from the pins."""

    hold_ms = 3000  # B11 and maintenance: the holds the window draws a bar for
    maintenance = False  # not seen at the pins: the glass says it

    def __init__(self, session):
        self.session = session
        self.listeners = []  # the unit's events are not seen at the pins

    @property
    def power(self):
        return self.session.pico.parts.display.lit()

    @property
    def slots(self):
        s = self.session.pico.parts.slots
        return {"L": s["L"].card, "R": s["R"].card}


class PicoHost:
    def __init__(self, session):
        self.unit = PicoUnit(session)
        self.clock = PicoClock(session.pico)


class PicoSession:
    """frontend.Session's part the window uses, on the emulated Pico's pins."""

    tick_ms = 20  # the window wakes this often: the emulated core runs on between inputs
    max_step_ms = 50  # Pico time run at one wake, at most: the window keeps answering
    min_hold_ms = 60  # a key is held at least this long in Pico time (key_up)
    keep_s = 5.0  # how often the flash is kept, in wall seconds, when it changed (keep)
    pace_s = 3.0  # how far back slowdown() looks, in wall seconds: a key's work shows in it

    def __init__(self, image=None, vbus=True, flash_file=None, wall=time.monotonic,
                 rfid=False):
        from simulator.frontend import View

        self._View = View
        self.flash_file = flash_file
        self._hold = None
        if image is not None and not os.path.isfile(image):
            # Said first: another window may hold the flash, and that would hide this.
            raise NoImage("no such image: %s" % image)
        if flash_file is not None:
            from simulator.host import hold_flash

            # Before the flash is read: a second window on it refuses (host.StartError, one
            # line), where each would otherwise keep its own game over the other's.
            self._hold = hold_flash(flash_file)
        try:
            self.pico, self.frozen = start(image, vbus, read_flash(flash_file), flash_file,
                                             rfid)
        except BaseException:
            self._let_go()
            raise
        if not self.frozen:
            self._let_go()  # a stock image's flash is laid out anew each time, never kept
        self.image = self.pico.image
        self.host = PicoHost(self)
        self.unit = self.host.unit
        self.sound = _Silent()
        self._clock = wall  # the wall clock, in seconds (a test's own)
        self._wall = wall()
        self._paces = [(self._wall, self.pico.now_ms())]  # (wall s, Pico ms) at each step
        self._down = {}  # key -> Pico ms it went down
        self._kept = None  # the flash as flash_file last kept it
        self._kept_at = self._wall

    def step(self):
        """Run the emulated core for the wall time since the last step (max_step_ms at most);
        every keep_s of wall time, the flash kept if it changed (a window killed loses at most
        that much)."""
        now = self._clock()
        ms = min((now - self._wall) * 1000.0, self.max_step_ms)
        self._wall = now
        if ms >= 1:
            self.pico.run(ms)
        paces = self._paces
        paces.append((self._clock(), self.pico.now_ms()))
        while len(paces) > 2 and paces[1][0] <= paces[-1][0] - self.pace_s:
            paces.pop(0)
        if now - self._kept_at >= self.keep_s:
            self._kept_at = now
            self.keep()

    def slowdown(self):
        """How many times slower than real time the emulated Pico ran over the last pace_s of
        wall time (1.0: as fast; the emulator's speed, not the firmware's), or None before it
        has run."""
        (w0, p0), (w1, p1) = self._paces[0], self._paces[-1]
        if p1 <= p0:
            return None
        return (w1 - w0) * 1000.0 / (p1 - p0)

    def booting(self):
        """Whether the image has not drawn its first picture yet."""
        return not self.pico.parts.display.writes

    def keep(self):
        """Keep the unit's own image's flash in flash_file when it changed (whole, then
        renamed): the next window starts on it, the game and its names there. A stock image's
        holds the firmware's files of this run, and is not kept."""
        if self.flash_file is None or not self.frozen:
            return
        flash = self.pico.flash_fs()
        if flash == self._kept:
            return
        os.makedirs(os.path.dirname(os.path.abspath(self.flash_file)), exist_ok=True)
        part = self.flash_file + ".part"
        with open(part, "wb") as f:
            f.write(flash)
        os.replace(part, self.flash_file)
        self._kept = flash

    def close(self):
        self.keep()
        self._let_go()

    def _let_go(self):
        if self._hold is not None:
            self._hold.close()
            self._hold = None

    def boot(self, timeout_ms=6000):
        """Run until the unit's first picture is on the glass."""
        self.pico.run_until(lambda: self.pico.parts.display.writes, timeout_ms, step_ms=20)
        self.pico.run(1)
        self._wall = self._clock()

    def ms_to_change(self):
        return self.tick_ms

    def view(self):
        parts = self.pico.parts
        v = self._View()
        display = parts.display
        v.power = display.lit()
        cells = [0] * 5
        k = m = False
        if v.power:
            glass = display.glass()
            for i, digit in enumerate(glass.CELLS):
                byte = 0
                for seg in glass.digit_segments(digit):
                    byte |= 1 << "abcdefg".index(seg)
                if glass.point_after(digit):
                    byte |= 0x80
                cells[i] = byte
            ann = glass.annunciator()
            k, m = ann == "k", ann == "M"
        v.cells = tuple(cells)
        v.k, v.M = k, m
        v.red, v.green = parts.red.is_on(), parts.green.is_on()
        v.slots = (parts.slots["L"].card, parts.slots["R"].card)
        v.volume = -1  # not seen at the pins: no bars drawn, no mute mark
        sounding = parts.piezo.now()
        v.tone = "%d Hz" % round(sounding[0]) if sounding else ""
        v.deal = "idle"
        v.entry = v.error = None
        v.seq = v.writes = 0
        return v

    # -- a person's hands --------------------------------------------------------------------

    def key_down(self, key):
        self._down[key] = self.pico.now_ms()
        self.pico.parts.keys.press(key)

    def key_up(self, key, now=None):
        # A click's press and release can come within the same few emulated milliseconds
        # (the emulator runs between the window's wakes): the key is held as long as a brisk
        # finger holds one at least, in Pico time, or the keypad's debounce would never see it.
        held = self.pico.now_ms() - self._down.pop(key, -self.min_hold_ms)
        keys = self.pico.parts.keys
        if held >= self.min_hold_ms:
            keys.release(key)
        else:
            self.pico.at(self.min_hold_ms - held, lambda: keys.release(key))

    def card_in(self, slot, card):
        slots = self.pico.parts.slots
        if slots[slot].card is None and card not in (s.card for s in slots.values()):
            slots[slot].insert(card)
        return None

    def card_out(self, slot):
        if self.pico.parts.slots[slot].card is not None:
            self.pico.parts.slots[slot].remove()

    def toggle_card(self, card, slot):
        for s, part in self.pico.parts.slots.items():
            if part.card == card:
                return self.card_out(s)
        return self.card_in(slot, card)

    def balances(self):
        return []

    def recent(self, n):
        return []
