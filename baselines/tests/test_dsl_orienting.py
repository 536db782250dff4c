"""Orienting: a fitted step taken on each grid turned so its marked edge is on top."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, assert_fitter_added_to_wide, cells, check_fitted, fit_input

from continual_arc_baselines.dsl.ops import ORIENT
from continual_arc_baselines.dsl.orienting import pose, posed, unposed

# A marker on an edge shoots a line of 3 straight across the grid, away from its edge; the
# marked edge is the left in one demonstration and the bottom in the other.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [0, 0, 0, 0],
            [2, 0, 0, 0],
            [0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 0],
            [2, 3, 3, 3],
            [0, 0, 0, 0],
        ],
    ),
    (
        [
            [0, 0, 0],
            [0, 0, 0],
            [0, 0, 0],
            [0, 2, 0],
        ],
        [
            [0, 3, 0],
            [0, 3, 0],
            [0, 3, 0],
            [0, 2, 0],
        ],
    ),
]


def test_the_busiest_edge_is_turned_to_the_top() -> None:
    grid = cells([[0, 0, 0], [0, 0, 5], [0, 0, 5], [0, 0, 0]])
    # The right edge holds the two marks: a quarter turn counterclockwise brings it to the top.
    assert pose(grid) == (1, False)
    assert posed(grid, (1, False)).tolist() == [[0, 5, 5, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    # A mark left on the top edge ends on the left once turned: the grid is mirrored too.
    assert pose(cells([[0, 0, 5], [0, 0, 5], [0, 0, 5], [0, 0, 0]])) == (1, True)
    assert unposed(posed(grid, (1, True)), (1, True)).tolist() == grid.tolist()


def test_two_neighbouring_edges_marked_alike_go_to_the_top_right() -> None:
    grid = cells([[5, 0, 0], [0, 0, 0], [5, 0, 0], [0, 0, 0], [0, 5, 0]])
    # Left and bottom hold two marks each: three quarter turns bring the left edge to the top and
    # the bottom edge to the right.
    assert pose(grid) == (3, False)
    assert pose(cells([[5, 0, 5], [0, 0, 0], [5, 0, 5]])) is None


def test_a_ray_from_whichever_edge_is_marked() -> None:
    test: Cells = [
        [0, 0, 0],
        [0, 0, 2],
        [0, 0, 0],
    ]
    answer: Cells = [
        [0, 0, 0],
        [3, 3, 2],
        [0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = ORIENT.fit(given)
    assert found and found[0].text.startswith("orient{")
    check_fitted(found[0], given, answer)


def test_nothing_is_fitted_when_every_grid_has_one_pose() -> None:
    # Both grids are marked on the left: the plain fitters see the rule as it is.
    pairs: list[tuple[Cells, Cells]] = [
        ([[0, 0, 0], [2, 0, 0], [0, 0, 0]], [[0, 0, 0], [2, 3, 3], [0, 0, 0]]),
        ([[0, 0, 0], [0, 0, 0], [2, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [2, 3, 3], [0, 0, 0]]),
    ]
    assert ORIENT.fit(fit_input(pairs, np.array([[0, 0, 0], [2, 0, 0], [0, 0, 0]]))) == []


def test_the_fitter_is_in_wide() -> None:
    assert_fitter_added_to_wide("orient{")


def test_the_parser_reads_back_only_what_the_fitter_writes() -> None:
    """A local rule or a wide fitter's step reads back; a fixed step or a nested pose does not."""
    assert ORIENT.parse("orient{rot90}") is None
    assert ORIENT.parse("orient{orient{smear{2}}}") is None
    assert ORIENT.parse("orient{" * 400 + "smear{2}" + "}" * 400) is None
    assert ORIENT.parse("orient{smear{2}}") is None  # a step of next, not of wide
