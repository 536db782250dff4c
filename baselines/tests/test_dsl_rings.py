"""Concentric rings: the colours as nested rings, by their counts or by where their marks lie."""

from __future__ import annotations

import numpy as np
from dsl_rig import assert_added_to_wide, cells

from continual_arc_baselines.dsl.ops import CORE, WIDE
from continual_arc_baselines.dsl.rings import by_count, by_mark


def test_the_commonest_colour_is_outermost() -> None:
    # Three 2s, two 6s and one 4 on a ground of 0: rings 2, 6, 4 from the outside in.
    grid = cells([[2, 2, 0, 6], [0, 2, 0, 6], [4, 0, 0, 0]])
    made = by_count(grid, 0)
    expected = cells(
        [
            [2, 2, 2, 2, 2],
            [2, 6, 6, 6, 2],
            [2, 6, 4, 6, 2],
            [2, 6, 6, 6, 2],
            [2, 2, 2, 2, 2],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_tied_counts_leave_no_order() -> None:
    assert by_count(cells([[3, 0, 5], [0, 0, 0]]), 0) is None


def test_each_mark_paints_its_ring() -> None:
    # A 5 x 5 grid: a 3 on the outer ring, an 8 on the middle one, a 1 in the centre.
    grid = cells(
        [
            [0, 0, 0, 0, 3],
            [0, 0, 0, 0, 0],
            [0, 0, 1, 0, 0],
            [0, 8, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ]
    )
    made = by_mark(grid, 0)
    expected = cells(
        [
            [3, 3, 3, 3, 3],
            [3, 8, 8, 8, 3],
            [3, 8, 1, 8, 3],
            [3, 8, 8, 8, 3],
            [3, 3, 3, 3, 3],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_a_ring_without_one_colour_is_no_target() -> None:
    # The middle ring holds no mark.
    empty = cells([[3, 0, 0], [0, 1, 0], [0, 0, 0]])
    assert by_mark(np.pad(empty, 1), 0) is None
    # The outer ring holds two colours.
    two = cells([[3, 0, 4], [0, 1, 0], [0, 0, 0]])
    assert by_mark(two, 0) is None


def test_the_steps_are_added_to_wide() -> None:
    for text in ("rings", "ringmarks"):
        assert text in WIDE.by_text and text not in CORE.by_text


# Marks: 3 on the outer ring, none on the next, 1 on the third, 4 at the centre (background 0).
GAPPED = cells(
    [
        [0, 0, 3, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0, 0],
        [0, 0, 0, 4, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 3],
    ]
)


def test_ringgaps_leaves_a_bare_ring_background() -> None:
    assert by_mark(GAPPED, 0) is None  # ringmarks: the second ring holds no mark
    made = by_mark(GAPPED, 0, gaps=True)
    expected = cells(
        [
            [3, 3, 3, 3, 3, 3, 3],
            [3, 0, 0, 0, 0, 0, 3],
            [3, 0, 1, 1, 1, 0, 3],
            [3, 0, 1, 4, 1, 0, 3],
            [3, 0, 1, 1, 1, 0, 3],
            [3, 0, 0, 0, 0, 0, 3],
            [3, 3, 3, 3, 3, 3, 3],
        ]
    )
    assert made is not None and np.array_equal(made, expected)


def test_ringgaps_still_needs_one_colour_a_ring() -> None:
    two = GAPPED.copy()
    two[0, 4] = 5  # the outer ring now holds a 3 and a 5
    assert by_mark(two, 0, gaps=True) is None
    # A grid with no mark at all is no target either.
    assert by_mark(cells([[0, 0, 0], [0, 0, 0], [0, 0, 0]]), 0, gaps=True) is None


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("ringgaps")
