"""Coarsening: a blocky shape under specks read back one cell a block."""

from __future__ import annotations

from dsl_rig import cells, step_on

from continual_arc_baselines.dsl.coarsening import coarse

# A shape of 4 at scale 2 (an L of three blocks), specks of 8 strewn over it and around it.
_GRID = [
    [0, 0, 0, 0, 0, 8],
    [0, 4, 4, 0, 0, 0],
    [0, 4, 4, 0, 0, 0],
    [0, 4, 4, 8, 4, 0],
    [0, 4, 4, 4, 4, 0],
    [8, 0, 0, 0, 0, 0],
]


def test_the_shape_is_read_one_cell_a_block() -> None:
    assert step_on("coarse{n}", _GRID) == [[8, 0], [8, 8]]
    assert step_on("coarse{s}", _GRID) == [[4, 0], [4, 4]]


def test_a_shape_that_is_not_blocky_is_not_read() -> None:
    # One more 4 in the empty block: no block side leaves every block all shape or all ground.
    rows = [row[:] for row in _GRID]
    rows[1][3] = 4
    assert coarse(cells(rows), 0, "n") is None
    # A third colour: which are the specks is in doubt.
    rows = [row[:] for row in _GRID]
    rows[5][5] = 3
    assert coarse(cells(rows), 0, "n") is None
