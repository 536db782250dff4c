"""Carrying a pattern on by its own step, to a fitted height."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.carrying import carry, fit_carry, parse_carry, step_of
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup


def _a(rows: list[list[int]]) -> np.ndarray:
    return np.array(rows, dtype=np.uint8)


def _given(pairs: list[tuple[np.ndarray, np.ndarray]], test: np.ndarray) -> FitInput:
    inputs = (*(i for i, _ in pairs), test)
    return FitInput(inputs, tuple(o for _, o in pairs), tuple(Context(g) for g in inputs))


# A staircase: each pair of rows is the pair above moved one cell right.
_STAIRS = _a(
    [
        [1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 1, 1, 0, 0],
        [0, 0, 1, 0, 0],
    ]
)
_CARRIED = _a(
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
    ops = fit_carry(_given([(_STAIRS, _CARRIED)], _STAIRS))
    assert [op.text for op in ops] == ["carry(v){6}"]
    assert parse_carry("carry(v){6}") is not None and lookup("carry(v){6}") is not None


def test_a_grid_with_no_step_carries_nothing() -> None:
    odd = _a([[1, 0, 0], [0, 0, 2], [0, 3, 0], [4, 0, 0]])  # no row repeats an earlier one
    assert step_of(odd, 0) is None
    assert carry(odd, 0, 6) is None
    assert fit_carry(_given([(odd, np.zeros((6, 3), dtype=np.uint8))], odd)) == []
    assert parse_carry("carry(d){6}") is None
