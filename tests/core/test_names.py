"""Player names, the NAME / NAMES extension (docs/protocol-extensions.md): kept on flash with
the game (B17's rule: a power cut leaves the names of before or after), kept by a new game
(B11), never on the unit's five cells."""

import json

from harness import Rig
from protocol import Protocol
from store import FileStore
from storerig import FaultFS


def ok(lines):
    assert lines[-1].startswith("OK "), lines
    return json.loads(lines[-1][3:])


def rig(fs=None):
    r = Rig(store=FileStore("bank", fs if fs is not None else FaultFS()))
    return r, Protocol(r.unit, r.clock)


def test_name_a_card_and_read_them_back():
    r, p = rig()
    assert p.handle("NAMES") == ['OK {"1": null, "2": null, "3": null, "4": null, "5": null, '
                                 '"6": null}']
    assert not r.unit.maintenance  # names move no money: no maintenance mode needed
    got = ok(p.handle("NAME 1 Ann"))
    assert got == {"1": "Ann", "2": None, "3": None, "4": None, "5": None, "6": None}
    assert ok(p.handle("name 3 Mary  Lou"))["3"] == "Mary Lou"  # case kept, spaces allowed
    assert ok(p.handle("NAMES")) == {"1": "Ann", "2": None, "3": "Mary Lou", "4": None,
                                     "5": None, "6": None}
    assert ok(p.handle('NAME 6 "Q\\" x'))["6"] == '"Q\\" x'  # any printable ASCII
    assert ok(p.handle("NAME 1"))["1"] is None  # no text: cleared


def test_a_name_of_characters_that_show_nothing_clears_the_name_as_spaces_do():
    r, p = rig()
    for blank in ("\u00a0", "\u200b", "\u3000 \u2003", "\ufeff\u2060", "\u200c", "\u200d",
                  "\u200e\u200f\u061c", "\u2061", "\u00ad", "\u034f", "\ufe0f", "\u3164",
                  "\u115f", "\u2800", "\U000e0020"):
        assert ok(p.handle("NAME 3 Ann"))["3"] == "Ann"
        assert ok(p.handle("NAME 3 " + blank))["3"] is None, repr(blank)
    assert ok(p.handle("NAME 3 Ann\u00a0Lee"))["3"] == "Ann\u00a0Lee"  # within a name: kept
    assert ok(p.handle("NAME 3 \u0915\u094d\u200d\u0937"))["3"] == "\u0915\u094d\u200d\u0937"
    assert r.unit.display() == ("0", False, False)  # the unit's own display stays digits


def test_bad_names_are_refused_and_change_nothing():
    r, p = rig()
    p.handle("NAME 2 Bob")
    for line in ("NAME", "NAME 0 Zed", "NAME 7 Zed", "NAME x Zed", "NAME 12 Zed",
                 "NAME 2 SeventeenCharsXYZ", "NAMES 1"):
        reply = p.handle(line)[-1]
        assert reply.startswith("ERR bad-argument"), (line, reply)
    assert p.handle("NAME 2 Bob\x01")[-1].startswith("ERR bad-line")
    assert ok(p.handle("NAMES"))["2"] == "Bob"
    assert ok(p.handle("NAME 2 SixteenCharsXYZW"))["2"] == "SixteenCharsXYZW"  # 16 is the most
    assert ok(p.handle("NAMES"))["2"] == "SixteenCharsXYZW"


def test_a_card_number_reads_as_every_command_reads_one():
    r, p = rig()
    assert ok(p.handle("NAME 02 Ann"))["2"] == "Ann"  # as INSERT L 02 is card 2
    for line in ("NAME +2 Zed", "NAME 2.0 Zed", "NAME \u0662 Zed", "NAME 00 Zed"):
        assert p.handle(line)[-1].startswith("ERR bad-"), line
    assert ok(p.handle("NAMES"))["2"] == "Ann"


JOSE = "Jos\u00e9"
LI_LEI = "\u674e\u96f7"
GRIN = "\U0001F600"  # beyond U+FFFF: 4 bytes of UTF-8, a surrogate pair in JSON


