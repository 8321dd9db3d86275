"""What the 5 cells show for a display text (B1), the words of the unit included (B8, B12,
B17): segments.cells, which every display driver and the simulator's drawing use."""

from board import segments
from board.segments import CHARS, CODES, DP

A, E, L, P, S, Y, r, v = (CODES[CHARS.index(c)] for c in "AELPSYrv")
DASH = CODES[CHARS.index("-")]


def test_b1_an_amount_is_right_aligned_with_its_point_on_the_cell_before():
    one, four, nine, five = (CODES[CHARS.index(c)] for c in "1495")
    assert segments.cells("14.995") == [one, four | DP, nine, nine, five]
    assert segments.cells("15") == [0, 0, 0, one, five]
    assert segments.cells(".5") == [0, 0, 0, DP, five]  # an entry typed as ".5"


def test_b1_text_too_long_keeps_its_right_end():
    assert segments.cells("1234567") == [CODES[CHARS.index(c)] for c in "34567"]


def test_the_unit_s_words_show_as_written_b8_b12_b17():
    assert segments.cells("SErv") == [0, S, E, r, v]
    assert segments.cells("Err1") == [0, E, r, r, CODES[1]]
    assert segments.cells("PLAY") == [0, P, L, A, Y]
    assert segments.cells("-----") == [DASH] * 5


def test_a_letter_without_a_glyph_takes_its_other_case_and_anything_else_a_dash():
    # 'a' has no glyph of its own: it shows as 'A'; 'B' as 'b'; 'K', '?' have none at all.
    assert segments.cells("aB") == [0, 0, 0, A, CODES[CHARS.index("b")]]
    assert segments.cells("K?") == [0, 0, 0, DASH, DASH]
