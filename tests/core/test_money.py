"""B1 display of amounts, B2 entering amounts, B15 the profiles' money."""

from brain import money
from brain import profiles

WORLD = profiles.get("world")
CLASSIC = profiles.get("classic")
FRANCS = profiles.get("francs")


def test_b1_millions_truncated_never_rounded():
    assert money.fmt(15000000, WORLD) == ("15", False, True)
    assert money.fmt(14995000, WORLD) == ("14.995", False, True)
    assert money.fmt(2500000, WORLD) == ("2.5", False, True)
    assert money.fmt(123456000, WORLD) == ("123.45", False, True)
    assert money.fmt(1000000, WORLD) == ("1", False, True)
    assert money.fmt(19999000, WORLD) == ("19.999", False, True)
    assert money.fmt(99999999000, WORLD) == ("99999", False, True)
    assert money.fmt(100000000000, WORLD) == ("-----", False, True)


def test_b1_thousands_and_zero():
    assert money.fmt(100000, WORLD) == ("100", True, False)
    assert money.fmt(10000, WORLD) == ("10", True, False)
    assert money.fmt(999000, WORLD) == ("999", True, False)
    assert money.fmt(1000, WORLD) == ("1", True, False)
    assert money.fmt(0, WORLD) == ("0", False, False)


def test_b2_entries_commit_to_amounts():
    assert money.parse("150K", WORLD, True) == (150000, None)
    assert money.parse("2.5M", WORLD, True) == (2500000, None)
    assert money.parse("20M", WORLD, True) == (20000000, None)
    assert money.parse("10K", WORLD, True) == (10000, None)
    assert money.parse(".5M", WORLD, True) == (500000, None)


def test_b2_commit_refusals():
    assert money.parse("150", WORLD, True) == (None, "no-suffix")
    assert money.parse("12.5K", WORLD, True) == (None, "too-fine")
    assert money.parse("9K", WORLD, True) == (None, "below-minimum")
    assert money.parse("20.001M", WORLD, True) == (None, "above-maximum")
    assert money.parse("21M", WORLD, True) == (None, "above-maximum")
    assert money.parse("", WORLD, True) == (None, "no-amount")
    assert money.parse(".M", WORLD, True) == (None, "no-amount")  # a point and a suffix only


def accepts(entry, key):
    suffix = entry[-1:] if entry[-1:] in ("K", "M") else ""
    digits = sum(1 for c in entry if "0" <= c <= "9")
    dot = None if "." not in entry else 1 if entry[0] == "." else 0
    return money.accepts(digits, dot, suffix, key)


def test_b2_keys_refused_while_typing():
    assert accepts("1234", "5")
    assert not accepts("12345", "6")  # a 6th digit
    assert not accepts("1.2", ".")  # a second point
    assert not accepts("12K", "M")  # a second suffix
    assert not accepts("12K", "3")  # a digit after the suffix
    assert not accepts("", "K")  # a suffix with no digits
    assert not accepts(".", "M")
    assert accepts("", ".")
    assert accepts("1.", "5")
    assert accepts("1.234", "5")
    assert not accepts(".1234", "5")  # a leading point lights a cell of its own


def test_b14_tally_keeps_format_not_limits():
    assert money.parse("5K", WORLD, False) == (5000, None)
    assert money.parse("50M", WORLD, False) == (50000000, None)
    assert money.parse("5", WORLD, False) == (None, "no-suffix")
    assert money.parse("1.5K", WORLD, False) == (None, "too-fine")


def test_b15_classic_plain_units():
    assert money.parse("200", CLASSIC, True) == (200, None)
    assert money.parse("1", CLASSIC, True) == (1, None)
    assert money.parse("99999", CLASSIC, True) == (99999, None)
    assert money.parse("2K", CLASSIC, True) == (2000, None)  # suffixes multiply in every profile
    assert money.parse("100K", CLASSIC, True) == (None, "above-maximum")
    assert money.parse("1.5", CLASSIC, True) == (None, "too-fine")
    assert money.fmt(1500, CLASSIC) == ("1500", False, False)
    assert money.fmt(99999, CLASSIC) == ("99999", False, False)
    assert money.fmt(100000, CLASSIC) == ("100", True, False)
    assert money.fmt(2500000, CLASSIC) == ("2500", True, False)
    assert money.fmt(99999999, CLASSIC) == ("99999", True, False)
    assert money.fmt(625000000, CLASSIC) == ("625", False, True)  # k no longer fits: M


def test_b15_francs():
    assert money.parse("150", FRANCS, True) == (None, "too-fine")  # resolution 100
    assert money.parse("100", FRANCS, True) == (100, None)
    assert money.parse("20K", FRANCS, True) == (20000, None)
    assert money.parse("1.5K", FRANCS, True) == (1500, None)
    assert money.parse("1.05K", FRANCS, True) == (None, "too-fine")
    assert money.parse("1M", FRANCS, True) == (1000000, None)
    assert money.parse("1.1M", FRANCS, True) == (None, "above-maximum")
    assert money.fmt(150000, FRANCS) == ("150", True, False)
    assert money.fmt(99900, FRANCS) == ("99900", False, False)
    assert money.fmt(125500, FRANCS) == ("125.5", True, False)
    assert money.fmt(1500000, FRANCS) == ("1.5", False, True)