def test_names_in_any_language_kept_on_flash_as_utf8_and_answered_escaped():
    fs = FaultFS()
    r, p = rig(fs)
    reply = p.handle(("NAME 3 " + JOSE).encode())[-1]  # as bytes from a serial port
    assert reply == ('OK {"1": null, "2": null, "3": "Jos\\u00e9", "4": null, "5": null, '
                     '"6": null}')  # replies stay ASCII
    assert ok(p.handle("NAME 4 " + LI_LEI))["4"] == LI_LEI
    reply = p.handle("name 5 Zo\u00eb " + GRIN)[-1]
    # (read as text: MicroPython's json makes no one character of a surrogate pair)
    assert '"5": "Zo\\u00eb \\ud83d\\ude00"' in reply
    newest = max((f for f in fs.files if "bank.n" in f), key=lambda f: fs.files[f][9:10])
    assert LI_LEI.encode() in bytes(fs.files[newest])  # UTF-8 on flash, not escapes
    assert GRIN.encode() in bytes(fs.files[newest])
    r2, p2 = rig(fs)  # the next boot reads them back whole
    assert p2.handle("NAMES") == [reply]
    got = ok(p2.handle("NAMES"))
    assert (got["3"], got["4"]) == (JOSE, LI_LEI)
    assert r2.unit.store_status == "ok"
    assert r2.unit.display() == ("0", False, False)  # the unit's own display never shows them


def test_a_name_too_long_or_with_control_characters_is_refused_and_changes_nothing():
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 2 " + JOSE)
    before = dict((k, bytes(v)) for k, v in fs.files.items())
    for text, why in (
        ("\u00e9" * 17, "ERR bad-argument a name is at most 16 characters"),
        (GRIN * 13, "ERR bad-argument a name is at most 48 bytes of UTF-8"),  # 13 chars
        ("Bo\u0085b", "ERR bad-argument a name has no control characters"),  # C1 NEL
        ("Bo\u202eb", "ERR bad-argument a name has no control characters"),  # RTL override
        ("Bo\x7fb", "ERR bad-line a line has no control characters"),  # DEL
        ("Bo\x1b[2Jb", "ERR bad-line a line has no control characters"),  # ESC
    ):
        assert p.handle("NAME 2 " + text) == [why], text
        assert p.handle(("NAME 2 " + text).encode()) == [why], text
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before
    assert ok(p.handle("NAMES"))["2"] == JOSE
    assert ok(p.handle("NAME 2 " + "\u00e9" * 16))["2"] == "\u00e9" * 16  # 16 is the most
    assert ok(p.handle("NAME 2 " + LI_LEI * 8))["2"] == LI_LEI * 8  # 48 bytes: the most
    assert '"2": "%s"' % ("\\ud83d\\ude00" * 12) in p.handle("NAME 2 " + GRIN * 12)[-1]


def test_only_a_name_may_be_other_than_ascii():
    r, p = rig()
    for line in ("KEY \u00e9", "NAME \u00e9 x", "N\u00c1ME 1 x", "SET PROFILE \u00e9"):
        assert p.handle(line) == [
            "ERR bad-line only a name may be other than ASCII (NAME <card> <name>)"], line
    # Not UTF-8: a lone byte, an overlong "/", a surrogate, a sequence cut short, past U+10FFFF
    for raw in (b"NAME 1 \xff", b"NAME 1 \xc0\xaf", b"NAME 1 \xed\xa0\x80",
                b"NAME 1 \xe6\x9d", b"NAME 1 \xf4\x90\x80\x80", b"NAME 1 \x80"):
        assert p.handle(raw) == ["ERR bad-line a line is ASCII, or UTF-8 in a name"], raw
    assert ok(p.handle("NAMES"))["1"] is None
    # Words split at spaces and tabs only: a wide space is part of the name, on both interpreters
    assert ok(p.handle("NAME 1 Ann\u3000Lee\tK"))["1"] == "Ann\u3000Lee K"
    # The line's limit is in bytes: 96 two-byte characters are a line (a name too long), 97 not
    assert p.handle(b"NAME 1 " + b"\xc3\xa9" * 96)[-1].startswith("ERR bad-argument")
    assert p.handle(b"NAME 1 " + b"\xc3\xa9" * 97)[-1].startswith("ERR line-too-long")


