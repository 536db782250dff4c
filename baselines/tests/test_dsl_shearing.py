"""Shearing: a grid slanted one cell a line."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.ops import CORE, WIDE
from continual_arc_baselines.dsl.shearing import HOWS, shear


def test_rows_lean_right_or_left() -> None:
    grid = cells([[1, 2], [3, 4], [5, 6]])
    right = shear(grid, "r")
    assert right is not None and np.array_equal(right, cells([[0, 0, 1, 2], [0, 3, 4, 0], [5, 6, 0, 0]]))
    left = shear(grid, "l")
    assert left is not None and np.array_equal(left, cells([[1, 2, 0, 0], [0, 3, 4, 0], [0, 0, 5, 6]]))


def test_columns_lean_down_or_up() -> None:
    grid = cells([[1, 2], [3, 4]])
    down = shear(grid, "d")
    assert down is not None and np.array_equal(down, cells([[0, 2], [1, 4], [3, 0]]))
    up = shear(grid, "u")
    assert up is not None and np.array_equal(up, cells([[1, 0], [3, 2], [0, 4]]))


def test_a_single_line_does_not_lean_along_itself() -> None:
    assert shear(cells([[1, 2, 3]]), "r") is None
    assert shear(cells([[1], [2]]), "d") is None
    column = shear(cells([[1], [2]]), "r")
    assert column is not None and np.array_equal(column, cells([[0, 1], [2, 0]]))


def test_the_steps_are_added_to_wide() -> None:
    for how in HOWS:
        assert f"shear({how})" in WIDE.by_text and f"shear({how})" not in CORE.by_text
