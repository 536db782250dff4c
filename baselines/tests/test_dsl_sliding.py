"""Sliding: one row stacked into a block of copies, each shifted a cell further than the last."""

from __future__ import annotations

import numpy as np
from dsl_rig import check_fitted, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.sliding import fit_slide


def test_a_bar_grows_a_step_at_each_row_for_half_the_rows_length() -> None:
    given = fit_input(
        [
            ([[3, 3, 0, 0]], [[3, 3, 0, 0], [3, 3, 3, 0]]),
            ([[5, 0, 0, 0, 0, 0]], [[5, 0, 0, 0, 0, 0], [5, 5, 0, 0, 0, 0], [5, 5, 5, 0, 0, 0]]),
        ],
        [[4, 0, 0, 0]],
    )
    ops = fit_slide(given)
    assert ops[0].text == "slide{half;w;d;r;e}"
    check_fitted(ops[0], given, [[4, 0, 0, 0], [4, 4, 0, 0]])


def test_a_row_trails_up_a_square_as_wide_as_length_times_its_coloured_cells() -> None:
    given = fit_input(
        [
            ([[1, 0]], [[0, 1], [1, 0]]),
            ([[2, 3]], [[0, 0, 0, 2], [0, 0, 2, 3], [0, 2, 3, 0], [2, 3, 0, 0]]),
        ],
        [[0, 5, 0]],
    )
    ops = fit_slide(given)
    assert ops[0].text == "slide{lenk;n;u;r;0}"
    check_fitted(ops[0], given, [[0, 0, 0], [0, 0, 5], [0, 5, 0]])


def test_a_column_slides_across() -> None:
    given = fit_input(
        [
            ([[3], [3], [0], [0]], [[3, 3], [3, 3], [0, 3], [0, 0]]),
            ([[6], [0], [0], [0]], [[6, 6], [0, 6], [0, 0], [0, 0]]),
        ],
        [[7], [0], [0], [0]],
    )
    ops = fit_slide(given)
    assert ops[0].text == "slide{half;w;d;r;e}"
    check_fitted(ops[0], given, [[7, 7], [0, 7], [0, 0], [0, 0]])


def test_no_slide_for_a_block_input_or_a_grid_that_keeps_its_shape() -> None:
    block = fit_input([([[1, 0], [0, 0]], [[1, 0], [1, 1]])], [[2, 0], [0, 0]])
    assert fit_slide(block) == []
    same = fit_input([([[1, 0, 0]], [[1, 1, 0]])], [[2, 0, 0]])
    assert fit_slide(same) == []


def test_texts_it_never_writes_name_no_step() -> None:
    assert lookup("slide{half;w;d;r;e}") is not None
    assert lookup("slide{half;w;d;r;x}") is None
    assert lookup("slide{most;w;d;r;e}") is None
    assert lookup("slide{half;w;d;r}") is None


def test_half_as_many_square_copies_is_not_labelled_a_growing_step() -> None:
    """Five square copies of a ten-cell row make a 5 x 5 block: narrower, so not ``grow``."""
    op = lookup("slide{half;n;d;r;e}")
    assert op is not None and op.shape == "other"
    row = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9, 1]])
    made = op(row, Context(row))
    assert made is not None and made.shape == (5, 5)
