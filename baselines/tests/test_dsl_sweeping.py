"""Sweeping: a figure grown line by line from one seed line, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import Cells, assert_fitter_added_to_wide, check_fitted, digits, fit_input, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import WIDE
from continual_arc_baselines.dsl.sweeping import fit_sweep


def _rows(*text: str) -> Cells:
    """A grid written one string of digits a row, as lists."""
    return [list(row) for row in digits(*text)]


def test_the_fitter_is_in_wide() -> None:
    assert_fitter_added_to_wide("sweep(")


def test_a_pyramid_grows_down_from_its_seed_row() -> None:
    # A cell is drawn (1) where the seed row above has 1 up-left, up and up-right: each row is
    # the one above less its two ends.
    demos = [
        (_rows("11111", "00000", "00000"), _rows("11111", "01110", "00100")),
        (_rows("000", "111", "000"), _rows("000", "111", "010")),
    ]
    given = fit_input(demos, _rows("1111111", "0000000", "0000000", "0000000"))
    ops = fit_sweep(given)
    assert ops and ops[0].text.startswith("sweep(down,1,")
    # By hand: row 1 keeps columns 1-5, row 2 columns 2-4, row 3 column 3.
    check_fitted(ops[0], given, _rows("1111111", "0111110", "0011100", "0001000"))


def test_every_second_line_made_from_the_one_two_before() -> None:
    # Gap 2 growing right: column 0 is the seed; a cell of column 2 is 5 where column 0 has 3
    # above and below it and background beside, so 3 0 3 gives 5 in the middle.
    demos = [
        (_rows("300", "000", "300", "000"), _rows("300", "005", "300", "000")),
        (_rows("3000", "0000", "3000", "0000", "3000"), _rows("3000", "0050", "3000", "0050", "3000")),
    ]
    given = fit_input(demos, _rows("300", "000", "300", "000", "300", "000", "300"))
    ops = fit_sweep(given)
    assert ops and ops[0].text == "sweep(right,2,lcr){3.0.3>5}"
    check_fitted(ops[0], given, _rows("300", "005", "300", "005", "300", "005", "300"))
    # Read back from its text alone, on a grid of its own: column 2 made from column 0, then
    # column 4 from column 2, whose 0 5 0 is a key the table lacks, so it stays background.
    assert step_on("sweep(right,2,lcr){3.0.3>5}", _rows("30000", "00000", "30000")) == _rows(
        "30000", "00500", "30000"
    )


def test_no_sweep_when_more_than_the_seed_is_drawn_or_a_kept_line_changes() -> None:
    two_lines = [(_rows("110", "011", "000"), _rows("110", "011", "001"))]
    assert fit_sweep(fit_input(two_lines, _rows("110", "011", "000"))) == []
    # The row above the seed is recoloured: no sweep keeps it.
    above = [(_rows("000", "111", "000"), _rows("222", "111", "010"))]
    assert fit_sweep(fit_input(above, _rows("000", "111", "000"))) == []


def test_the_search_answers_with_a_sweep() -> None:
    demos = [
        (digits("11111", "00000", "00000"), digits("11111", "01110", "00100")),
        (digits("000", "111", "000"), digits("000", "111", "010")),
        (digits("1111", "0000"), digits("1111", "0110")),
    ]
    found = search(demos, digits("000000", "111111", "000000", "000000"), catalogue=WIDE)
    assert found.candidates
    assert found.candidates[0].prediction == digits("000000", "111111", "011110", "001100")


def test_a_two_way_sweep_grows_both_sides_by_one_table() -> None:
    # The seed row grows up and down alike: three 1s above a cell make 2, three 2s make 1.
    demos = [
        (
            _rows("00000", "00000", "11111", "00000", "00000"),
            _rows("00100", "02220", "11111", "02220", "00100"),
        )
    ]
    given = fit_input(demos, _rows("0000000", "1111111", "0000000"))
    ops = fit_sweep(given)
    assert ops and ops[0].text == "sweep(vert,1,lcr){1.1.1>2;2.2.2>1}"
    # By hand: each side of the seed is the seed less its ends, in 2.
    check_fitted(ops[0], given, _rows("0222220", "1111111", "0222220"))
    # One way only does not fit: the rows above the seed change too.
    assert all(not op.text.startswith("sweep(down,") for op in ops)
