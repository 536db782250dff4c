"""Bands: the colours of a striped grid in the order the stripes lie."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.bands import bands, lines
from continual_arc_baselines.dsl.ops import WIDE


def test_ragged_vertical_stripes_give_a_row() -> None:
    grid = cells(
        [
            [4, 4, 2, 2, 8],
            [4, 2, 2, 8, 8],
            [4, 4, 4, 2, 8],
        ]
    )
    made = bands(grid)
    assert made is not None and np.array_equal(made, cells([[4, 2, 8]]))


def test_horizontal_stripes_give_a_column() -> None:
    grid = cells([[3, 3, 3], [3, 1, 3], [1, 1, 1], [6, 6, 1], [6, 6, 6]])
    made = bands(grid)
    assert made is not None and np.array_equal(made, cells([[3], [1], [6]]))


def test_a_checkerboard_has_no_bands() -> None:
    grid = cells([[1, 2, 1, 2], [2, 1, 2, 1], [1, 2, 1, 2], [2, 1, 2, 1]])
    assert bands(grid) is None
    assert bands(cells([[5, 5], [5, 5]])) is None


def test_lines_under_a_block_give_a_square_of_stripes() -> None:
    # Rows of 2, 1 and 3 on 0; a block of 5 covers the left of the 1 and 3 lines.
    grid = cells(
        [
            [2, 2, 2, 2, 2],
            [0, 0, 0, 0, 0],
            [5, 5, 1, 1, 1],
            [5, 5, 0, 0, 0],
            [5, 5, 3, 3, 3],
        ]
    )
    made = lines(grid, 0)
    assert made is not None and np.array_equal(made, cells([[2, 2, 2], [1, 1, 1], [3, 3, 3]]))


def test_lines_running_both_ways_give_nothing() -> None:
    grid = cells([[2, 2, 2], [0, 0, 4], [0, 0, 4]])  # a row of 2 and a column of 4
    assert lines(grid, 0) is None


def test_the_wide_catalogue_holds_them() -> None:
    assert "bands" in WIDE.by_text and "lines" in WIDE.by_text
