"""Full lines: the rows and columns one foreground colour fills (`dsl.fulllines`)."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import WIDE


def test_fulllines_labels_rows_and_columns_of_one_foreground_colour() -> None:
    # Blue specks on black (the commonest colour); row 1 and column 2 are all blue.
    grid = cells([[0, 1, 1, 0, 0], [1, 1, 1, 1, 1], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [1, 0, 1, 0, 0]])
    made = WIDE.by_text["fulllines(hv)"](grid, Context(grid))
    assert made is not None
    assert made.tolist() == [
        [0, 1, 11, 0, 0],
        [11, 11, 11, 11, 11],
        [0, 0, 11, 0, 0],
        [0, 0, 11, 0, 0],
        [1, 0, 11, 0, 0],
    ]
    rows = WIDE.by_text["fulllines(h)"](grid, Context(grid))
    assert rows is not None
    assert rows[1].tolist() == [11] * 5 and rows[2].tolist() == [0, 0, 1, 0, 0]


def test_fulllines_needs_a_whole_line_of_a_foreground_colour() -> None:
    # A row of the background and a row of two colours are no lines.
    grid = cells([[0, 0, 0], [2, 2, 3], [0, 2, 0]])
    assert WIDE.by_text["fulllines(hv)"](grid, Context(grid)) is None
