"""What a player or a banker reads names no rule id: "card 3 cannot pay 20 M: it has 14.5 M",
never "... (B8)". Rule ids belong in docs/rules.md, the docs and the tests. The sentences of
every refusal (firmware/desktop/words.py: the window, the terminal, the page, the host
tools), the terminal's questions, the simulator's and the host tools' help and messages; the
window's own sentences are checked in tests/gui/test_table.py."""

import argparse
import os
import re

import simulator  # noqa: F401  (firmware/ on sys.path)
from host_tools import cli
from desktop import words as explain
from simulator import options

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
    # every sentence of the window, the terminal and the page, in both languages
    table = [t for lang in explain.LANGS for t in explain.TEXTS[lang].values()]
    texts = table + [options.USAGE] + page_texts()
    assert len(table) > 200 and "term.help1" in explain.TEXTS["fr"]
    assert [t for t in texts if RULE_ID.search(t)] == []


def test_the_host_tools_help_and_messages_name_no_rule():
    parser = cli.build_parser()
    texts = [parser.format_help(), cli.KEYPAD_ONLY]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts.extend(p.format_help() for p in action.choices.values())
    assert len(texts) > 10
    assert [t for t in texts if RULE_ID.search(t)] == []


def test_the_host_tools_say_a_refusal_in_the_windows_words():
    # One place for the sentences (firmware/desktop/words.py), the entry limits the profile's
    # (firmware/brain/profiles.py, B2 B15), not a copy of them in host_tools.
    import subprocess
    import sys

    from brain import profiles
    from host_tools import out

    for name, prof in sorted(profiles.PROFILES.items()):
        for code, entry in (("above-maximum", "99M"), ("below-minimum", "5"),
                            ("too-fine", "1.2345M"), ("insufficient-funds", "16M")):
            state = {"error": code, "entry": entry, "slots": {"L": None, "R": 2}}
            bal = {c: prof.start for c in range(1, 7)}
            said = out.refusal(state, name, bal)
            assert said == "%s (%s)" % (explain.explain(code, entry, state["slots"], bal, prof),
                                        code)
            assert not RULE_ID.search(said)
    assert out.refusal({"error": "above-maximum", "entry": "2M"}, "francs") == (
        "2 M is above the largest amount at one time, 1 M: split it in two (above-maximum)")
    # run from the repo, not installed: the same sentence
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    got = subprocess.run([sys.executable, "-c", "from host_tools import out; print(out.refusal("
                          "{'error': 'go-taken', 'slots': {'L': 4}}, 'classic'))"],
                         cwd=root, capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=""))
    assert got.stdout.startswith("card 4 has had its Go salary (200) on this insertion"), got
