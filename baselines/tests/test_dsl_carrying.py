"""Carrying a pattern on by its own step, to a fitted height."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.carrying import carry, fit_carry, parse_carry, step_of
from continual_arc_baselines.dsl.ops import lookup

# A staircase: each pair of rows is the pair above moved one cell right.
_STAIRS = cells(
    [
        [1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 1, 1, 0, 0],
        [0, 0, 1, 0, 0],
    ]
)
_CARRIED = cells(
    [
        [1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 1, 1, 0, 0],
        [0, 0, 1, 0, 0],
        [0, 0, 1, 1, 0],
        [0, 0, 0, 1, 0],
    ]
)


def test_the_staircase_step_is_found_and_carried_on() -> None:
    assert step_of(_STAIRS, 0) == (2, 1)
    made = carry(_STAIRS, 0, 6)
    assert made is not None and np.array_equal(made, _CARRIED)


def test_the_carry_is_fitted_and_reads_back() -> None:
    ops = fit_carry(fit_input([(_STAIRS, _CARRIED)], _STAIRS))
    assert [op.text for op in ops] == ["carry(v){6}"]
    assert parse_carry("carry(v){6}") is not None and lookup("carry(v){6}") is not None


def test_a_grid_with_no_step_carries_nothing() -> None:
    odd = cells([[1, 0, 0], [0, 0, 2], [0, 3, 0], [4, 0, 0]])  # no row repeats an earlier one
    assert step_of(odd, 0) is None
    assert carry(odd, 0, 6) is None
    assert fit_carry(fit_input([(odd, np.zeros((6, 3), dtype=np.uint8))], odd)) == []
    assert parse_carry("carry(d){6}") is None
