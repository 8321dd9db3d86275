"""Facts host_tools keeps a copy of, because it is installed without the firmware
(pyproject.toml packages host_tools alone): each held equal to the firmware's own."""

import subprocess
import sys

from brain import ledger

from host_tools import out


def test_the_host_tools_know_as_many_cards_as_the_unit_has():
    assert out.CARD_COUNT == ledger.CARDS
    assert out.CARDS == tuple(str(c) for c in range(1, ledger.CARDS + 1))


def test_bank_takes_every_card_of_the_unit_and_no_other():
    # `bank insert` refuses a card the unit has not before anything is sent (usage, exit 2),
    # and its help names the cards there are.
    run = [sys.executable, "-m", "host_tools", "--port", "socket://127.0.0.1:9", "insert", "L"]
    bad = subprocess.run(run + [str(ledger.CARDS + 1)], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "CARD (1-%d)" % ledger.CARDS in bad.stderr


def test_the_host_tools_refuse_names_as_the_unit_does():
    from protocol import names

    from host_tools import settings

    assert (settings.NAME_MAX, settings.NAME_MAX_BYTES, settings.NAME_CONTROL) == (
        names.MAX_LEN, names.MAX_BYTES, names.CONTROL)
    for text in ("Zo\u00eb", "\u00e9" * 16, "\u00e9" * 17, "\U0001F600" * 12,
                 "\U0001F600" * 13, "a\x85", "a\u202eb", "a\u2066", "\u200dx", "a\tb"):
        assert (settings.name_problem(text) is None) == (names.refusal(text) is None), text


def test_bank_table_serves_on_the_simulators_table_port():
    # Both print a link the phones keep: the same default port, wherever the unit is.
    from host_tools import table
    from simulator import options

    assert table.TABLE_PORT == options.TABLE_PORT