def test_names_survive_a_reboot_and_a_new_game():
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    p.handle("NAME 4 Dev")
    p.handle("NEWGAME")  # B11: the players stay at the table, so do their names
    assert ok(p.handle("NAMES"))["4"] == "Dev"
    r2, p2 = rig(fs)  # the next boot, on the same flash
    assert r2.unit.store_status == "ok"
    got = ok(p2.handle("NAMES"))
    assert (got["1"], got["4"], got["2"]) == ("Ann", "Dev", None)


def test_a_store_without_names_still_loads():
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("INSERT L 1")
    p.handle("KEY 1 5 0 K +")
    assert not [f for f in fs.files if "bank.n" in f]  # written before any name existed
    r2, p2 = rig(fs)
    assert r2.unit.store_status == "ok" and r2.bal(1) == 15150000
    assert ok(p2.handle("NAMES")) == {"1": None, "2": None, "3": None, "4": None, "5": None,
                                      "6": None}


def test_a_power_cut_while_naming_leaves_the_names_of_before():  # B17
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    p.handle("NAME 2 Bob")
    images = []

    def collect(tag, files):
        images.append({k: bytearray(v) for k, v in files.items()})

    fs.collect = collect
    p.handle("NAME 1 Anna")
    assert len(images) >= 3  # the open, a write torn at several points, the close
    for img in images:
        got = ok(rig(FaultFS(img))[1].handle("NAMES"))
        assert (got["1"], got["2"]) in (("Ann", "Bob"), ("Anna", "Bob")), got


def test_a_full_flash_refuses_the_name_and_keeps_the_old():
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    fs.fail_at = fs.steps + 1
    assert p.handle("NAME 1 Zoe")[-1].startswith("ERR store-failed")
    fs.fail_at = None
    assert ok(p.handle("NAMES"))["1"] == "Ann"


def test_a_name_refused_after_it_landed_is_not_there_after_a_reboot():
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    fs.fail_done = 1  # the names file written whole, its sync failed
    assert p.handle("NAME 1 Zoe")[-1].startswith("ERR store-failed")
    assert ok(p.handle("NAMES"))["1"] == "Ann"
    assert ok(rig(fs)[1].handle("NAMES"))["1"] == "Ann"


def test_a_name_kept_whose_read_back_fails_is_answered_as_kept():
    # The names file written and synced, then reading the names back fails: the name is kept
    # (a reboot reads it), so the reply is the names, not a refusal that would say otherwise.
    class ReadFails(FaultFS):
        fail_reads = False

        def open(self, path, mode):
            f = FaultFS.open(self, path, mode)
            if self.fail_reads and "r" in mode:
                def close():
                    raise OSError(5)  # the read back's close: the file is whole

                f.close = close
            return f

    fs = ReadFails()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    store = r.unit.ledger.store
    put_names = store.put_names

    def then_reads_fail(*args):
        put_names(*args)
        fs.fail_reads = True

    store.put_names = then_reads_fail
    assert ok(p.handle("NAME 2 Bob"))["2"] == "Bob"
    fs.fail_reads = False
    assert ok(rig(fs)[1].handle("NAMES"))["2"] == "Bob"


def test_names_in_a_store_in_ram():
    r = Rig()
    p = Protocol(r.unit, r.clock)
    assert ok(p.handle("NAME 5 Eve"))["5"] == "Eve"
    assert ok(p.handle("NAMES"))["5"] == "Eve"


try:
    from lfsdev import LFS2, mkfs, mount, RamDev
    from desktop.memfs import VfsFS
except ImportError:  # lfsdev needs nothing CPython lacks, but stay safe
    LFS2 = None

