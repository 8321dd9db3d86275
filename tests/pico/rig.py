"""The genuine MicroPython rp2 port in an emulated RP2040, with the unit's parts at its pins:
the pin suite's rig on simulator/pico/machine.py (the emulator's driver: Pico time, idle(),
cut()) and simulator/pico/parts.py (the parts).

The firmware goes onto the emulated flash as `make deploy` puts it on a Pico: the very files
tools/deploy.py writes (its plan: modules compiled by mpy-cross, main.py as source), in a
LittleFS2 image laid out as the rp2 port's (4 KB blocks at 0xA0000). Then main.py runs by itself.

The unit's own image (`make uf2`, the firmware frozen in; "frozen" among the versions) boots on
a blank flash instead, erased as a new Pico's is: the image's _boot.py formats it, as it does
on a Pico, and the frozen main.py starts the unit with no file on the flash.

The rig drives the emulator from the test's own thread, one batch of instructions at a time,
so nothing races. Times a test measures are Pico time. `Pico(image, flash=...)` boots again on
a flash a cut() returned, as a unit does when the batteries go back in.
"""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED_PICO = os.path.join(os.path.dirname(REPO), "shared", "pico")
BUILD = os.path.join(REPO, "build", "pico")
VERSIONS = ("1.25.0", "1.28.0")  # the oldest and the newest MicroPython the README promises
FROZEN = "frozen"  # the unit's own image, MicroPython v1.28.0 with the firmware frozen in

if REPO not in sys.path:
    sys.path.insert(0, REPO)

from simulator.pico.machine import EmulatedPico, flash_image  # noqa: E402


def emulator_missing():
    """None, or why the emulator cannot run here (one line)."""
    try:
        import littlefs  # noqa: F401
        import rp2040py  # noqa: F401
    except ImportError as exc:
        return "rp2040py or littlefs-python not installed (%s): run make setup" % exc.name
    return None


def find_images():
    """{version: path of its RPI_PICO .uf2} for VERSIONS: $PICO_UF2 first (one path, or several
    separated by the path separator), then ../shared/pico/, then rp2040py's own download of the
    official image where a network exists. A version with none is left out."""
    found = {}
    for path in filter(None, os.environ.get("PICO_UF2", "").split(os.pathsep)):
        if os.path.isfile(path):
            for v in VERSIONS:
                if v in os.path.basename(path):
                    found.setdefault(v, path)
            if not any(v in os.path.basename(path) for v in VERSIONS):
                found.setdefault(_banner_version(path) or os.path.basename(path), path)
    for v in VERSIONS:
        path = os.path.join(SHARED_PICO, "RPI_PICO-v%s.uf2" % v)
        if v not in found and os.path.isfile(path):
            found[v] = path
    for v in VERSIONS:
        if v not in found and not os.environ.get("PICO_NO_DOWNLOAD"):
            path = _download(v)
            if path:
                found[v] = path
    frozen = frozen_image()
    if frozen:
        found[FROZEN] = frozen
    return found


def frozen_image():
    """The unit's own image: $BANK_UF2, else the one `make uf2` left in build/uf2/; or None."""
    path = os.environ.get("BANK_UF2")
    if path:
        return path if os.path.isfile(path) else None
    from simulator.pico.session import default_image

    return default_image()


def is_frozen(image):
    return os.path.basename(image).startswith("bank-unit-")


def _banner_version(path):
    with open(path, "rb") as f:
        data = f.read()
    i = data.find(b"MicroPython v")
    if i < 0:
        return None
    return data[i + 13:i + 40].split(b" ")[0].split(b"-")[0].decode("ascii", "replace")


def _download(version):
    """The official image through rp2040py's cache and downloader, or None (no network)."""
    try:
        from rp2040py.boards import BOARDS, resolve_firmware
        import socket

        socket.setdefaulttimeout(10)
        spec = resolve_firmware(BOARDS["pico"], "micropython", version)
        return str(spec.image) if spec.image and os.path.isfile(spec.image) else None
    except Exception:  # noqa: BLE001 - no network, no cache: that version is simply absent
        return None


# -- the flash a maker's `make deploy` leaves ----------------------------------------------------

def deploy_plan(mpy):
    """[(path on the Pico, local file)] exactly as tools/deploy.py sends them. Compiled into a
    folder of this process's own: the two images' suites run side by side, and deploy clears
    its output folder first."""
    sys.path.insert(0, os.path.join(REPO, "tools"))
    try:
        import deploy
    finally:
        sys.path.pop(0)
    files = deploy.sources()
    if not mpy:
        return files
    return deploy.compile_all(files, os.path.join(BUILD, "mpy-%d" % os.getpid()))


def device_mpy_version(image):
    """The .mpy version the image imports, as deploy.py asks a board (sys.implementation)."""
    out = subprocess.run([sys.executable, "-m", "rp2040py", "micropython", "--image", image,
                          "-c", "import sys; print(sys.implementation._mpy)"],
                         capture_output=True, text=True, timeout=120)
    n = int(out.stdout.strip().splitlines()[-1])
    return n & 0xFF, (n >> 8) & 3


