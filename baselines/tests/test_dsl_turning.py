"""Turning: line-drawn shapes recoloured by the turns their lines take."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, check_fitted, fit_input

from continual_arc_baselines.dsl.objects import objects
from continual_arc_baselines.dsl.ops import lookup
from continual_arc_baselines.dsl.turning import fit_turns, signatures

# Grey shapes: an L turns blue, a U magenta, a straight bar stays grey.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [5, 0, 0, 5, 5, 5],
            [5, 5, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [5, 0, 5, 0, 0, 0],
            [5, 5, 5, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
        [
            [1, 0, 0, 5, 5, 5],
            [1, 1, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [6, 0, 6, 0, 0, 0],
            [6, 6, 6, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
    ),
    (
        [
            [0, 0, 0, 0, 0, 0],
            [0, 5, 5, 5, 0, 5],
            [0, 5, 0, 5, 0, 5],
            [0, 0, 0, 0, 0, 0],
            [5, 5, 0, 0, 0, 0],
            [0, 5, 0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 0, 0, 0],
            [0, 6, 6, 6, 0, 5],
            [0, 6, 0, 6, 0, 5],
            [0, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 0],
        ],
    ),
]


def test_shapes_of_new_lengths_are_recoloured_by_kind() -> None:
    test: Cells = [
        [5, 5, 5, 5, 0, 0],
        [0, 0, 0, 5, 0, 0],
        [0, 0, 0, 0, 0, 5],
        [5, 0, 0, 0, 0, 5],
        [5, 0, 5, 0, 0, 0],
        [5, 5, 5, 0, 0, 0],
    ]
    answer: Cells = [
        [1, 1, 1, 1, 0, 0],
        [0, 0, 0, 1, 0, 0],
        [0, 0, 0, 0, 0, 5],
        [6, 0, 0, 0, 0, 5],
        [6, 0, 6, 0, 0, 0],
        [6, 6, 6, 0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_turns(given)
    assert [op.text for op in found] == ["turns{i>k;l>1;ll>6}"]
    check_fitted(found[0], given, answer)


def test_a_u_an_s_and_a_branch_have_different_signatures() -> None:
    grid = np.array(
        [
            [5, 5, 0, 5, 0, 5, 0, 0, 0],
            [0, 5, 0, 5, 0, 5, 0, 7, 0],
            [0, 5, 5, 5, 5, 5, 0, 7, 7],
            [0, 0, 0, 0, 0, 0, 0, 7, 0],
        ],
        dtype=np.uint8,
    )
    # The S (left) touches the U (middle): the U is drawn in another colour, so they stay apart.
    grid[0:3, 3:6] = np.where(grid[0:3, 3:6] == 5, 3, 0)
    objs = objects(grid, 0, "4")
    assert sorted(signatures(grid, objs)) == ["ll", "lr", "x"]


def test_nothing_is_fitted_when_the_test_holds_an_unseen_kind() -> None:
    test: Cells = [
        [5, 5, 0, 0, 0, 0],
        [0, 5, 0, 0, 0, 0],
        [0, 5, 5, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    assert fit_turns(fit_input(_DEMOS, test)) == []
    assert lookup("turns{q>1}") is None
