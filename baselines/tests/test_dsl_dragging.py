"""Trails: the grid on a larger canvas, copied one step further again and again."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.dragging import drag, fit_drag, parse_drag
from continual_arc_baselines.dsl.ops import lookup

_GRID = cells([[6, 1], [3, 0]])
# Copies at (0,0), (1,1), (2,2), (3,3); the earlier copy wins where two paint one cell.
_TRAILED = cells(
    [
        [6, 1, 0, 0],
        [3, 6, 1, 0],
        [0, 3, 6, 1],
        [0, 0, 3, 6],
    ]
)


def test_a_diagonal_trail_on_a_doubled_canvas() -> None:
    made = drag(_GRID, 0, 1, 1, 2, 2)
    assert made is not None and np.array_equal(made, _TRAILED)


def test_a_trail_up_starts_at_the_bottom() -> None:
    made = drag(cells([[5]]), 0, -1, 0, 3, 1)
    assert made is not None and np.array_equal(made, cells([[5], [5], [5]]))


def test_the_trail_is_fitted_and_reads_back() -> None:
    ops = fit_drag(fit_input([(_GRID, _TRAILED)], _GRID))
    assert [op.text for op in ops] == ["drag{1,1,2,2}"]
    assert parse_drag("drag{1,1,2,2}") is not None and lookup("drag{1,1,2,2}") is not None


def test_no_trail_fits_a_plain_tiling() -> None:
    tiled = np.tile(_GRID, (2, 2))
    assert fit_drag(fit_input([(_GRID, tiled)], _GRID)) == []
    assert parse_drag("drag{0,0,2,2}") is None
    assert parse_drag("drag{1,1,1,1}") is None
