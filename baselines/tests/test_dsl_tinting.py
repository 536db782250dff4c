"""Tinting: every cell of a plain colour takes the colour of the marker it faces."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, check_fitted, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.tinting import fit_tint

# A column of markers at the left; grey cells take the colour of the marker in their row.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [1, 0, 5, 5, 0],
            [2, 0, 5, 5, 0],
            [1, 0, 0, 5, 5],
            [3, 0, 0, 0, 0],
        ],
        [
            [1, 0, 1, 1, 0],
            [2, 0, 2, 2, 0],
            [1, 0, 0, 1, 1],
            [3, 0, 0, 0, 0],
        ],
    ),
    (
        [
            [4, 0, 0, 0, 0],
            [4, 5, 5, 5, 0],
            [2, 5, 5, 5, 0],
            [2, 0, 0, 5, 0],
        ],
        [
            [4, 0, 0, 0, 0],
            [4, 4, 4, 4, 0],
            [2, 2, 2, 2, 0],
            [2, 0, 0, 2, 0],
        ],
    ),
]


def test_each_cell_takes_the_marker_of_its_row() -> None:
    test: Cells = [
        [3, 0, 0, 5, 5],
        [6, 0, 5, 5, 0],
        [6, 0, 5, 0, 0],
        [0, 0, 0, 0, 0],
    ]
    answer: Cells = [
        [3, 0, 0, 3, 3],
        [6, 0, 6, 6, 0],
        [6, 0, 6, 0, 0],
        [0, 0, 0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_tint(given)
    assert [op.text for op in found][:1] == ["tint(l){5}"]
    check_fitted(found[0], given, answer)


def test_looking_up_and_to_the_nearest() -> None:
    grid = np.array([[0, 7, 0, 8], [0, 5, 0, 5], [0, 5, 0, 0]], dtype=np.uint8)
    up = lookup("tint(u){5}")
    near = lookup("tint(n){5}")
    assert up is not None and near is not None
    made = up(grid, Context(grid))
    assert made is not None and made.tolist() == [[0, 7, 0, 8], [0, 7, 0, 8], [0, 7, 0, 0]]
    # The lower grey cell's nearest markers: the 7 two steps up; the 8 is four steps away.
    made = near(grid, Context(grid))
    assert made is not None and made.tolist() == [[0, 7, 0, 8], [0, 7, 0, 8], [0, 7, 0, 0]]


def test_nothing_is_fitted_when_changed_cells_have_several_colours() -> None:
    pairs: list[tuple[Cells, Cells]] = [
        ([[1, 0, 5], [2, 0, 6]], [[1, 0, 1], [2, 0, 2]]),
        ([[3, 0, 5], [4, 0, 6]], [[3, 0, 3], [4, 0, 4]]),
    ]
    assert fit_tint(fit_input(pairs, [[1, 0, 5], [2, 0, 6]])) == []


def test_nothing_is_fitted_when_no_look_explains_the_demonstrations() -> None:
    # The grey cell turns a colour no marker has: no way of looking explains it.
    pairs: list[tuple[Cells, Cells]] = [
        ([[1, 0, 5, 0, 2]], [[1, 0, 9, 0, 2]]),
        ([[3, 0, 5, 0, 4]], [[3, 0, 9, 0, 4]]),
    ]
    assert fit_tint(fit_input(pairs, [[1, 0, 5, 0, 2]])) == []
    assert lookup("tint(q){5}") is None


def test_only_the_cells_facing_a_marker_across_the_background_turn() -> None:
    sighted = lookup("tint(s){8}")
    assert sighted is not None
    grid = np.array([[0, 9, 0, 0], [0, 0, 0, 0], [0, 8, 8, 0], [6, 8, 8, 0], [0, 0, 0, 0]], dtype=np.uint8)
    made = sighted(grid, Context(grid))
    # The upper left cell sees the 9 above it, the lower left the 6 beside it; the right-hand
    # cells see markers only through other grey cells, so they stay.
    assert made is not None
    assert made.tolist() == [[0, 9, 0, 0], [0, 0, 0, 0], [0, 9, 8, 0], [6, 6, 8, 0], [0, 0, 0, 0]]
