"""Cornering: every object grown into a block reaching the grid's nearest corner."""

from __future__ import annotations

from dsl_rig import Cells, assert_added_to_wide, step_on


def test_tocorner_is_added_to_wide() -> None:
    assert_added_to_wide("tocorner")


def test_a_dot_fills_the_block_to_its_nearest_corner() -> None:
    # A red dot nearer the bottom and the left of a 5 x 6 grid: the block down to the bottom-left.
    grid: Cells = [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 2, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    assert step_on("tocorner", grid) == [
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [2, 2, 0, 0, 0, 0],
        [2, 2, 0, 0, 0, 0],
    ]


def test_a_dot_midway_does_not_apply() -> None:
    # The middle row of a 5-row grid: neither the top nor the bottom is nearer.
    grid: Cells = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 7], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert step_on("tocorner", grid) is None
