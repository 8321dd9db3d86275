"""Facts host_tools keeps a copy of, because it is installed without the firmware
(pyproject.toml packages host_tools alone): each held equal to the firmware's own; and the
rules it takes from the firmware itself (host_tools/rules.py), never a copy."""

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


def test_the_host_tools_refuse_names_by_the_units_own_rule():
    # One rule in one place (protocol/names.py): the host tools hold no copy of it.
    from protocol import names

    from host_tools import rules, settings

    assert not any(hasattr(settings, n) for n in ("NAME_MAX", "NAME_MAX_BYTES", "NAME_CONTROL"))
    for text in ("Zo\u00eb", "\u00e9" * 16, "\u00e9" * 17, "\U0001F600" * 12,
                 "\U0001F600" * 13, "a\x85", "a\u202eb", "a\u2066", "\u200dx", "a\tb",
                 "Ann\u00a0Lee", "Sixteen letters!"):
        assert (rules.name_problem(text) is None) == (names.refusal(text) is None), text


def test_bank_table_serves_on_the_simulators_table_port():
    # Both print a link the phones keep: the same default port, wherever the unit is.
    from host_tools import table
    from simulator import options

    assert table.TABLE_PORT == options.TABLE_PORT
