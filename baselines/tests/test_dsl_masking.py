"""Masking a pattern by a shape drawn at a larger scale."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.masking import masked
from continual_arc_baselines.dsl.ops import WIDE


def _grid(shape_rows: list[list[int]]) -> np.ndarray:
    """A 2 x 2 pattern of 3, 4, 6, 7 at the bottom right; the shape above it in 2 x 2 blocks of 1."""
    grid = np.zeros((8, 8), dtype=np.uint8)
    grid[0:4, 0:4] = np.kron(cells(shape_rows), np.ones((2, 2), dtype=np.uint8))
    grid[6:8, 6:8] = cells([[3, 4], [6, 7]])
    return grid


def test_the_pattern_shows_where_the_shape_is() -> None:
    made = masked(_grid([[1, 0], [1, 1]]), 0)
    assert made is not None and np.array_equal(made, cells([[3, 0], [6, 7]]))


def test_a_shape_not_in_whole_blocks_masks_nothing() -> None:
    grid = _grid([[1, 0], [1, 1]])
    grid[0, 1] = 0  # one block half set
    assert masked(grid, 0) is None
    plain = _grid([[1, 0], [1, 1]])
    plain[6:8, 6:8] = cells([[3, 3], [4, 4]])  # a pattern of only two colours is no pattern
    assert masked(plain, 0) is None


def test_the_wide_catalogue_holds_it() -> None:
    assert "masked" in WIDE.by_text
