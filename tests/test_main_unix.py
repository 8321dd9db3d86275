"""firmware/main.py (and app.py, which it runs) under the MicroPython unix port, on a fake
`machine`

The unix port is the same interpreter as the Pico's, so this runs the very loop the Pico runs:
the protocol on stdin/stdout (HELLO, resynchronisation after garbage), no busy waiting, and the
board: a key pressed on the (simulated) matrix, a card slid into a slot, switch-off blanking
and the timed light sleeps of standby on battery.
"""

import json
import os
import resource
import select
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
FIRMWARE = os.path.join(ROOT, "firmware")
FAKE = os.path.join(ROOT, "tests", "fake_machine")

pytestmark = pytest.mark.skipif(
    not os.path.exists(MICROPYTHON),
    reason="no MicroPython unix port at .venv/bin/micropython (its wheel exists for Linux "
    "x86_64 only; `make setup` installs it there)",
)


def env(state):
    e = dict(os.environ)
    e["MICROPYPATH"] = FAKE  # the fake machine; main.py's own directory comes first anyway
    e["BANK_STATE"] = str(state)
    return e


def start(state):
    return subprocess.Popen([MICROPYTHON, os.path.join(FIRMWARE, "main.py")], cwd=ROOT,
                            env=env(state), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def readline(proc, timeout=10.0):
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "no reply within %s s" % timeout
    return proc.stdout.readline().decode()


def ask(proc, line):
    proc.stdin.write(line.encode() + b"\n")
    proc.stdin.flush()
    return readline(proc)


def finish(proc):
    proc.stdin.close()
    out = proc.stdout.read()
    err = proc.stderr.read()
    assert proc.wait(10) == 0, err
    return out


def board_script(tmp_path, name, source, **popen):
    """A script that builds the unit on the fake machine (firmware/ and tests/fake_machine on
    MICROPYPATH), started under the unix port with its own state folder; stdin stays open and
    silent, as a USB port with no host: poll then really waits."""
    script = tmp_path / name
    script.write_text(source)
    state = tmp_path / "state"
    state.mkdir()
    e = env(state)
    e["MICROPYPATH"] = FIRMWARE + ":" + FAKE
    return subprocess.Popen([MICROPYTHON, str(script), str(state)], cwd=ROOT, env=e,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **popen)


def finish_script(proc, timeout):
    """Wait for a board script; (stdout lines as {first word: rest}, after asserting exit 0)."""
    try:
        code = proc.wait(timeout)
    finally:
        proc.stdin.close()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert code == 0, err + out
    return dict(line.split(" ", 1) for line in out.splitlines())


def test_main_answers_hello_and_resynchronises(tmp_path):
    proc = start(tmp_path)
    try:
        reply = ask(proc, "HELLO")
        assert reply.startswith("OK {")
        hello = json.loads(reply[3:])
        assert hello["device"] == "bank-unit" and hello["protocol"] == 1
        assert hello["store"] == "new"
        # A host that opened the port mid-line: the garbage gets one ERR, HELLO then answers.
        proc.stdin.write(b"\x00garb")
        proc.stdin.flush()
        first = ask(proc, "")
        assert first.startswith("ERR ")
        assert ask(proc, "HELLO").startswith('OK {"device": "bank-unit"')
        assert ask(proc, "KEY 1 5 0 K").startswith('OK {"power": "on", "display": {"text": "150"')
    finally:
        finish(proc)
    # The store is on the file system, where the Pico keeps it on LittleFS.
    assert os.listdir(tmp_path)


def test_main_sleeps_between_events(tmp_path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = start(tmp_path)
    assert ask(proc, "HELLO").startswith("OK")
    time.sleep(1.0)  # idle: the loop waits in poll between 20 ms scans
    assert ask(proc, "STATE").startswith("OK")
    finish(proc)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert cpu < 0.6, "the loop used %.2f s of CPU in about 1 s: busy waiting?" % cpu


def test_mem_reports_the_units_heap(tmp_path):
    # docs/protocol-extensions.md: what the firmware took at boot, and what is in use now that
    # a host is talking (the protocol loaded), so a real Pico's footprint can be read off it.
    proc = start(tmp_path)
    try:
        assert ask(proc, "HELLO").startswith("OK")
        first = json.loads(ask(proc, "MEM")[3:])
        assert list(first) == ["firmware", "boot", "now", "free", "gc_us"]
        assert 20000 < first["firmware"] < first["boot"] < first["now"]
        assert first["free"] > 0
        assert isinstance(first["gc_us"], int) and 0 < first["gc_us"] < 1000000
        assert ask(proc, "KEY 1 5 0 K").startswith("OK")
        again = json.loads(ask(proc, "MEM")[3:])
        assert (again["firmware"], again["boot"]) == (first["firmware"], first["boot"])
        assert ask(proc, "MEM now").startswith("ERR bad-argument")
    finally:
        finish(proc)


# The board on the fake machine: a key matrix and the left card slot wired to the pins that
# board/build.py's build() made, and the App booted on them.
BOARD_SETUP = r"""
import sys, time, gc
import machine, pins, app as firmware
from board import build as board_pico
from pins import KEYPAD as LAYOUT
from board.drivers.slots import CODES

board = board_pico.build()
rows = [machine.pins[n] for n in pins.KEY_ROWS]
cols = [machine.pins[n] for n in pins.KEY_COLS]
closed = set()

def col_reader(c):
    def read():
        for r in range(len(rows)):
            if rows[r].level == 0 and (r, c) in closed:
                return 0
        return 1
    return read

for c in range(len(cols)):
    cols[c].reader = col_reader(c)

def press(key, on):
    for r in range(len(LAYOUT)):
        for c in range(len(LAYOUT[r])):
            if LAYOUT[r][c] == key:
                (closed.add if on else closed.discard)((r, c))
    machine.sense()  # the column's edge, if its row is driven low

card = {"pattern": 0, "seated": False}
def contact(i):
    return lambda: 0 if card["seated"] and card["pattern"] >> i & 1 else 1

for i, n in enumerate(pins.SLOT_L):
    machine.pins[n].reader = contact(i)
machine.pins[pins.SLOT_L_SEATED].reader = lambda: 0 if card["seated"] else 1

app = firmware.boot(board, sys.argv[1])
gc.collect()
print("heap", gc.mem_alloc())
unit = app.unit
idle_ms = getattr(app, "idle_ms", None)
app.idle_ms = 20  # the scripts step in tens of ms: no turn may wait the idle second

def turns(ms):
    end = time.ticks_add(time.ticks_ms(), ms)
    while time.ticks_diff(end, time.ticks_ms()) > 0:
        app.turn()
"""

BOARD_SCRIPT = BOARD_SETUP + r"""
for key in ("2", "5", "K"):
    press(key, True); turns(40); press(key, False); turns(40)
print("entry", unit.entry, board.display._shown is not None)

pattern = [p for p in CODES if CODES[p] == 4][0]
card["pattern"] = pattern; card["seated"] = True; machine.sense()
turns(150)
print("slots", unit.slots["L"])

unit.off_ms = 50
machine.pins[pins.VBUS_SENSE].level = 0   # on battery: standby lightsleeps
turns(200)
print("power", unit.power, board.display._shown, len(machine.sleeps) > 0, set(machine.sleeps))
unit.off_ms = 60000
press("7", True); turns(30); press("7", False); turns(30)
print("woken", unit.power, unit.entry == "")

app.vbus_blind = True  # a host spoke with VBUS low: off, but no light sleep to drop its port
n = len(machine.sleeps)
unit.off_ms = 50
turns(200)
print("hosted", unit.power, len(machine.sleeps) == n)
"""


def test_main_drives_the_board(tmp_path):
    lines = finish_script(board_script(tmp_path, "drive.py", BOARD_SCRIPT, text=True), 60)
    assert int(lines["heap"]) < 200000
    assert lines["entry"] == "25K True"  # three key presses on the matrix, typed once each
    assert lines["slots"] == "4"  # the card slid into L reads as card 4
    # switched off: display blanked (HT1621 powered down), standby in 100 ms light sleeps
    assert lines["power"] == "False None True {100}"
    assert lines["woken"] == "True True"  # a key wakes it, and is not taken as input
    assert lines["hosted"] == "False True"  # switched off, yet awake for the USB host


def test_no_byte_a_host_sends_stops_a_unit_in_play(tmp_path):
    # In play the REPL is out of a host's reach (from it any balance could be written): line
    # noise with Ctrl-C inside, mpremote's "\r\x03", a person's Ctrl-C twice, before and after
    # a host has spoken.
    proc = start(tmp_path)
    try:
        for noise in (b"\r\x03", b"ab\x03cd\x03", b"\x03\x03", b"\r\x03\r\x01"):
            proc.stdin.write(noise + b"\n")  # "\r\x03" first: mpremote's to a fresh unit
            proc.stdin.flush()
            assert readline(proc).startswith("ERR bad-line")  # the noise, one line
            assert ask(proc, "HELLO").startswith('OK {"device": "bank-unit"')
        assert proc.poll() is None
    finally:
        finish(proc)


MAINTENANCE_SCRIPT = BOARD_SETUP + r"""
unit.hold_ms = 60  # DEAL held for maintenance, shortened
press("DEAL", True); turns(150); press("DEAL", False); turns(40)
print("maintenance", unit.maintenance)
sys.stdout.flush()
try:
    turns(8000)  # the test sends mpremote's bytes now
    print("stopped", False)
except KeyboardInterrupt:
    print("stopped", True)
"""


def test_mpremote_gets_in_only_in_maintenance_entered_on_the_keypad(tmp_path):
    proc = board_script(tmp_path, "maint.py", MAINTENANCE_SCRIPT)
    try:
        assert readline(proc).startswith("heap")
        assert readline(proc) == "maintenance True\n"
        proc.stdin.write(b"\r\x03")
        proc.stdin.flush()
        assert readline(proc) == "stopped True\n"
    finally:
        if proc.poll() is None:
            proc.kill()


# A new game (B11, C held) is a checkpoint, some 200 ms of one turn on a Pico: "5" typed twice
# while it is written, the release between making no edge, comes as two presses.
NEW_GAME_KEYS_SCRIPT = BOARD_SETUP + r"""
unit.hold_ms = 60  # C held for a new game, shortened
store = unit.ledger.store
real_new_game = store.new_game
made = []
def slow_new_game(*a, **k):
    made.append(1)
    timer = board.keypad._timer  # the busy loop's looks, every look_ms on the Pico
    for on in (True, False, True, False):
        press("5", on)
        time.sleep_ms(35)  # past the keypad's debounce
        timer.fire()
    return real_new_game(*a, **k)
store.new_game = slow_new_game
press("C", True); turns(150); press("C", False); turns(100)
print("entry", unit.entry)
print("made", len(made))
"""


def test_a_key_typed_twice_while_a_new_game_is_written_is_two_presses(tmp_path):
    lines = finish_script(board_script(tmp_path, "cheld.py", NEW_GAME_KEYS_SCRIPT, text=True), 30)
    assert lines["entry"] == "55"
    assert lines["made"] == "1"  # one new game, written while the keys were typed


# The scans that follow a column's edge take milliseconds each on a Pico (here a look at the
# first column takes 1 ms): "5" pressed 20 ms after its release, inside its 30 ms lockout, is
# read as bounce by the first scan and as a press by one past the lockout.
LOCKOUT_KEYS_SCRIPT = BOARD_SETUP + r"""
read_col0 = cols[0].reader
def slow_col0():
    time.sleep_ms(1)
    return read_col0()
press("5", True); turns(40); press("5", False)
t = time.ticks_ms()
app.turn()  # the release: the key's lockout starts
time.sleep_ms(t + 20 - time.ticks_ms())
press("5", True)  # the edge: the loop's next turn scans
cols[0].reader = slow_col0
app.turn()
print("entry", unit.entry)
"""


def test_a_press_that_ends_its_keys_lockout_during_the_scans_after_its_edge_is_taken_at_once(
        tmp_path):
    lines = finish_script(board_script(tmp_path, "lockout.py", LOCKOUT_KEYS_SCRIPT, text=True), 30)
    assert lines["entry"] == "55"  # in the turn its edge woke, not a scan later (B2)


# Each stage is announced, the test then sends its bytes and nothing more;
# once the loop has taken the last of them it must still scan the keys, draw what they do and
# fire its timers (B16's switch-off), with the serial port silent.
SILENT_SERIAL_SCRIPT = BOARD_SETUP + r"""
def until(cond, ms):
    end = time.ticks_add(time.ticks_ms(), ms)
    while not cond() and time.ticks_diff(end, time.ticks_ms()) > 0:
        app.turn()
    return cond()

for name, last in (("crlf", 10), ("cr", 13), ("half", ord("L"))):
    print("ready", name)
    arrived = until(lambda: app._prev == last, 3000)
    shown = board.display._shown
    press("7", True); turns(40); press("7", False); turns(40)
    typed = unit.entry == "7" and board.display._shown != shown
    unit.off_ms = 50  # B16: the switch-off timer, shortened
    off = until(lambda: not unit.power, 500)
    unit.off_ms = 60000
    press("1", True); turns(40); press("1", False); turns(40)
    print("stage", name, arrived, typed, off, unit.power)
print("done")
until(lambda: app.eof, 5000)  # the rest of the line, answered, then the end of input
"""


class Lines:
    """Lines from a pipe as they come, each waited for with a timeout (no buffered reader
    holding a line that select() cannot see)."""

    def __init__(self, pipe):
        self.fd = pipe.fileno()
        self.buf = b""

    def next(self, timeout=10.0):
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0.0, left))
            assert ready, "no line within %s s" % timeout
            chunk = os.read(self.fd, 4096)
            assert chunk, "the program ended: %r" % self.buf
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()


