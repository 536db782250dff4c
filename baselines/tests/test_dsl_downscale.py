"""Rescaling by marks: each k x k block becomes one m x m block of its foreground colour."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells, fit_input

from continual_arc_baselines.dsl.downscale import fit_rescale, marks, parse_rescale, rescale_op
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup

_MARKED = cells(
    [
        [0, 0, 0, 0],
        [0, 3, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 5],
    ]
)


def test_marks_keep_the_one_mark_of_each_block() -> None:
    made = marks(_MARKED, 2, 0)
    assert made is not None and np.array_equal(made, cells([[3, 0], [0, 5]]))
    assert marks(cells([[1, 2, 0]]), 2, 0) is None  # 3 columns do not cut into pairs


def test_rescale_redraws_each_mark_as_a_block() -> None:
    made = rescale_op(2, 3)(_MARKED, Context(_MARKED))
    expected = cells(
        [
            [3, 3, 3, 0, 0, 0],
            [3, 3, 3, 0, 0, 0],
            [3, 3, 3, 0, 0, 0],
            [0, 0, 0, 5, 5, 5],
            [0, 0, 0, 5, 5, 5],
            [0, 0, 0, 5, 5, 5],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_rescale_is_fitted_from_the_sides() -> None:
    out = cells([[3, 3, 3, 0, 0, 0]] * 3 + [[0, 0, 0, 5, 5, 5]] * 3)
    ops = fit_rescale(fit_input([(_MARKED, out)], _MARKED))
    assert [op.text for op in ops] == ["rescale{2,3}"]
    assert parse_rescale("rescale{2,3}") is not None and lookup("rescale{2,3}") is not None


def test_rescale_fits_nothing_when_a_block_is_not_its_mark() -> None:
    out = cells([[3, 3, 3, 0, 0, 0]] * 3 + [[0, 0, 0, 4, 4, 4]] * 3)  # 5 became 4: no rescaling
    assert fit_rescale(fit_input([(_MARKED, out)], _MARKED)) == []
    assert parse_rescale("rescale{1,2}") is None  # that is ``up(2)``
    assert parse_rescale("rescale{2,2}") is None
