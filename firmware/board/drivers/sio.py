"""The RP2040's single-cycle IO block (SIO) straight from viper code: the keypad's row reads and
the HT1621's frames without a MicroPython call per pin change (each Pin.value() is a few
microseconds, and a press's scan and frame are dozens of them, between a key and its digit).

RP2040 datasheet, 2.3.1.7 "SIO: List of Registers": GPIO_IN 0x04, GPIO_OUT_SET 0x14,
GPIO_OUT_CLR 0x18, GPIO_OE_SET 0x24, GPIO_OE_CLR 0x28 (offsets from 0xd0000000, word index =
offset / 4); 4.6.5 "Timer: List of Registers": TIMERAWL at 0x40054028, microseconds. The pins
stay configured by machine.Pin (function SIO, pull-ups, open drain as MicroPython sets it up:
output value 0, the driver enabled to pull low), so the pin-object path (tests/fake_machine, the
unix port) and this one drive the same levels.

rp2 only: imported by board/build.py when sys.platform is "rp2"; elsewhere these addresses are not
IO.
"""

# The functions below are viper code, which mpy-cross compiles only for a named architecture
# (-march=armv6m, as `make mpy` and `make deploy` pass; without one it stops at "invalid arch").
# Every file of firmware/ must also compile with a plain `mpy-cross`, the syntax gate run on
# each file before work stops, so the code is a string: the unit's own image freezes it compiled
# (board.drivers.sio_native, written by tools/uf2.py), and on deployed files the Pico compiles
# it when board/build.py imports this module, a few milliseconds once at boot. `make lint` and
# `make typecheck` read it as a file at these line numbers (tools/viper_source.py);
# tests/test_sio.py compiles it with mpy-cross for the RP2040.
CODE = """
import machine
import micropython
from micropython import const

_SETTLE_US = const(5)  # a released row's column back high through its pull-up (tens of kohm)
_PHASE_US = const(4)  # HT1621 WR phases: >= 3.34 us each (150 kHz), edges on tick boundaries


@micropython.viper
def matrix_closed(rows, cols: int, shift: int, width: int) -> int:
    '''Every open-drain row (rows: an array('I') of their GPIO bits) released, then each in
    turn driven low, the columns (their GPIO bits) read, the row released; the closed switches
    as one mask, row r's columns (shifted down by shift) at bits r * width and up.'''
    sio = ptr32(0xD0000000)  # noqa: F821 (a viper builtin)
    timer = ptr32(0x40054028)  # noqa: F821
    bits = ptr32(rows)  # noqa: F821
    n = int(len(rows))
    r = 0
    while r < n:
        sio[10] = bits[r]  # GPIO_OE_CLR: released (idle() left them all low)
        r += 1
    out = 0
    r = 0
    while r < n:
        row = bits[r]
        sio[9] = row  # GPIO_OE_SET: the row pulls low
        t0 = timer[0]
        while timer[0] - t0 < _SETTLE_US:
            pass
        closed = (sio[1] ^ cols) & cols  # GPIO_IN: a closed switch reads low
        sio[10] = row  # GPIO_OE_CLR: released, pulled high by the columns' pull-ups
        out |= (closed >> shift) << (r * width)
        r += 1
    return out


@micropython.viper
def rows_level(rows: int, low: int):
    '''Every row of the mask driven low (low true) or released.'''
    sio = ptr32(0xD0000000)  # noqa: F821
    if low:
        sio[9] = rows
    else:
        sio[10] = rows


@micropython.viper
def usb_setup() -> int:
    '''The last SETUP packet the USB host sent, folded into a small int: it changes with
    every control request (a port opened, closed, set up). RP2040 datasheet 4.1.2.5: the
    packet is the first 8 bytes of the USB DPRAM (0x50100000), there until the next.'''
    p = ptr16(0x50100000)  # noqa: F821
    return (p[0] ^ (p[1] << 7) ^ (p[2] << 14) ^ (p[3] << 3)) & 0x3FFFFFFF


@micropython.viper
def ht1621_frame(pins: int, head: int, count: int, data) -> int:
    '''CS low, `count` bits of head MSB first, then each byte of data MSB first, CS high.
    count | i << 8 | n << 16 (n > 0): data's bytes i to n - 1 only.

    pins: the CS, WR and DATA GPIO numbers as cs | wr << 8 | data << 16. DATA is set while WR
    is low and latched at WR's rising edge; each WR phase lasts _PHASE_US by the timer, every
    edge made just after the timer's tick with interrupts off (a frame is well under a
    millisecond), so none is shorter than ~3.8 us: 125 kHz, under the datasheet's 150 kHz WR
    clock, whatever the CPU clock. Returns the bits sent.'''
    sio = ptr32(0xD0000000)  # noqa: F821
    timer = ptr32(0x40054028)  # noqa: F821
    buf = ptr8(data)  # noqa: F821
    n = count >> 16
    i = (count >> 8) & 0xFF
    count &= 0xFF
    if not n:
        n = int(len(data))
    cs = 1 << (pins & 31)
    wr = 1 << ((pins >> 8) & 31)
    dat = 1 << ((pins >> 16) & 31)
    sent = 0
    value = head
    mask = 1 << (count - 1)
    irq = machine.disable_irq()  # nothing may stretch the gap between an edge and its tick
    sio[6] = cs  # GPIO_OUT_CLR
    t = timer[0]
    while timer[0] == t:
        pass  # from here each edge is made just after a tick, its phase whole microseconds
    while True:
        while mask:
            sio[6] = wr
            t = timer[0]
            if value & mask:
                sio[5] = dat  # GPIO_OUT_SET
            else:
                sio[6] = dat
            mask >>= 1
            sent += 1
            while timer[0] - t < _PHASE_US:
                pass
            sio[5] = wr  # latched on this rising edge
            t = timer[0]
            while timer[0] - t < _PHASE_US:
                pass
        if i == n:
            break
        value = buf[i]
        i += 1
        mask = 0x80
    sio[5] = cs
    machine.enable_irq(irq)
    return sent


@micropython.viper
def ht1621_text(pins: int, text, table, shown) -> int:
    '''A text on the HT1621's cells in one call (HT1621.show_text): right-aligned, each
    character's digit byte looked up, the annunciator's added, and the bytes that differ from
    shown (the chip's RAM, a byte per digit) sent as one WRITE frame (ht1621_frame), then
    copied into shown. Returns the bits sent, or -1 with nothing sent for a text it does not
    take (longer than the cells, a point, a character not in the table).

    pins: CS | WR << 8 | DATA << 16 | the annunciator's digit byte (7 bits) << 24. table: the
    digit byte of each ASCII character from 32 (96 bytes, 0xFF: not here), the RAM byte of each
    cell, the annunciator's, then room for the new frame (as many bytes as shown).'''
    t = ptr8(text)  # noqa: F821
    n = int(len(text))
    tab = ptr8(table)  # noqa: F821
    sh = ptr8(shown)  # noqa: F821
    digits = int(len(shown))
    cells = int(len(table)) - 97 - digits
    if n > cells:
        return -1
    new = 97 + cells
    j = 0
    while j < digits:
        tab[new + j] = 0
        j += 1
    at = 96 + cells - n
    i = 0
    while i < n:
        o = t[i] - 32
        if o < 0 or o >= 96:
            return -1
        g = tab[o]
        if g == 0xFF:
            return -1
        tab[new + tab[at + i]] = g
        i += 1
    tab[new + tab[96 + cells]] = (pins >> 24) & 0x7F
    first = 0
    while first < digits and tab[new + first] == sh[first]:
        first += 1
    if first == digits:
        return 0
    last = digits - 1
    while tab[new + last] == sh[last]:
        last -= 1
    j = first
    while j <= last:
        sh[j] = tab[new + j]
        j += 1
    return int(ht1621_frame(pins & 0xFFFFFF, (0b101 << 6) | (first << 1),
                            9 | first << 8 | (last + 1) << 16, shown))
"""

try:
    # The unit's own image carries CODE compiled for the RP2040 as a frozen module
    # (tools/uf2.py): machine code run from flash, where exec() would leave it on the heap,
    # which every collection scans.
    from board.drivers.sio_native import (  # type: ignore[import-not-found]  # noqa: F401
        ht1621_frame, ht1621_text, matrix_closed, rows_level, usb_setup)
except ImportError:
    exec(CODE)  # noqa: S102 - our own source, above
del CODE
