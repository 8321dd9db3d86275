"""A player's hands and eyes at the pins: press keys, slide cards, read the glass, hear the piezo.

Everything here goes through parts.py: the firmware is never asked anything but over USB serial.
"""

import os
import subprocess
import sys

from simulator.pico.glass import looks

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HOLD_MS = 50  # a brisk press: longer than the 30 ms debounce, as a finger is
GAP_MS = 40

def press(pico, key, hold_ms=HOLD_MS, gap_ms=GAP_MS):
    keys = pico.parts.keys
    keys.press(key)
    pico.run(hold_ms)
    keys.release(key)
    pico.run(gap_ms)


def to_glass(pico, key, hold_ms=60, gap_ms=60):
    """Press key for hold_ms, then gap_ms released: ms from its contact (the column first
    pulled low) to the end of the last HT1621 frame that changed the glass."""
    keys = pico.parts.keys
    disp = pico.parts.display
    before = disp.changed_ms
    keys.press(key)
    t0 = keys.first_closed[key]
    pico.run(hold_ms)
    assert disp.changed_ms != before, key  # the key changed the glass
    took = disp.changed_ms - t0
    keys.release(key)
    pico.run(gap_ms)
    return took


def type_keys(pico, keys):
    for k in keys.split():
        press(pico, k)


def shown(pico):
    """(text, annunciator) on the glass now."""
    return pico.parts.display.shown()


def expect(text, annunciator=""):
    """What the glass shows for the unit's text: the protocol's words as a 7-segment glass
    reads them ("SErv" reads "5Eru")."""
    return looks(text), annunciator


def sounds_since(pico, t_ms):
    """The notes the piezo played since t_ms: [(freq_hz, duty)]."""
    return [s for t, s in pico.parts.piezo.history if t >= t_ms and s is not None]


def wait_shown(pico, text, annunciator="", timeout_ms=1500):
    want = expect(text, annunciator)
    try:
        pico.run_until(lambda: shown(pico) == want, timeout_ms, step_ms=5)
    except AssertionError:
        raise AssertionError("the glass shows %r, not %r" % (shown(pico), want)) from None
    return pico.now_ms()


def insert(pico, slot, card, **kw):
    pico.parts.slots[slot].insert(card, **kw)


def remove(pico, slot):
    pico.parts.slots[slot].remove()
    pico.run(120)


def _tone_table():
    """firmware/tones.py's TONES (B18): what each named tone is, note by note. Read as the
    reference a listener compares with; the pin suite identifies tones from the PWM alone."""
    import os

    ns = {}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "brain", "tones.py")
    with open(path) as f:
        exec(compile(f.read(), "tones.py", "exec"), ns)
    return {name: [n for n in notes[0::2] if n] for name, notes in ns["TONES"].items()}


TONES = _tone_table()


def tones_heard(pico, t_ms):
    """The named tones the piezo played since t_ms, in order, and their loudness:
    [(name, 'loud'|'soft')]. A run of pitches that is no tone of the table is '?'."""
    notes = []
    for t, s in pico.parts.piezo.history:
        if t >= t_ms and s is not None:
            notes.append(s)
    out = []
    i = 0
    names = sorted(TONES, key=lambda n: -len(TONES[n]))
    while i < len(notes):
        for name in names:
            pitches = TONES[name]
            got = [f for f, _ in notes[i:i + len(pitches)]]
            if len(got) == len(pitches) and all(
                    abs(a - b) <= b * 0.01 for a, b in zip(got, pitches, strict=True)):
                duty = notes[i][1]
                out.append((name, "loud" if duty > 0.25 else "soft"))
                i += len(pitches)
                break
        else:
            out.append(("?", notes[i]))
            i += 1
    return out


def heard(pico, t_ms, timeout_ms=1200):
    """tones_heard once the piezo has been silent for 100 ms (longer than any rest or gap
    inside a tone: a tone still playing is let finish), counted from this call at the earliest:
    a tone the firmware starts a moment after the picture it goes with is not missed."""
    piezo = pico.parts.piezo
    asked = pico.now_ms()

    def quiet():
        last = piezo.history[-1] if piezo.history else (0, None)
        return last[1] is None and pico.now_ms() - max(last[0], asked) >= 100

    pico.run_until(quiet, timeout_ms, step_ms=10)
    return tones_heard(pico, t_ms)


def tone_started(pico, name, t_ms):
    """Whether the piezo has begun the tone `name` since t_ms (its first pitch is sounding or
    has sounded after whatever came before)."""
    first = TONES[name][0]
    return any(s is not None and abs(s[0] - first) <= first * 0.01
               for t, s in pico.parts.piezo.history if t >= t_ms)


def _watch_lit(pico):
    """[(lit, what the glass shows)] after every frame the display chip takes, and a function
    that stops the watch."""
    disp = pico.parts.display
    seen = []
    inner = disp._frame

    def frame(*args):
        inner(*args)
        seen.append((disp.lit(), shown(pico)))

    disp._frame = frame

    def stop():
        disp._frame = inner

    return seen, stop


def wake_shows_only_the_new_picture(pico):
    """B16, on a unit awake showing 0 with no card in: 150 typed, a minute without input
    switches it off, a key wakes it (no input) and the glass lights on the new picture, 0,
    never on the 150 of before: the picture is written before the glass is switched on."""
    type_keys(pico, "1 5 0")
    assert shown(pico) == expect("150")
    pico.idle(61000)
    assert shown(pico) == ("", "")
    seen, stop = _watch_lit(pico)
    try:
        press(pico, "7")
        wait_shown(pico, "0", timeout_ms=200)
    finally:
        stop()
    lit = [s for on, s in seen if on]
    assert lit and all(s == expect("0") for s in lit), seen


def long_game(state, then=b""):
    """A game of 643 transactions played by the headless simulator in the folder state, as the
    store leaves it: both slots full, each a checkpoint of 200 records, the newest with a
    journal of 127 lines (the next write is a checkpoint). (The files for Pico(fs_extra=...),
    the simulator's replies to the lines of then, played after.)"""
    played = b"INSERT R 2\nINSERT L 1\n" + b"KEY 1 0 K -\n" * 643 + then
    p = subprocess.run([sys.executable, "-m", "simulator", "--headless", "--stdio",
                        "--virtual-clock", "--state", str(state)], input=played, cwd=REPO,
                       capture_output=True, timeout=300, check=True)
    names = ("bank.a", "bank.b", "bank.id")
    files = [("bank/" + n, open(os.path.join(str(state), n), "rb").read()) for n in names]
    return files, p.stdout.decode().splitlines()
