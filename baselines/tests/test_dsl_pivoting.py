"""Pivoting: the pattern reflected about the centre of a marker colour's cells."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, check_fitted, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.pivoting import fit_pivot

# A red pattern beside a green marker is copied into the four quarters around the marker.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [2, 0, 0, 0, 0, 0],
            [0, 2, 0, 0, 0, 0],
            [0, 0, 3, 3, 0, 0],
            [0, 0, 3, 3, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
        [
            [2, 0, 0, 0, 0, 2],
            [0, 2, 0, 0, 2, 0],
            [0, 0, 3, 3, 0, 0],
            [0, 0, 3, 3, 0, 0],
            [0, 2, 0, 0, 2, 0],
            [2, 0, 0, 0, 0, 2],
        ],
    ),
    (
        [
            [0, 2, 0, 0, 0],
            [2, 0, 0, 0, 0],
            [0, 0, 3, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [0, 2, 0, 2, 0],
            [2, 0, 0, 0, 2],
            [0, 0, 3, 0, 0],
            [2, 0, 0, 0, 2],
            [0, 2, 0, 2, 0],
        ],
    ),
]


def test_the_pattern_is_copied_into_the_four_quarters_about_the_marker() -> None:
    test: Cells = [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 4, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 3, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    answer: Cells = [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 4, 0, 4, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 3, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 4, 0, 4, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_pivot(given)
    assert [op.text for op in found][:1] == ["pivot(hv){3}"]
    check_fitted(found[0], given, answer)


def test_a_left_to_right_pivot_drops_copies_off_the_grid() -> None:
    op = lookup("pivot(h){5}")
    assert op is not None
    grid = np.array([[1, 0, 5, 0], [0, 1, 5, 0]], dtype=np.uint8)
    made = op(grid, Context(grid))
    # The column-0 cell's image (column 4) is off the grid; the column-1 cell lands in column 3.
    assert made is not None and made.tolist() == [[1, 0, 5, 0], [0, 1, 5, 1]]


def test_nothing_is_fitted_when_a_demonstration_repaints_the_pattern() -> None:
    pairs: list[tuple[Cells, Cells]] = [
        ([[2, 0, 0], [0, 3, 0], [0, 0, 0]], [[4, 0, 0], [0, 3, 0], [0, 0, 4]]),
        ([[0, 2, 0], [0, 3, 0], [0, 0, 0]], [[0, 4, 0], [0, 3, 0], [0, 4, 0]]),
    ]
    assert fit_pivot(fit_input(pairs, [[2, 0, 0], [0, 3, 0], [0, 0, 0]])) == []
    assert lookup("pivot(x){3}") is None
