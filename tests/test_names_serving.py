"""Names in any language over a real TCP socket, under CPython and the MicroPython unix port
(docs/protocol-extensions.md, NAME): the text arrives as UTF-8, the replies stay ASCII (JSON
escapes), the names are on flash as UTF-8 and a restarted simulator, whichever its interpreter,
answers NAMES with them (B17: kept through a restart). Real processes, real sockets."""

import json
import os

import pytest

from test_simulator_serving import INTERPRETERS, ask, connect, stop, tcp

JOSE = "Jos\u00e9"
LI_LEI = "\u674e\u96f7"


def names_reply(interp, state):
    p, port = tcp("--virtual-clock", "--state", state, interp=interp)
    try:
        c = connect(port)
        reply = ask(c, "NAMES")
        c[0].close()
    finally:
        stop(p)
    return reply


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_names_in_any_language_over_tcp_and_after_a_restart(tmp_path, interp):
    state = str(tmp_path / "state")
    p, port = tcp("--virtual-clock", "--state", state, interp=interp)
    try:
        c = connect(port)
        reply = ask(c, "NAME 3 " + JOSE)
        assert reply == ('OK {"1": null, "2": null, "3": "Jos\\u00e9", "4": null, "5": null, '
                         '"6": null}')
        reply = ask(c, "name 4 " + LI_LEI)
        assert '"4": "\\u674e\\u96f7"' in reply and reply.isascii()
        # 17 characters, 13 four-byte ones (52 bytes), a control character: refused, unchanged
        assert ask(c, "NAME 3 " + "\u00e9" * 17) == (
            "ERR bad-argument a name is at most 16 characters")
        assert ask(c, "NAME 3 " + "\U0001F600" * 13) == (
            "ERR bad-argument a name is at most 48 bytes of UTF-8")
        assert ask(c, "NAME 3 Jo\u0085s") == "ERR bad-argument a name has no control characters"
        assert ask(c, "NAME 3 Jo\x1bs") == "ERR bad-line a line has no control characters"
        assert ask(c, "KEY \u00e9").startswith("ERR bad-line only a name may be")
        assert json.loads(ask(c, "NAMES")[3:])["3"] == JOSE
        c[0].close()
    finally:
        stop(p)
    kept = b"".join(open(os.path.join(state, f), "rb").read()
                    for f in os.listdir(state) if f.startswith("bank.n"))
    assert LI_LEI.encode() in kept  # UTF-8 on flash
    for again in INTERPRETERS:  # the next start, by either interpreter
        got = json.loads(names_reply(again, state)[3:])
        assert (got["3"], got["4"]) == (JOSE, LI_LEI), again
