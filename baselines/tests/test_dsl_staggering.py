"""Staggering: every other line of a figure rolled one cell, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_added_to_wide, digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import WIDE


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("stagger(r,first,+)", "stagger(c,second,-)")


def test_rows_are_counted_from_the_figure_not_the_grid() -> None:
    # Background 0; the figure's first row is row 1, so its second and fourth lines are rows 2, 4.
    grid = [
        [0, 0, 0, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 0, 0, 0, 0],
    ]
    # Rows 2 and 4 rolled right by one: 0 3 4 0 0 -> 0 0 3 4 0.
    assert step_on("stagger(r,second,+)", grid) == [
        [0, 0, 0, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 0, 3, 4, 0],
        [0, 3, 4, 0, 0],
        [0, 0, 3, 4, 0],
        [0, 0, 0, 0, 0],
    ]
    # The first and third lines (rows 1 and 3) rolled left: 0 3 4 0 0 -> 3 4 0 0 0.
    assert step_on("stagger(r,first,-)", grid) == [
        [0, 0, 0, 0, 0],
        [3, 4, 0, 0, 0],
        [0, 3, 4, 0, 0],
        [3, 4, 0, 0, 0],
        [0, 3, 4, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_a_roll_brings_the_far_end_round() -> None:
    # Two full bars: whichever bar counts as background, every column holds foreground, so the
    # figure's columns are 0-3 and its second and fourth (1 and 3) move down by one, cyclically.
    grid = [[1, 1, 1, 1], [2, 2, 2, 2]]
    assert step_on("stagger(c,second,+)", grid) == [[1, 2, 1, 2], [2, 1, 2, 1]]


def test_no_answer_without_a_change() -> None:
    blank = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert step_on("stagger(r,first,+)", blank) is None
    # One foreground row: its second line is background, and rolling background changes nothing.
    one_row = [[0, 0, 0], [0, 5, 0], [0, 0, 0]]
    assert step_on("stagger(r,second,+)", one_row) is None
    # A uniform row rolled is the same row.
    uniform = [[0, 0, 0], [5, 5, 5], [0, 0, 0]]
    assert step_on("stagger(r,first,+)", uniform) is None


def test_the_search_staggers_a_brick_wall() -> None:
    demos = [
        (digits("0000", "1200", "1200", "1200"), digits("0000", "1200", "0120", "1200")),
        (digits("34000", "34000", "00000"), digits("34000", "03400", "00000")),
        (digits("000", "560", "560", "560", "560"), digits("000", "560", "056", "560", "056")),
    ]
    test = digits("00000", "00780", "00780", "00780")
    found = search(demos, test, catalogue=WIDE)
    assert found.candidates
    assert found.candidates[0].prediction == digits("00000", "00780", "00078", "00780")
