"""Two languages (firmware/desktop/words.py): every sentence a player reads exists in English
and in French with the same {fields}; the language is the system's (LC_ALL, LC_MESSAGES, LANG,
as gettext reads them) unless `--lang` says; every refusal is said in each, and no sentence in
either names a rule id."""

import os
import re
import string
import subprocess
import sys

import pytest

import simulator  # noqa: F401  (firmware/ on sys.path)
from desktop import words
from simulator import options

from test_plain_words import ENTRIES, KEYS, RULE_ID, SLOTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIELDS = string.Formatter()


def fields(text):
    return sorted(f for _, f, _, _ in FIELDS.parse(text) if f is not None)


def test_every_sentence_exists_in_both_languages_with_the_same_fields():
    en, fr = words.TEXTS["en"], words.TEXTS["fr"]
    assert set(words.TEXTS) == set(words.LANGS) == {"en", "fr"}
    assert len(en) > 100
    assert sorted(en) == sorted(fr)
    for key in en:
        assert fields(en[key]) == fields(fr[key]), key
        assert not RULE_ID.search(en[key]) and not RULE_ID.search(fr[key]), key


def test_a_missing_sentence_or_field_is_caught(monkeypatch):
    monkeypatch.setitem(words.TEXTS["fr"], "pay.short", "{card} ne peut pas payer {amount}")
    with pytest.raises(AssertionError):
        test_every_sentence_exists_in_both_languages_with_the_same_fields()


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "fr_CA.UTF-8"}, "fr"),
    ({"LANG": "de_DE.UTF-8"}, "en"),  # neither: English
    ({"LANG": "C"}, "en"),
    ({}, "en"),
])
def test_the_language_is_the_systems(env, lang):
    assert words.lang_from_env(env) == lang


def test_lang_on_the_command_line():
    assert options.parse(["--lang", "fr"]).lang == "fr"
    assert options.parse(["--lang=EN"]).lang == "en"
    assert options.parse([]).lang is None
    with pytest.raises(options.UsageError):
        options.parse(["--lang", "de"])
    got = subprocess.run([sys.executable, "-m", "simulator", "--lang", "de"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert got.returncode == 2
    assert got.stderr.splitlines()[0] == "simulator: --lang is en or fr, not de"
    assert "--lang en|fr" in options.USAGE


@pytest.mark.parametrize("lang", words.LANGS)
def test_every_refusal_is_said_in_each_language(lang):
    bal = {1: 15000000, 2: 500000, 3: 0, 4: 14500000}
    said = {}
    for code in words.CODES:
        for slots in SLOTS:
            for key in KEYS:
                for entry in ENTRIES:
                    text = words.explain(code, entry, slots, bal, "world", key, {2: "Zo\u00eb"},
                                         lang)
                    other = words.explain(code, entry, slots, bal, "world", key, {2: "Zo\u00eb"},
                                          "fr" if lang == "en" else "en")
                    assert text != other, (code, slots, key, entry)  # said in each language
                    assert "{" not in text and not RULE_ID.search(text)
                    said[text] = code
    assert len(said) > 40
    if lang == "fr":
        assert words.explain("insufficient-funds", "20M", {"L": 1, "R": 3}, {3: 14500000},
                             key="-", lang="fr") == \
            "carte 3 ne peut pas payer 20 M : elle n'a que 14.5 M"
        assert re.search(r"\bD\u00e9part\b", words.explain("go-taken", lang="fr"))


def test_the_language_set_is_the_one_spoken():
    try:
        words.set_lang("fr")
        assert words.who(2) == "carte 2" and words.say("bank") == "la Banque"
        words.set_lang("en")
        assert words.who(2) == "card 2"
        with pytest.raises(ValueError):
            words.set_lang("de")
        assert words.lang() == "en"
    finally:
        words.set_lang("en")


@pytest.mark.parametrize("lang,one,two", [
    ("en", "game 1 (world), 1 transaction", "game 2 (world), 2 transactions"),
    ("fr", "partie 1 (world), 1 op\u00e9ration", "partie 2 (world), 2 op\u00e9rations")])
def test_a_kept_game_of_one_transaction_says_it_in_the_singular(lang, one, two):
    def head(number, n):
        return words.kept_game({"number": number, "profile": "world", "transactions": n},
                               lang=lang)[0]

    assert head(1, 1) == one
    assert head(2, 2) == two
    assert head(3, 12).endswith("12 transactions" if lang == "en" else "12 op\u00e9rations")
