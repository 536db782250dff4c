"""Smearing: a marked shape dragged out along the ways its marks point, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_fitter_added_to_wide, check_fitted, fit_input, step_on

from continual_arc_baselines.dsl.smearing import fit_smear


def test_the_fitter_is_in_wide() -> None:
    assert_fitter_added_to_wide("smear{")


def test_a_block_marked_at_one_corner_streaks_to_that_corner() -> None:
    grid = [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 4, 2, 0, 0],
        [0, 4, 4, 0, 0],
    ]
    # The mark is the block's top-right cell: the block moves up and right, a cell a step.
    assert step_on("smear{2}", grid) == [
        [0, 0, 0, 0, 4],
        [0, 0, 0, 4, 4],
        [0, 0, 4, 4, 4],
        [0, 4, 4, 4, 0],
        [0, 4, 4, 0, 0],
    ]


def test_two_marks_streak_two_ways() -> None:
    grid = [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 3, 2, 0],
        [0, 0, 2, 3, 0],
        [0, 0, 0, 0, 0],
    ]
    # Marks at the top-right and bottom-left corners: one streak up-right, one down-left.
    assert step_on("smear{2}", grid) == [
        [0, 0, 0, 0, 3],
        [0, 0, 0, 3, 3],
        [0, 0, 3, 3, 3],
        [0, 3, 3, 3, 0],
        [3, 3, 3, 0, 0],
    ]


def test_a_mark_at_the_centre_points_nowhere() -> None:
    grid = [[0, 0, 0, 0, 0], [0, 4, 4, 4, 0], [0, 4, 2, 4, 0], [0, 4, 4, 4, 0], [0, 0, 0, 0, 0]]
    assert step_on("smear{2}", grid) is None


def test_the_mark_colour_is_fitted_from_the_colour_that_vanishes() -> None:
    one_in = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 5, 5, 0], [0, 5, 1, 0]]
    one_out = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 5, 5, 0], [0, 5, 5, 5]]
    # Up-left from the top-left mark: the second copy on is all off the grid but one cell.
    two_in = [[0, 0, 0, 0], [0, 1, 6, 0], [0, 6, 6, 0], [0, 0, 0, 0]]
    two_out = [[6, 6, 0, 0], [6, 6, 6, 0], [0, 6, 6, 0], [0, 0, 0, 0]]
    test = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 7, 1, 0], [0, 0, 7, 7, 0], [0, 0, 0, 0, 0]]
    given = fit_input([(one_in, one_out), (two_in, two_out)], test)
    found = fit_smear(given)
    assert [op.text for op in found] == ["smear{1}"]
    check_fitted(
        found[0],
        given,
        [[0, 0, 0, 0, 7], [0, 0, 0, 7, 7], [0, 0, 7, 7, 7], [0, 0, 7, 7, 0], [0, 0, 0, 0, 0]],
    )
