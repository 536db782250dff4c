"""Banding: each row painted whole by where its one marker cell lies in it."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, check_fitted, fit_input

from continual_arc_baselines.dsl.banding import fit_band
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup

# A marker in the first third of its row paints the row red, the middle third yellow, the last green.
_DEMOS: list[tuple[Cells, Cells]] = [
    ([[5, 0, 0], [0, 5, 0], [0, 0, 5]], [[2, 2, 2], [4, 4, 4], [3, 3, 3]]),
    ([[0, 0, 5], [0, 0, 5], [5, 0, 0]], [[3, 3, 3], [3, 3, 3], [2, 2, 2]]),
    ([[0, 5, 0], [5, 0, 0], [0, 5, 0]], [[4, 4, 4], [2, 2, 2], [4, 4, 4]]),
]


def test_rows_are_painted_by_the_third_their_marker_lies_in() -> None:
    # Six wide: the thirds are columns 0-1, 2-3 and 4-5.
    test: Cells = [[0, 0, 0, 0, 7, 0], [7, 0, 0, 0, 0, 0], [0, 0, 7, 0, 0, 0]]
    answer: Cells = [[3] * 6, [2] * 6, [4] * 6]
    given = fit_input(_DEMOS, test)
    found = fit_band(given)
    assert [op.text for op in found] == ["band(h,3){0>2;1>4;2>3}"]
    check_fitted(found[0], given, answer)


def test_a_row_with_two_markers_is_not_answered() -> None:
    op = lookup("band(h,3){0>2;1>4;2>3}")
    assert op is not None
    grid = np.array([[5, 0, 5], [0, 5, 0], [0, 0, 0]], dtype=np.uint8)
    assert op(grid, Context(grid)) is None


def test_nothing_is_fitted_when_output_rows_are_not_whole() -> None:
    pairs: list[tuple[Cells, Cells]] = [
        ([[5, 0, 0], [0, 5, 0], [0, 0, 5]], [[2, 0, 0], [0, 4, 0], [0, 0, 3]]),
        ([[0, 0, 5], [0, 0, 5], [5, 0, 0]], [[0, 0, 3], [0, 0, 3], [2, 0, 0]]),
    ]
    assert fit_band(fit_input(pairs, [[5, 0, 0], [0, 5, 0], [0, 0, 5]])) == []
    assert lookup("band(d,3){0>2}") is None
