"""Ricochets: balls shot from a long grid's corners, bouncing off its long sides (`dsl.ricochet`)."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import WIDE

_STEP = WIDE.by_text["ricochet"]


def test_ricochet_zigzags_up_a_tall_grid() -> None:
    # From the bottom left: up and right, off the right side, off the left side, out at the top.
    grid = cells([[0, 0], [0, 0], [0, 0], [1, 0]])
    made = _STEP(grid, Context(grid))
    assert made is not None
    assert made.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_ricochet_shoots_from_every_corner_of_a_wide_grid() -> None:
    # Red from the top left and green from the bottom right, each bouncing off the top and bottom.
    grid = cells([[2, 0, 0, 0, 0], [0, 0, 0, 0, 3]])
    made = _STEP(grid, Context(grid))
    assert made is not None
    assert made.tolist() == [[2, 3, 2, 3, 2], [3, 2, 3, 2, 3]]


def test_ricochet_needs_a_long_grid_with_balls_in_its_corners_alone() -> None:
    square = cells([[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    assert _STEP(square, Context(square)) is None
    inside = cells([[0, 0], [0, 4], [0, 0], [1, 0]])  # a cell off the corners
    assert _STEP(inside, Context(inside)) is None
    joined = cells([[0, 0], [0, 0], [1, 0], [1, 0]])  # the corner cell is part of a bar
    assert _STEP(joined, Context(joined)) is None
