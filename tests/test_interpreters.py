"""The same protocol session gives the same bytes under CPython and the MicroPython unix port
(docs/protocol.md: the simulator's command line; JSON written identically on every
interpreter)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
SESSION = os.path.join(ROOT, "tests", "sessions", "tour.txt")

needs_unix_port = pytest.mark.skipif(
    not os.path.exists(MICROPYTHON),
    reason="the MicroPython unix port wheel exists for Linux x86_64 only")


def run(interp, data, *extra):
    args = [interp, "-m", "simulator", "--headless", "--stdio", "--virtual-clock",
            "--seed", "42", *extra]
    p = subprocess.run(args, input=data, capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout


@needs_unix_port
def test_same_replies_byte_for_byte(tmp_path):
    with open(SESSION, "rb") as f:
        data = f.read()
    data += b"\xff\xfe garbage\n" + b"A" * 300 + b"\n"
    # Names in any language: UTF-8 in, JSON escapes out; not UTF-8 (an overlong "/", a
    # surrogate) refused; words split at spaces alone (U+3000 is one on CPython only)
    data += ("NAME 3 Jos\u00e9\nNAME 4 \u674e\u96f7\U0001F600\nNAME 5 a\u3000b\n"
             "NAME 6 \u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
             "\u00e9\u00e9\u00e9\u00e9\u00e9\nNAMES\n").encode()
    data += b"NAME 1 \xc0\xaf\nNAME 2 \xed\xa0\x80\n"
    cp = run(sys.executable, data)
    mp = run(MICROPYTHON, data)
    assert cp == mp
    assert ('"3": "Jos\\u00e9", "4": "\\u674e\\u96f7\\ud83d\\ude00", "5": "a\\u3000b", '
            '"6": null}') in cp.decode()
    lines = cp.decode().splitlines()
    replies = [x for x in lines if not x.startswith("! ")]
    commands = [x for x in data.decode("latin-1").splitlines() if x.strip()]
    assert len(replies) == len(commands)  # exactly one reply to every non-blank line
    assert any('! tone {"name": "deal-end"}' == x for x in lines)


@needs_unix_port
def test_same_state_files_across_interpreters(tmp_path):
    # A game saved by one interpreter is read back by the other.
    data = b"INSERT L 2\nKEY 3M+\n"
    run(sys.executable, data, "--state", str(tmp_path))
    out = run(MICROPYTHON, b"BALANCES\nHELLO\n", "--state", str(tmp_path)).decode()
    assert '"2": 18000000' in out
    assert '"store": "ok"' in out


@needs_unix_port
def test_game_night_gives_the_same_bytes_on_both_interpreters():
    # B19-B22 through every sequence and refusal of tests/sessions/night.txt: the count and its
    # ranking, the game clock's view, warnings and End, bankruptcies, the pot's moves.
    with open(os.path.join(ROOT, "tests", "sessions", "night.txt"), "rb") as f:
        data = f.read()
    cp = run(sys.executable, data, "--maintenance")
    mp = run(MICROPYTHON, data, "--maintenance")
    assert cp == mp
    text = cp.decode()
    for line in ('! tone {"name": "winner"}', '! tone {"name": "clock-warning"}',
                 '! tone {"name": "clock-end"}'):
        assert line in text.splitlines(), line
    for kind in ("bankrupt", "pot-in", "pot-out"):
        assert '"kind": "%s"' % kind in text, kind
    replies = [x for x in text.splitlines() if not x.startswith("! ")]
    assert len(replies) == len([x for x in data.decode().splitlines() if x.strip()])