class Firmware:
    """The deployed flash for one image, built once: mpy when the board imports ours, as
    `make deploy`'s auto mode chooses. The frozen image's: a blank flash (mpy None)."""

    _cache = {}

    @classmethod
    def for_image(cls, image):
        key = os.path.abspath(image)
        if key not in cls._cache and is_frozen(image):
            from rp2040py.boards import BOARDS, resolve_firmware

            spec = resolve_firmware(BOARDS["pico"], "micropython", image)
            size = spec.layout.fs_blocksize * spec.layout.fs_blockcount
            cls._cache[key] = (spec, b"\xff" * size, None)
        if key not in cls._cache:
            from rp2040py.boards import BOARDS, resolve_firmware

            sys.path.insert(0, os.path.join(REPO, "tools"))
            try:
                import deploy
            finally:
                sys.path.pop(0)
            spec = resolve_firmware(BOARDS["pico"], "micropython", image)
            mpy = device_mpy_version(image) == deploy.cross_version()
            cls._cache[key] = (spec, flash_image(deploy_plan(mpy), spec.layout), mpy)
        return cls._cache[key]


# -- the emulated Pico ---------------------------------------------------------------------------

class Pico(EmulatedPico):
    """One emulated Pico with the unit's parts (parts.Unit) at its pins, booted on `flash` (the
    file system region's bytes; None: the freshly deployed firmware, or for the frozen image a
    blank flash). fs_extra: [(path, bytes)] put on that flash too.

    What costs the emulator and changes nothing at the pins is left out:
    - The USB host (usb=True) sends an OUT packet only when it has bytes for the unit, as a real
      host does: rp2040py's answers every OUT buffer the firmware arms at once, with a
      zero-length packet when it has nothing (docs/performance.md, "key contact to its digit
      shown, USB host attached"), so the emulated core never slept and a host made every
      emulated second cost six times the wall time of one without. chatty_host=True keeps
      rp2040py's (make bench measures a key under it).
    - A PWM slice whose outputs cannot change (both compare levels 0, nothing waiting for the
      next wrap, free-running, no PWM interrupt enabled) runs no alarms: rp2040py's counter
      fires three Python alarms a period, and the silent beeper's slice (2 kHz, duty 0) made
      them most of what an idle second cost. Its counter still reads true (it is computed from
      the clock), and the first write to the block brings the alarms back in phase."""

    def __init__(self, image, flash=None, display="ht1621", vbus=True, usb=True, fs_extra=(),
                 chatty_host=False, pins=None, box=None):
        spec, deployed, self.mpy = Firmware.for_image(image)
        if flash is None and fs_extra:
            plan = [] if self.mpy is None else deploy_plan(self.mpy)
            flash = flash_image(plan, spec.layout, fs_extra)
        self._chatty = chatty_host
        self._held = None  # the size of the OUT buffer the firmware armed while the host had none
        self._answer = None
        super().__init__(image, spec, deployed if flash is None else flash, display=display,
                         vbus=vbus, usb=usb, pins=pins, box=box)
        self._still_pwm()

    def _host(self):
        super()._host()
        if not self._chatty:
            self._hold_empty_reads()

    def _hold_empty_reads(self):
        cdc = self.cdc
        usb = cdc.usb
        self._answer = usb.on_endpoint_read
        reset = usb.on_reset

        def armed(endpoint, size):
            if endpoint == cdc._out_endpoint and not cdc.tx_fifo.item_count:
                self._held = size  # NAKed until the host has bytes
            else:
                self._answer(endpoint, size)

        def on_reset():
            self._held = None
            reset()

        usb.on_endpoint_read = armed
        usb.on_reset = on_reset

    def _still_pwm(self):
        from rp2040py.peripherals.pwm import CSR_PH_CORRECT, PWMDivMode

        pwm = self.mcu.pwm

        def settle(ch):
            still = (ch.cc == 0 and not ch.cc_updated and not ch.top_updated
                     and ch.div_mode == PWMDivMode.FREE_RUNNING and not ch.csr & CSR_PH_CORRECT
                     and not (pwm._int_enable | pwm._int_force) >> ch.index & 1)
            for alarm in (ch.alarm_a, ch.alarm_b, ch.alarm_bottom):
                alarm.enable = not still

        write = pwm.write_uint32

        def written(offset, value):
            write(offset, value)
            for ch in pwm.channels:
                settle(ch)

        pwm.write_uint32 = written
        for ch in pwm.channels:
            def wrapped(ch=ch, wrap=ch.alarm_bottom.callback):
                wrap()  # a CC or TOP written since takes effect here
                settle(ch)

            ch.alarm_bottom.callback = wrapped

    def stop_reading(self):
        """The host keeps the port open and reads no more: each IN packet the unit arms waits,
        NAKed, as a real host that stopped reading leaves it, until read_again()."""
        usb = self.mcu.usb_ctrl
        control = 0x80 + self.cdc._in_endpoint * 8  # the IN endpoint's buffer control word
        reading = usb.dpram_updated

        def armed(offset, value):
            if offset != control or not value & 0x400:  # 0x400: AVAILABLE, the packet armed
                reading(offset, value)

        def read_again():
            usb.dpram_updated = reading
            dpram = self.mcu.usb_dpram
            reading(control, int.from_bytes(dpram[control:control + 4], "little"))
            self.run(10)

        usb.dpram_updated = armed
        self.read_again = read_again

    def send(self, data):
        super().send(data)
        if self._held is not None and self.cdc.tx_fifo.item_count:
            size, self._held = self._held, None
            self._answer(self.cdc._out_endpoint, size)