if LFS2 is not None:  # the MicroPython unix port's LittleFS, as on the Pico

    def _lfs_names(fsobj):
        from protocol import names

        return names.get(FileStore("/bank", fs=VfsFS(fsobj)))

    def test_littlefs_power_cut_inside_every_program_of_a_name():  # B17
        from protocol import names

        dev = RamDev()
        mkfs(dev)
        fsobj = mount(dev)
        fsobj.mkdir("/bank")
        store = FileStore("/bank", fs=VfsFS(fsobj))
        names.put(store, 1, "Ann")
        names.put(store, 2, "Bob")
        seen = []

        def boot(image):
            got = _lfs_names(mount(image))
            assert (got[0], got[1]) in (("Ann", "Bob"), ("Anna", "Bob")), got
            seen.append(got[0])

        def on_write(d, block, off, buf):
            boot(d.copy())
            half = d.copy()
            a = block * 4096 + off
            k = len(buf) // 2
            half.data[a:a + k] = buf[:k]
            boot(half)

        def on_erase(d, block):
            boot(d.copy())

        dev.on_write = on_write
        dev.on_erase = on_erase
        names.put(store, 1, "Anna")
        dev.on_write = dev.on_erase = None
        assert seen and "Ann" in seen
        assert _lfs_names(mount(dev.copy()))[0] == "Anna"


    def test_littlefs_keeps_names_in_any_language():
        from protocol import names

        dev = RamDev()
        mkfs(dev)
        fsobj = mount(dev)
        fsobj.mkdir("/bank")
        store = FileStore("/bank", fs=VfsFS(fsobj))
        names.put(store, 3, JOSE)
        names.put(store, 4, LI_LEI + GRIN)
        got = _lfs_names(mount(dev.copy()))  # as the next boot reads them
        assert (got[2], got[3]) == (JOSE, LI_LEI + GRIN)


def _named():
    """A store whose newest names (Ann, Cy) are one file and the names before (Ann) the
    other; (its files, the newest file's name)."""
    fs = FaultFS()
    r, p = rig(fs)
    p.handle("NAME 1 Ann")
    p.handle("NAME 3 Cy")
    newest = max((f for f in fs.files if "bank.n" in f), key=lambda f: fs.files[f][9:10])
    return fs.files, newest


def _flipped(files, path, i):
    img = {k: bytearray(v) for k, v in files.items()}
    img[path][i] ^= 0x10
    return img


def test_a_flipped_byte_in_the_newest_names_is_reported_and_the_copy_before_used():  # B17
    files, newest = _named()
    for i in range(len(files[newest])):
        r, p = rig(FaultFS(_flipped(files, newest, i)))
        assert ok(p.handle("HELLO"))["store"] == "damaged", i
        got = ok(p.handle("NAMES"))
        assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged"), (i, got)
        assert ok(p.handle("STATE"))["error"] == "store-damaged"


def test_names_past_any_line_written_are_damage_not_a_cut_write():  # B17
    # A names line is under 200 bytes: 2 KB with no line end was never a write cut short.
    files, newest = _named()
    for junk in (b"7" * 4096, b"7" * 4096 + b"\n"):
        img = {k: bytearray(v) for k, v in files.items()}
        img[newest] = bytearray(junk)
        r, p = rig(FaultFS(img))
        assert ok(p.handle("HELLO"))["store"] == "damaged", junk[-1:]
        got = ok(p.handle("NAMES"))
        assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged")


def test_names_no_name_command_would_take_are_damage_though_their_crc_reads():  # B17
    # A control character, a direction override, a line end, 17 characters, an empty name:
    # never written by NAME, so never served to a host's table as a name.
    from store.slot import line

    files, newest = _named()
    gen = int(bytes(files[newest])[9:].split(b" ")[0])
    for bad in ("A\u0007B", "\u202eAnn", "x\nSTATE", "N" * 17, ""):
        img = {k: bytearray(v) for k, v in files.items()}
        img[newest] = bytearray(line("%d %s" % (gen, json.dumps([bad] + [None] * 5))))
        r, p = rig(FaultFS(img))
        assert ok(p.handle("HELLO"))["store"] == "damaged", repr(bad)
        got = ok(p.handle("NAMES"))
        assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged"), repr(bad)


