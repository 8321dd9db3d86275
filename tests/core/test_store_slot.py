"""B17: the slot format's one reader (store/slot.py) at its edges, where boot, the log read back
(LOG) and a checkpoint must agree: damage in the checkpoint's lines is reported even when the
journal ends with a cut append, a slot too big for RAM is unreadable (not a crash), a last
line whose newline was flipped counts and is carried on whole by the next checkpoint, and a
last line whose newline is missing was never committed."""

from brain.ledger import Ledger
from store import FileStore, line
from storerig import FaultFS, copy_files


def _played(txns, journal_max=4):
    """A game of txns receipts on card 1 (one checkpoint every journal_max + 1)."""
    fs = FaultFS()
    led = Ledger(FileStore("/bank", fs=fs, journal_max=journal_max), None)
    assert led.load(None) == "new"
    for i in range(txns):
        led.move("receive", 0, 1, 10000 * (i + 1), 0)
    return fs, led


def _boot(fs):
    led = Ledger(FileStore("/bank", fs=fs, journal_max=4), None)
    return led, led.load(None)


def _in_use(fs, led):
    return fs.files[led.store.paths[led.store.cur]]


def test_a_bad_checkpoint_line_is_damage_even_when_the_last_append_was_cut():
    fs, led = _played(7)  # a checkpoint carrying 5 records, then 2 journal lines
    buf = _in_use(fs, led)
    first_c = buf.index(b"\n") + 1 + 12  # inside the first checkpoint line's payload
    buf[first_c] ^= 0x01
    buf.extend(line("r 8 receive 0 1 80000 0 0 0 keypad")[:20])  # a cut append after it
    led2, status = _boot(FaultFS(copy_files(fs.files)))
    # The balances stand (the header's, then the journal's), the lost history is reported;
    # the seq goes on past any the journal may have held (the checkpoint's 5, then 4 lines).
    assert status == "damaged" and "has bad lines" in led2.store.detail
    assert led2.bal == led.bal and led2.seq == 5 + 4


def test_a_slot_too_big_for_ram_is_unreadable_and_the_other_slot_is_used():
    fs, led = _played(12)  # both slots written: the other one holds the checkpoint before
    big = led.store.paths[led.store.cur]

    class Big(FaultFS):
        def open(self, path, mode):
            f = FaultFS.open(self, path, mode)
            if path == big:
                def read(*most):
                    raise MemoryError()
                f.read = read
            return f

    led2, status = _boot(Big(copy_files(fs.files)))
    assert status == "damaged" and big.rsplit("/", 1)[1] + " unreadable" in led2.store.detail
    # An earlier whole state, never invented; its seq goes on past every one the lost slot
    # may have named (its checkpoint and a whole journal after it), so none is given again.
    assert led2.ready and sum(led2.bal) < sum(led.bal)
    assert led2.seq == led2.store.records()[-1][0] + 1 + 4 >= led.seq


def test_a_flipped_last_newline_counts_and_the_next_checkpoint_carries_it_on():
    fs, led = _played(7)
    want = led.store.records()
    _in_use(fs, led)[-1] ^= 0x01  # "\n" -> "\x0b": the line is whole, its end is damaged
    led2, status = _boot(FaultFS(copy_files(fs.files)))
    # The line is read; the seq goes on past any the journal may have held after it (the
    # checkpoint's 5, and 4 lines at most after it)
    assert status == "damaged" and led2.bal == led.bal and led2.seq == 5 + 4
    assert led2.store.records() == want
    gen = led2.store.gen
    led2.move("receive", 0, 2, 5000, 0)  # the slot is not appended to: a checkpoint
    assert led2.store.gen == gen + 1
    led3, status = _boot(FaultFS(copy_files(led2.store.fs.files)))
    assert status == "damaged" and led3.bal == led2.bal  # B17: until the banker has seen it
    led2.store.seen(led2)  # the banker's key, which the unit tells the store of
    led3, status = _boot(FaultFS(copy_files(led2.store.fs.files)))
    assert status == "ok" and led3.bal == led2.bal
    assert led3.store.records()[:-1] == want and len(led3.store.records()) == 8


def test_the_newest_slot_lost_after_a_cut_append_is_damage_said_never_an_older_game():
    # B17: a cut append (a power cut inside it) left the slot in use ending in a cut line,
    # which no note can follow. The next move went whole into the other slot; with that one
    # lost, the cut slot booted "ok" with the move gone and nobody told.
    for lost in ("removed", "emptied"):
        fs, led = _played(7)
        _in_use(fs, led).extend(b"1234abcd r 8 rec")
        led2, status = _boot(FaultFS(copy_files(fs.files)))
        assert status == "ok"
        led2.move("receive", 0, 2, 500000, 0)
        files = copy_files(led2.store.fs.files)
        newest = led2.store.paths[led2.store.cur]
        if lost == "removed":
            del files[newest]
        else:
            files[newest] = bytearray()
        led3, status = _boot(FaultFS(files))
        assert status == "damaged", lost
        assert not led3.ready or led3.bal == led2.bal, lost


