"""Fitting a shape into a frame: the frame, its inside the shape scaled up to fill it."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.framing import fit_in
from continual_arc_baselines.dsl.ops import WIDE


def test_the_shape_is_scaled_into_the_frame() -> None:
    # A 6 x 6 frame of 2 (inside 4 x 4) and a 2 x 2 shape of 3: scaled by 2.
    grid = np.zeros((8, 10), dtype=np.uint8)
    grid[1:7, 1] = grid[1:7, 6] = grid[1, 1:7] = grid[6, 1:7] = 2
    grid[2, 8], grid[3, 9] = 3, 3
    made = fit_in(grid, 0)
    expected = cells(
        [
            [2, 2, 2, 2, 2, 2],
            [2, 3, 3, 0, 0, 2],
            [2, 3, 3, 0, 0, 2],
            [2, 0, 0, 3, 3, 2],
            [2, 0, 0, 3, 3, 2],
            [2, 2, 2, 2, 2, 2],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_no_whole_factor_fits_nothing() -> None:
    grid = np.zeros((8, 10), dtype=np.uint8)
    grid[1:7, 1] = grid[1:7, 6] = grid[1, 1:7] = grid[6, 1:7] = 2
    grid[2, 7:10] = 3  # a 1 x 3 shape: 4 / 1 and 4 / 3 are not one whole factor
    assert fit_in(grid, 0) is None
    assert fit_in(cells([[0, 3, 0], [0, 0, 0]]), 0) is None  # no frame at all


def test_the_wide_catalogue_holds_it() -> None:
    assert "fitin" in WIDE.by_text