def test_keys_and_timers_run_whatever_serial_brings(tmp_path):
    """A bare line end, a lone CR, half a line: none of them stops the keypad, the display or
    the timers while nothing more arrives (B16's timer)."""
    proc = board_script(tmp_path, "silent.py", SILENT_SERIAL_SCRIPT)
    lines = Lines(proc.stdout)
    try:
        assert lines.next().startswith("heap")
        for name, data in (("crlf", b"\r\n"), ("cr", b"\r"), ("half", b"HEL")):
            assert lines.next().split() == ["ready", name]
            proc.stdin.write(data)
            proc.stdin.flush()
            # a frozen loop never gets here: it waits in read(1) for a byte that never comes
            assert lines.next(5.0).split() == ["stage", name, "True", "True", "True", "True"]
        assert lines.next() == "done"
        proc.stdin.write(b"LO\n")  # the rest of the half line: the protocol still answers
        proc.stdin.flush()
        assert lines.next().startswith('OK {"device": "bank-unit"')
    finally:
        proc.stdin.close()
        try:
            code = proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert code == 0, proc.stderr.read().decode()


# Between presses the loop sleeps (no keypad scan, no slot poll) until a
# column's IRQ, which ends its wait at once.
IDLE_SCRIPT = BOARD_SETUP + r"""
import _thread
app.idle_ms = idle_ms  # the unit's own: this script measures how it waits
if idle_ms is None:
    del app.idle_ms  # a loop without one
press("2", True); turns(60); press("2", False); turns(100)  # settled, every row armed low
n = [0]
real_turn = app.turn
def counted():
    n[0] += 1
    return real_turn()
app.turn = counted
machine.clear()
end = time.ticks_add(time.ticks_ms(), 500)
while time.ticks_diff(end, time.ticks_ms()) > 0:
    app.turn()
row_ids = set(pins.KEY_ROWS)
writes = len([1 for pin, v in machine.trace if pin in row_ids])
print("idle", n[0], writes, [r.level for r in rows])

def later():
    time.sleep_ms(100)  # the loop is in its idle wait by then
    t[0] = time.ticks_ms()
    press("5", True)
t = [0]
_thread.start_new_thread(later, ())
while unit.entry != "25":
    app.turn()
print("woke", time.ticks_diff(time.ticks_ms(), t[0]))
press("5", False); turns(100)
print("entry", unit.entry)

# A bouncing contact: it falls (the IRQ), then reads open all through the edge's look and the
# first scan after it, then closed. The turn the edge woke still takes the key.
r3, c3 = [(r, c) for r in range(len(LAYOUT)) for c in range(len(LAYOUT[r]))
          if LAYOUT[r][c] == "3"][0]
scans = [0]
looks = [0]
real_scan = board.keypad.scan
real_look = board.keypad._look
def counted_scan(now):
    scans[0] += 1
    return real_scan(now)
def counted_look(now):
    looks[0] += 1
    return real_look(now)
board.keypad.scan = counted_scan
board.keypad._look = counted_look
plain = cols[c3].reader
def bouncing():
    if 1 <= looks[0] <= 2:
        return 1  # an open spell of the chattering contact
    return plain()
cols[c3].reader = bouncing
press("3", True)  # rows all low: the column falls, the IRQ sets the flag
app.turn()
print("bounce", unit.entry, scans[0])
"""


def test_the_loop_sleeps_until_a_key(tmp_path):
    """Idle, the loop scans no key and polls no slot: it waits for a column's IRQ (all rows
    low) and a press ends that wait at once."""
    lines = finish_script(board_script(tmp_path, "idle.py", IDLE_SCRIPT, text=True), 30)
    turns, writes, levels = lines["idle"].split(" ", 2)
    # 500 ms idle: one wait (up to idle_ms) where a 20 ms scan made 25 turns and 200 row writes
    assert int(turns) <= 2 and int(writes) == 0, lines["idle"]
    assert levels == "[0, 0, 0, 0]"  # armed: a closing switch pulls its column down at once
    assert int(lines["woke"]) < 50, lines["woke"]  # not at the end of the idle second
    assert lines["entry"] == "25"
    entry, scans = lines["bounce"].split()
    assert entry == "253" and int(scans) > 1, lines["bounce"]  # in one turn, past the bounce
