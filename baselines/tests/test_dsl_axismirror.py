"""Axis mirrors: the foreground reflected about drawn divider lines, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_added_to_wide, digits, step_on


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("axismirror(h)", "axismirror(v)", "axismirror(hv)")


def test_a_quadrant_is_copied_about_an_off_centre_cross() -> None:
    # Background 0 (commonest), a cross of 5 at row 2 and column 1; a 3 and a 4 in the top right.
    grid = [
        [0, 5, 0, 3, 0],
        [0, 5, 4, 0, 0],
        [5, 5, 5, 5, 5],
        [0, 5, 0, 0, 0],
        [0, 5, 0, 0, 0],
    ]
    # Column 3 mirrors to column -1 (off the grid), column 2 to column 0; row 1 to row 3, row 0 to 4.
    assert step_on("axismirror(hv)", grid) == [
        [0, 5, 0, 3, 0],
        [4, 5, 4, 0, 0],
        [5, 5, 5, 5, 5],
        [4, 5, 4, 0, 0],
        [0, 5, 0, 3, 0],
    ]


def test_one_way_only_about_a_divider_row() -> None:
    grid = [list(r) for r in digits("1200", "0000", "7777", "0000", "0000", "0000")]
    # Row 0 mirrors about row 2 to row 4; row 1 (empty) to row 3.
    assert step_on("axismirror(v)", grid) == [
        [1, 2, 0, 0],
        [0, 0, 0, 0],
        [7, 7, 7, 7],
        [0, 0, 0, 0],
        [1, 2, 0, 0],
        [0, 0, 0, 0],
    ]
    # No divider column: the left-right mirror does not apply.
    assert step_on("axismirror(h)", grid) is None


def test_foreground_is_never_overwritten() -> None:
    grid = [list(r) for r in digits("100", "888", "300")]
    # The 1 and the 3 face each other across row 1: neither changes, so nothing does.
    assert step_on("axismirror(v)", grid) is None


def test_two_divider_rows_give_no_axis() -> None:
    grid = [list(r) for r in digits("1000", "6666", "0000", "6666", "0000")]
    assert step_on("axismirror(v)", grid) is None
