"""The keypad driver on a simulated 4 x 5 matrix of bouncing switches (fake machine)."""

import machine
from board.drivers.keypad import Keypad
from pins import KEYPAD as LAYOUT


class Matrix:
    """Switches between open-drain row pins and pulled-up column pins: a column reads 0 when
    a closed switch joins it to a row driven low. layout: which key each switch is."""

    def __init__(self, layout=LAYOUT):
        self.layout = layout
        self.rows = [machine.Pin("R%d" % r, machine.Pin.OPEN_DRAIN, value=1) for r in range(4)]
        self.cols = [machine.Pin("C%d" % c, machine.Pin.IN, machine.Pin.PULL_UP)
                     for c in range(5)]
        self.closed = set()
        for c, pin in enumerate(self.cols):
            pin.reader = self._reader(c)

    def _reader(self, c):
        def read():
            for r, row in enumerate(self.rows):
                if row.level == 0 and (r, c) in self.closed:
                    return 0
            return 1

        return read

    def where(self, key):
        for r, row in enumerate(self.layout):
            for c, k in enumerate(row):
                if k == key:
                    return (r, c)
        raise KeyError(key)

    def set(self, key, closed):
        pos = self.where(key)
        if closed:
            self.closed.add(pos)
        else:
            self.closed.discard(pos)


def run(pad, matrix, key, contact, start=0, scan_ms=2):
    """Scan every scan_ms while `contact(t)` says whether the switch is closed at t ms."""
    events = []
    t = 0
    while t <= 400:
        matrix.set(key, contact(t))
        for ev in pad.scan((start + t) & 0x3FFFFFFF):
            events.append((t,) + ev)
        t += scan_ms
    return events


