"""Gathering pieces at their anchors: pieces overlaid on their one marker cell."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.gathering import gather, jigsaw
from continual_arc_baselines.dsl.ops import WIDE


def test_pieces_meet_on_their_markers() -> None:
    # Three pieces, each with one 5: a 6 above its 5, a 4 left of its 5, a 7 below-right of its 5.
    grid = cells(
        [
            [0, 6, 0, 0, 0, 0, 0],
            [0, 5, 0, 0, 4, 5, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 5, 0, 0, 0, 0],
            [0, 0, 0, 7, 0, 0, 0],
        ]
    )
    made = gather(grid, 0)
    expected = cells(
        [
            [0, 6, 0],
            [4, 5, 0],
            [0, 0, 7],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_no_marker_or_a_clash_gathers_nothing() -> None:
    # The second piece has two 5s: 5 is no marker (and 6, 4 are in one piece each only).
    two = cells([[6, 5, 0, 0, 0], [0, 0, 0, 5, 5], [0, 0, 0, 4, 0]])
    assert gather(two, 0) is None
    # Both pieces paint the cell right of their marker, in different colours.
    clash = cells([[5, 6, 0, 0], [0, 0, 0, 0], [0, 0, 5, 7]])
    assert gather(clash, 0) is None


def test_two_pieces_fit_into_a_rectangle() -> None:
    # An L of 3 (three cells) and a bar of 7 (one cell) fill a 2 x 2 square one way only.
    grid = cells(
        [
            [3, 3, 0, 0, 0],
            [3, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 7],
        ]
    )
    made = jigsaw(grid, 0)
    assert made is not None and np.array_equal(made, cells([[3, 3], [3, 7]]))


def test_pieces_that_leave_a_gap_fit_nothing() -> None:
    # An L of three cells and a bar of two: five cells make no rectangle they can fill.
    grid = cells([[3, 3, 0, 0], [3, 0, 0, 0], [0, 0, 7, 7]])
    assert jigsaw(grid, 0) is None
    assert jigsaw(cells([[3, 0, 7, 0, 5]]), 0) is None  # three pieces


def test_the_wide_catalogue_holds_them() -> None:
    assert "gather" in WIDE.by_text and "jigsaw" in WIDE.by_text
