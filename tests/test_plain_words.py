"""What a player or a banker reads names no rule id: "card 3 cannot pay 20 M: it has 14.5 M",
never "... (B8)". Rule ids belong in docs/rules.md, the docs and the tests. The sentences of
every refusal (simulator/explain.py: the window, the terminal), the terminal's questions, the
simulator's and the host tools' help and messages; the window's own sentences are checked in
tests/gui/test_table.py."""

import argparse
import os
import re

import simulator  # noqa: F401  (firmware/ on sys.path)
from host_tools import cli
from simulator import explain, options, terminal

RULE_ID = re.compile(r"(?<![\w<])B\d+(?!\w)")  # as tests/test_citations.py reads one
WEB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "web")
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")

SLOTS = ({"L": None, "R": None}, {"L": 3, "R": None}, {"L": None, "R": 4}, {"L": 1, "R": 2})
KEYS = (None, "+", "-", "M", "K", ".", "C", "5", "L", "R")
ENTRIES = ("", "5", "25M", "1.2", "150")


def test_no_refusal_sentence_names_a_rule():
    said = set()
    for code in explain.CODES:
        for slots in SLOTS:
            for key in KEYS:
                for entry in ENTRIES:
                    said.add(explain.explain(code, entry, slots, {1: 15000000, 2: 500000,
                                                                  3: 0, 4: 14500000},
                                             "world", key=key, names={2: "Bob"}))
    assert len(said) > 40  # the cases above do reach the many sentences
    assert [s for s in said if RULE_ID.search(s)] == []
    assert explain.explain("insufficient-funds", "20M", {"L": 1, "R": 3}, {3: 14500000},
                           key="-") == "card 3 cannot pay 20 M: it has 14.5 M"


def page_texts():
    """The words the page can show: its HTML's text and the strings of its script."""
    with open(os.path.join(WEB, "index.html")) as f:
        html = re.sub(r"<!--.*?-->|<(script|style)\b.*?</\1>", "", f.read(), flags=re.S)
    texts = [re.sub(r"<[^>]*>", " ", html)]
    with open(os.path.join(WEB, "unit.js")) as f:
        texts += JS_STRING.findall(JS_COMMENT.sub("", f.read()))
    return texts


def test_the_terminal_the_page_and_the_simulators_help_name_no_rule():
    texts = list(terminal.HELP) + list(terminal.ASK.values()) + [options.USAGE] + page_texts()
    assert len(texts) > 20
    assert [t for t in texts if RULE_ID.search(t)] == []


def test_the_host_tools_help_and_messages_name_no_rule():
    parser = cli.build_parser()
    texts = [parser.format_help(), cli.KEYPAD_ONLY]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts.extend(p.format_help() for p in action.choices.values())
    assert len(texts) > 10
    assert [t for t in texts if RULE_ID.search(t)] == []