def bouncing(t):
    # Closes at 0 ms with 8 ms of bounce, held, opens at 200 ms with 8 ms of bounce.
    if t < 8:
        return (t // 2) % 2 == 0
    if t < 200:
        return True
    if t < 208:
        return (t // 2) % 2 == 1
    return False


def test_a_bouncing_press_is_one_down_and_one_up():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    events = run(pad, matrix, "5", bouncing)
    assert events == [(0, "down", "5"), (200, "up", "5")]  # both on the first edge


def test_debounce_is_at_least_20_ms():
    assert Keypad.debounce_ms >= 20


def test_a_press_held_across_the_ticks_wrap_is_one_down_and_one_up():
    # How long a key is held is the unit's to time (B11), from the down event.
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    events = run(pad, matrix, "C", bouncing, start=(1 << 30) - 100)
    assert events == [(0, "down", "C"), (200, "up", "C")]


def test_every_key_and_two_at_once():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    keys = [k for row in LAYOUT for k in row if k is not None]
    assert len(keys) == 17
    assert sorted(keys) == sorted(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "M",
                                   "K", "C", "DEAL", "+", "-"])
    now = 0
    for k in keys:
        matrix.set(k, True)
        assert list(pad.scan(now)) == [("down", k)]
        now += 50
        matrix.set(k, False)
        assert list(pad.scan(now)) == [("up", k)]
        now += 50
    matrix.set("4", True)
    matrix.set("1", True)  # same column, other row: open-drain rows keep them apart
    got = sorted(pad.scan(now))
    assert got == [("down", "1"), ("down", "4")]


def test_every_ready_keypad_map_has_each_of_the_17_keys_once_on_the_pins_matrix():
    # pins.py's maps: the reference's switches, a 4x4 membrane and one switch, a 4x5 membrane
    import pins

    from brain.unit import KEYS

    maps = [pins.KEYPAD_SWITCHES, pins.KEYPAD_MEMBRANE_4X4, pins.KEYPAD_MEMBRANE_4X5]
    assert pins.KEYPAD is pins.KEYPAD_SWITCHES  # the reference build's, as before
    for layout in maps:
        assert len(layout) == len(pins.KEY_ROWS)
        assert [len(row) for row in layout] == [len(pins.KEY_COLS)] * len(pins.KEY_ROWS)
        keys = [k for row in layout for k in row if k is not None]
        assert sorted(keys) == sorted(KEYS)


def test_each_membrane_map_types_every_key():
    import pins

    for layout in (pins.KEYPAD_MEMBRANE_4X4, pins.KEYPAD_MEMBRANE_4X5):
        matrix = Matrix(layout)
        pad = Keypad(matrix.rows, matrix.cols, layout)
        now = 0
        for key in [k for row in layout for k in row if k is not None]:
            matrix.set(key, True)
            assert list(pad.scan(now)) == [("down", key)]
            now += 50
            matrix.set(key, False)
            assert list(pad.scan(now)) == [("up", key)]
            now += 50
    # the one switch added to a 4x4 membrane is DEAL, from its first row to the fifth column
    assert [(r, c) for r, row in enumerate(pins.KEYPAD_MEMBRANE_4X4) for c, k in enumerate(row)
            if c == 4 and k is not None] == [(0, 4)]
    assert pins.KEYPAD_MEMBRANE_4X4[0][4] == "DEAL"


def test_rows_are_released_between_scans():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    matrix.set("DEAL", True)
    assert list(pad.scan(0)) == [("down", "DEAL")]
    assert [r.level for r in matrix.rows] == [1, 1, 1, 1]  # no row left driven low


def test_nothing_pressed_allocates_no_events():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    assert pad.scan(0) == ()


# -- asleep between presses -----------------------------------------------


NOW = [0]  # the clock the IRQ reads: the ms a test's switch moves at


def listening():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    pad.timer = machine.Timer()
    pad.listen(machine.Pin.IRQ_FALLING, lambda: NOW[0], pad.timer)
    NOW[0] = 0
    return matrix, pad


def press(matrix, key, closed, at=None):
    if at is not None:
        NOW[0] = at
    matrix.set(key, closed)
    machine.sense()  # the moment the column's level would change


def test_idle_drives_every_row_low_and_a_press_raises_the_column_irq():
    matrix, pad = listening()
    assert pad.scan(0) == ()
    assert pad.idle(0)
    assert [r.level for r in matrix.rows] == [0, 0, 0, 0]  # every switch joins a low row
    press(matrix, "8", True, at=0)  # row 0 column 1
    press(matrix, "8", False, at=50)  # not even held to the next scan: its edges found it
    press(matrix, "DEAL", True, at=90)
    assert pad.woke
    # one row at a time again: no ghost keys; in the order they came
    assert list(pad.scan(100)) == [("down", "8"), ("up", "8"), ("down", "DEAL")]
    assert not pad.idle(100)  # a key down: scanned until it is up
    assert pad.scan(131) == ()
    press(matrix, "DEAL", False)
    assert list(pad.scan(300)) == [("up", "DEAL")]
    assert not pad.idle(329)  # its debounce lockout still runs
    assert pad.idle(330) and not pad.woke


def test_a_bouncing_tap_over_before_the_next_scan_is_one_press_and_one_release():
    # The loop may be busy for longer than a brisk tap (a long reply, a checkpoint): the
    # edges' interrupts looked at the matrix, so the scan after it still reports the key, and
    # its debounce lockout runs from the edge, as for any change.
    matrix, pad = listening()
    pad.idle(0)
    for t, closed in ((10, True), (11, False), (12, True), (13, False), (14, True),
                      (60, False), (61, True), (62, False)):
        press(matrix, "4", closed, at=t)
    assert pad.woke
    assert list(pad.scan(80)) == [("down", "4"), ("up", "4")]
    assert not pad.idle(80)  # the release's lockout
    assert pad.scan(110) == () and pad.idle(110) and not pad.woke


def test_keys_typed_while_the_loop_is_busy_with_a_key_held_come_whole_and_in_order():
    # "-" pressed (its commit a checkpoint: a long turn), the loop watching: "-" let go, then
    # "7 K -" typed before the next scan. Each was lost but one tap, and a C typed after found
    # no entry and undid the transfer (B10).
    matrix, pad = listening()
    pad.idle(0)
    press(matrix, "-", True, at=0)
    assert list(pad.scan(1)) == [("down", "-")]
    assert not pad.idle(1)
    pad.watch()
    t = 50
    press(matrix, "-", False, at=t)
    for key in ("7", "K", "-"):
        press(matrix, key, True, at=t + 40)
        press(matrix, key, False, at=t + 90)
        t += 90
    assert list(pad.scan(400)) == [("up", "-"), ("down", "7"), ("up", "7"), ("down", "K"),
                                   ("up", "K"), ("down", "-"), ("up", "-")]


def test_a_key_typed_twice_while_the_loop_is_busy_is_two_presses():
    # "5 5 5 K -" typed during a checkpoint came out "5K": a release makes no edge, and the
    # edge of the next press found the key closed, as it was last seen. While the loop is
    # busy (watched) the matrix is looked at every look_ms as well.
    matrix, pad = listening()
    pad.idle(0)
    press(matrix, "-", True, at=0)
    assert list(pad.scan(1)) == [("down", "-")]
    pad.watch()
    assert pad.timer.period == pad.look_ms
    t = 50
    press(matrix, "-", False, at=t)
    for key in ("5", "5", "5", "K"):
        press(matrix, key, True, at=t + 30)
        for dt in range(30, 70, pad.look_ms):  # held 40 ms, let go 30
            NOW[0] = t + dt
            pad.timer.fire()
        press(matrix, key, False, at=t + 70)
        NOW[0] = t + 80
        pad.timer.fire()
        t += 70
    assert list(pad.scan(t + 20)) == [("up", "-")] + [("down", "5"), ("up", "5")] * 3 + [
        ("down", "K"), ("up", "K")]
    assert pad.timer.callback is None  # the scan ends the looks: none while the loop idles


def test_a_look_makes_edges_of_its_own_and_takes_none_of_them_for_news():
    # On the Pico an edge that comes while the interrupt runs calls it again once it is
    # over: a look with a key held makes one on that key's column, and looking again for it
    # would keep the core in the interrupt for as long as the key is held.
    matrix, pad = listening()
    pad.idle(0)
    press(matrix, "5", True, at=0)
    column = matrix.cols[matrix.where("5")[1]]
    written = len(machine.trace)
    NOW[0] = 1
    pad._edge(column)  # the look's own edge, called again as the Pico does
    assert len(machine.trace) == written  # no row driven: no look
    assert list(pad.scan(2)) == [("down", "5")]


def test_watched_in_a_lockout_a_tap_counts_and_the_released_key_s_bounce_does_not():
    # watch(): the loop is about to be busy (a host's long reply) while the last key's
    # lockout runs; the matrix is armed at once. The released key's contact chattering in its
    # lockout is no press; the same key tapped again once the lockout is over, or another
    # key, is found at its edge.
    for again in ("1", "2"):
        matrix, pad = listening()
        pad.idle(0)
        press(matrix, "1", True)
        assert list(pad.scan(10)) == [("down", "1")]
        assert not pad.idle(10)
        press(matrix, "1", False)
        assert list(pad.scan(100)) == [("up", "1")]
        assert not pad.idle(105)  # its lockout
        pad.watch()
        assert pad.armed and not pad.woke
        press(matrix, "1", True, at=106)  # a bounce of the released key
        press(matrix, "1", False, at=107)
        assert pad.woke
        press(matrix, again, True, at=250)  # a tap, over before the next scan
        press(matrix, again, False, at=300)
        assert list(pad.scan(400)) == [("down", again), ("up", again)], again


def test_watched_with_a_key_held_a_tap_of_another_column_counts_and_the_held_key_is_no_tap():
    # A key held down while the loop is about to be busy: watch() arms the matrix anyway. A
    # tap in another column is found at its edge; the held key, closed at that look, is not
    # taken for one, and its release is the scan's as ever.
    matrix, pad = listening()
    pad.idle(0)
    press(matrix, "1", True)  # row 2 column 0
    assert list(pad.scan(10)) == [("down", "1")]
    assert not pad.idle(10)  # held: scanned, not armed
    pad.watch()
    assert pad.armed
    press(matrix, "8", True, at=100)  # row 0 column 1: a tap, over before the next scan
    press(matrix, "8", False, at=150)
    assert list(pad.scan(180)) == [("down", "8"), ("up", "8")]
    assert not pad.idle(180)
    press(matrix, "1", False)
    assert list(pad.scan(300)) == [("up", "1")]


def test_a_press_in_the_lockout_is_seen_when_it_ends():
    # Debounce unchanged: a change within 30 ms of the last is held back, not lost, even when
    # the matrix would otherwise sleep until the next edge.
    matrix, pad = listening()
    events = []
    for t in range(0, 200, 10):
        press(matrix, "3", t < 40 or t >= 50)  # down, up at 40, down again at 50
        if not pad.armed or pad.woke:
            events += [(t,) + ev for ev in pad.scan(t)]
            pad.idle(t)
    assert events == [(0, "down", "3"), (40, "up", "3"), (70, "down", "3")]


def test_a_key_held_when_the_matrix_is_armed_wakes_it_at_once():
    matrix, pad = listening()
    matrix.set("0", True)  # closed while the rows were released: no edge came
    assert pad.idle(0) and pad.woke
    assert list(pad.scan(0)) == [("down", "0")]


def test_without_irqs_the_matrix_is_scanned_as_before():
    matrix = Matrix()
    pad = Keypad(matrix.rows, matrix.cols, LAYOUT)
    assert not pad.idle(0)  # no listen(): no edge would ever wake it
    assert [r.level for r in matrix.rows] == [1, 1, 1, 1]


def test_keys_used_before_a_week_switched_off_are_taken_after_it():
    # Ticks wrap every 2**30 ms: 6.5 days after a key's last change, a lockout that counted
    # from it read that change as a moment ago, and the key stayed dead for 6 days more.
    matrix, pad = listening()
    day = 24 * 3600 * 1000
    events = []
    for t, closed in ((0, True), (100, False)):
        press(matrix, "5", closed, at=t)
        events += pad.scan(t)
        pad.idle(t)
    for t in range(200, 7 * day, 3600 * 1000):  # switched off: a scan every standby turn
        events += pad.scan(t & 0x3FFFFFFF)
        pad.idle(t & 0x3FFFFFFF)
    t = int(6.5 * day)
    for dt, closed in ((0, True), (80, False)):
        press(matrix, "5", closed, at=(t + dt) & 0x3FFFFFFF)
        events += pad.scan((t + dt) & 0x3FFFFFFF)
        pad.idle((t + dt) & 0x3FFFFFFF)
    assert events == [("down", "5"), ("up", "5"), ("down", "5"), ("up", "5")]
    assert pad.idle((t + 200) & 0x3FFFFFFF)  # and the matrix sleeps until the next edge


def test_a_map_without_a_key_for_each_row_and_column_is_refused_when_built():
    # A maker's map one column short would raise at that column's first press, in play; a map
    # with more than is wired (the 4x4 membrane's on four columns) is whole.
    m = Matrix()
    for short in (LAYOUT[:3], tuple(row[:4] for row in LAYOUT)):
        try:
            Keypad(m.rows, m.cols, short)
        except ValueError as e:
            assert "KEYPAD" in str(e)
        else:
            raise AssertionError("built with %r" % (short,))
    assert Keypad(m.rows[:3], m.cols[:4], LAYOUT).layout == LAYOUT