def test_a_flash_that_takes_no_appends_writes_each_checkpoint_twice_and_no_more():
    # The old slot that cannot be told is written over once, never again and again.
    class NoAppends(FaultFS):
        def open(self, path, mode):
            if "a" in mode:
                raise OSError(28)
            return FaultFS.open(self, path, mode)

    fs, led = _played(3)
    led2, status = _boot(NoAppends(copy_files(fs.files)))
    assert status == "ok"
    gen = led2.store.gen
    # An append refused is the move refused (store-failed); the next goes whole, as a
    # checkpoint, which its old slot cannot be told of.
    got = [led2.move("receive", 0, 2, 5000, 0) for _ in range(4)]
    done = [r for r in got if not isinstance(r, str)]
    assert len(done) == 2 and led2.store.gen == gen + 2 * len(done)
    led3, status = _boot(FaultFS(copy_files(led2.store.fs.files)))
    assert status == "ok" and led3.bal == led2.bal


def test_a_last_line_without_its_newline_was_never_acknowledged_and_does_not_count():
    # B17: a line is committed only once its "\n" is on flash. A short write to a full flash
    # lands all but the "\n": the CRC of what landed reads, yet the line is a cut append.
    fs, led = _played(7)
    want = led.store.records()
    r8 = "r 8 receive 0 1 80000 0 %d 0 key" % (led.bal[1] + 80000)  # the next one, whole
    _in_use(fs, led).extend(line(r8)[:-1])
    led2, status = _boot(FaultFS(copy_files(fs.files)))
    assert status == "ok" and led2.bal == led.bal and led2.seq == 7
    assert led2.store.records() == want
    gen = led2.store.gen
    # Nothing may follow a cut line: a checkpoint into the other slot, then the same over
    # the cut one, which the first is told of (so losing the newest is damage, said).
    led2.move("receive", 0, 2, 5000, 0)
    assert led2.store.gen == gen + 2
    led3, status = _boot(FaultFS(copy_files(led2.store.fs.files)))
    assert status == "ok" and led3.bal == led2.bal and led3.seq == 8
    assert led3.store.records()[:-1] == want
    assert led3.store.records()[-1][1:5] == ("receive", 0, 2, 5000)


def test_boot_reads_a_file_in_pieces_as_readline_would_line_by_line():  # B17
    # store/slot.py's Lines: 512 bytes at a time, the same lines as readline(LINE_MAX) (a last
    # one without its newline, a longer one cut at LINE_MAX), and then the whole rest, even when
    # the first line ends where a piece of 512 does (a kept game's lines after its header).
    from store.slot import LINE_MAX, Lines

    fs = FaultFS()
    for data in (b"", b"\n", b"a\r\nb", b"x" * 511 + b"\n" + b"y" * 600,
                 b"z" * 5000 + b"\nw\n", (b"h" * 511 + b"\n") * 3, (b"k" * 1023 + b"\n") * 3):
        want, rest = [], data
        while rest:
            i = rest.find(b"\n")
            n = min(len(rest) if i < 0 else i + 1, LINE_MAX)
            want.append(rest[:n])
            rest = rest[n:]
        fs.files["/f"] = bytearray(data)
        lines, got = Lines(fs.open("/f", "rb")), []
        raw = lines.next()
        while raw:
            got.append(raw)
            raw = lines.next()
        assert got == want, len(data)
        lines = Lines(fs.open("/f", "rb"))
        first = lines.next()
        assert first + b"".join(lines.rest()) == data, len(data)


def test_the_last_200_records_read_back_in_order_from_lists_the_collectors_stack_holds():
    # LOG's reach (B17: the log survives the power cut): 300 receipts keep the last 200, oldest
    # first, through appends, checkpoints and a boot. They are kept in lists of at most 32: one
    # of 200 is more than the 64 entries of rp2's mark stack, and its overflow doubled a
    # collection on a long game (docs/performance.md).
    fs, led = _played(300, journal_max=50)
    recs = led.store.records()
    assert [r[0] for r in recs] == list(range(101, 301))
    assert [r[4] for r in recs[:2]] == [1010000, 1020000]
    for n in (1, 32, 33, 199, 200, 250):
        assert led.store.records(n) == recs[-n:], n
    assert max(len(part) for part in led.store.log.parts) <= 32
    again, status = _boot(fs)
    assert status == "ok" and again.store.records() == recs and again.bal == led.bal
    assert max(len(part) for part in again.store.log.parts) <= 32
