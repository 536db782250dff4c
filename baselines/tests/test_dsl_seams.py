"""Bouncing mirrors: a grid reflected about its edge lines, the seam drawn once, to a fitted length."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.seams import bounce, fit_bounce, parse_bounce


def test_bounce_down_draws_each_seam_once() -> None:
    grid = cells([[1, 0], [0, 2], [3, 3]])
    # Rows 0 1 2, then 1 0 (seam row 2 once), then 1 2: m = 3 gives 3 * 2 + 1 = 7 rows.
    made = bounce(grid, "v", 3)
    expected = cells([[1, 0], [0, 2], [3, 3], [0, 2], [1, 0], [0, 2], [3, 3]])
    assert made is not None and np.array_equal(made, expected)


def test_bounce_left_grows_before_the_grid() -> None:
    grid = cells([[1, 2]])
    made = bounce(grid, "h2", 2)
    assert made is not None and np.array_equal(made, cells([[2, 1, 2]]))


def test_bounce_is_fitted_with_its_length() -> None:
    first = cells([[5, 0], [0, 5]])
    second = cells([[0, 6], [6, 0], [0, 6]])
    pairs = [(first, bounce(first, "v", 4)), (second, bounce(second, "v", 4))]
    assert pairs[0][1] is not None and pairs[0][1].shape == (5, 2)
    ops = fit_bounce(fit_input(pairs, first))  # type: ignore[arg-type]
    assert [op.text for op in ops] == ["bounce(v){4}"]
    assert parse_bounce("bounce(v){4}") is not None and lookup("bounce(v){4}") is not None


def test_bounce_fits_nothing_when_the_copy_is_not_a_reflection() -> None:
    grid = cells([[1, 0], [0, 2], [3, 3]])
    tiled = cells([[1, 0], [0, 2], [3, 3], [1, 0], [0, 2]])  # a bounce's 5 rows, but a repeat, not a mirror
    assert fit_bounce(fit_input([(grid, tiled)], grid)) == []
    assert parse_bounce("bounce(v){1}") is None
    assert parse_bounce("bounce(x){2}") is None