def test_both_names_files_damaged_is_reported():  # B17
    files, newest = _named()
    img = _flipped(files, newest, 12)
    other = [f for f in img if "bank.n" in f and f != newest][0]
    img[other][12] ^= 0x10
    r, p = rig(FaultFS(img))
    assert ok(p.handle("HELLO"))["store"] == "damaged"
    assert ok(p.handle("NAMES")) == {"1": None, "2": None, "3": None, "4": None, "5": None,
                                     "6": None, "store": "damaged"}


def test_names_damaged_while_running_are_reported_until_the_banker_has_seen_it():
    files, newest = _named()
    fs = FaultFS(files)
    r, p = rig(fs)
    assert ok(p.handle("HELLO"))["store"] == "ok" and "store" not in ok(p.handle("NAMES"))
    fs.files[newest][15] ^= 0x10  # the flash goes bad under the running unit
    got = ok(p.handle("NAMES"))
    assert (got["1"], got["3"], got["store"]) == ("Ann", None, "damaged")
    st = ok(p.handle("STATE"))
    assert st["error"] == "store-damaged" and st["display"]["text"] == "Err5"
    assert ok(p.handle("HELLO"))["store"] == "damaged"
    ok(p.handle("KEY C"))  # a host's key: nobody at the unit has seen it (B17)
    assert ok(p.handle("NAMES"))["store"] == "damaged" and newest in fs.files
    r.press("C")  # the banker has seen it, at the unit: the damaged file goes
    assert "store" not in ok(p.handle("NAMES")) and newest not in fs.files
    assert ok(rig(FaultFS(fs.files))[1].handle("HELLO"))["store"] == "ok"


def test_a_name_given_after_damage_leaves_the_good_copy_alone_and_the_damage_reported():  # B17
    files, newest = _named()
    img = _flipped(files, newest, 15)
    good = [f for f in img if "bank.n" in f and f != newest][0]
    kept = bytes(img[good])
    fs = FaultFS(img)
    r, p = rig(fs)
    got = ok(p.handle("NAME 2 Bob"))  # written over the damaged file, never over the good one
    assert (got["1"], got["2"], got["3"]) == ("Ann", "Bob", None) and "store" not in got
    assert bytes(fs.files[good]) == kept
    # The damaged file is gone, but nobody at the unit has seen it reported: a restart says it
    for _ in range(2):
        r, p = rig(FaultFS(fs.files))
        fs = r.unit.ledger.store.fs
        assert ok(p.handle("HELLO"))["store"] == "damaged" and ok(p.handle("NAMES"))["2"] == "Bob"
    r.press("C")  # the banker, at the unit
    r, p = rig(FaultFS(fs.files))
    assert ok(p.handle("HELLO"))["store"] == "ok" and ok(p.handle("NAMES"))["2"] == "Bob"


class OutOfFiles(FaultFS):
    """A process out of file handles (EMFILE: a flood of connections on its network): every
    names file's open fails while `out` is set."""

    out = False

    def open(self, path, mode):
        if self.out and "bank.n" in path:
            raise OSError(24)
        return FaultFS.open(self, path, mode)


def test_a_process_out_of_files_fails_the_names_and_damages_nothing_b17():
    fs = OutOfFiles()
    r, p = rig(fs)
    p.handle("NAME 2 Bob")
    fs.out = True
    assert p.handle("NAMES")[-1].startswith("ERR store-failed")
    assert p.handle("NAME 3 Cy")[-1].startswith("ERR store-failed")
    assert p.handle("INSERT L 1")[-1].startswith("OK")
    assert json.loads(p.handle("STATE")[-1][3:])["error"] is None  # no Err5: nothing damaged
    fs.out = False
    assert ok(p.handle("NAMES")) == {"1": None, "2": "Bob", "3": None, "4": None, "5": None,
                                     "6": None}
    r2 = Rig(store=FileStore("bank", FaultFS(fs.files)))
    assert r2.unit.store_status == "ok"  # and a restart finds no damage either
