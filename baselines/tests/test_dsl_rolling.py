"""Rolling by a marker: the picture rolled as far as its edge ruler's one odd cell says."""

from __future__ import annotations

from dsl_rig import check_fitted, fit_input, step_on

from continual_arc_baselines.dsl.rolling import FITTER


def test_a_column_ruler_rolls_the_rows_down() -> None:
    # The ruler (left column, 5s) has its 2 at the picture's third row (place 2), so the picture's
    # rows move down two places, the last two coming round to the top.
    grid = [[5, 1, 1], [5, 3, 3], [2, 4, 4], [5, 6, 6]]
    assert step_on("roll{l,+}", grid) == [[4, 4], [6, 6], [1, 1], [3, 3]]
    # Rolled back instead: the row at the marker's place comes to the top.
    assert step_on("roll{l,-}", grid) == [[4, 4], [6, 6], [1, 1], [3, 3]]
    grid3 = [[5, 1, 1], [2, 3, 3], [5, 4, 4]]
    assert step_on("roll{l,+}", grid3) == [[4, 4], [1, 1], [3, 3]]
    assert step_on("roll{l,-}", grid3) == [[3, 3], [4, 4], [1, 1]]


def test_two_rulers_roll_both_ways() -> None:
    # Top row ruler: its 2 is at the picture's column 1; left column ruler: its 2 at the
    # picture's row 1. The corner cell (7) belongs to neither ruler. Columns move right one
    # place, then rows down one place.
    grid = [[7, 6, 2, 6], [6, 1, 3, 4], [2, 5, 8, 9], [6, 0, 1, 2]]
    assert step_on("roll{tl,+}", grid) == [[2, 0, 1], [4, 1, 3], [9, 5, 8]]


def test_no_ruler_no_roll() -> None:
    # The left column has two odd cells: it is no ruler, so the step does not apply.
    assert step_on("roll{l,+}", [[5, 1, 1], [2, 3, 3], [2, 4, 4], [5, 6, 6]]) is None
    # An edge of one colour only is no ruler either, nor a two-cell edge (which cell is odd?).
    assert step_on("roll{l,+}", [[5, 1, 1], [5, 3, 3], [5, 4, 4]]) is None
    assert step_on("roll{l,+}", [[5, 1, 1], [2, 3, 3]]) is None


def test_the_roll_is_fitted_from_the_demonstrations() -> None:
    # One demonstration, ruler place 1, rolled on: offered as roll{l,+}; the test's marker is at
    # place 0, so its picture comes out as it is.
    given = fit_input(
        [([[5, 1, 1], [2, 3, 3], [5, 4, 4]], [[4, 4], [1, 1], [3, 3]])], [[2, 7, 7], [5, 8, 8], [5, 9, 9]]
    )
    ops = FITTER.fit(given)
    assert [op.text for op in ops] == ["roll{l,+}"]
    check_fitted(ops[0], given, [[7, 7], [8, 8], [9, 9]])
