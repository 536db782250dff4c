"""Centring pieces: every piece overlaid on the centre of its box, in the largest box."""

from __future__ import annotations

import numpy as np
from dsl_rig import cells

from continual_arc_baselines.dsl.centring import centre
from continual_arc_baselines.dsl.ops import CORE, WIDE


def test_colour_pieces_nest_about_one_centre() -> None:
    # Four 2s at the corners of a 3 x 3 box, and a lone 5 elsewhere: the 5 lands in the middle.
    grid = cells(
        [
            [2, 0, 2, 0, 0],
            [0, 0, 0, 0, 0],
            [2, 0, 2, 0, 5],
            [0, 0, 0, 0, 0],
        ]
    )
    made = centre(grid, 0, "col")
    assert made is not None and np.array_equal(made, cells([[2, 0, 2], [0, 5, 0], [2, 0, 2]]))


def test_boxes_share_their_ground() -> None:
    # Two 3 x 3 boxes of 4 apart, with one mark each; the 4 gives way to the marks wherever they fall.
    grid = cells(
        [
            [4, 4, 4, 0, 0, 0, 0],
            [4, 6, 4, 0, 0, 0, 0],
            [4, 4, 4, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 4, 4, 4],
            [0, 0, 0, 0, 4, 4, 7],
            [0, 0, 0, 0, 4, 4, 4],
        ]
    )
    made = centre(grid, 0, "obj")
    assert made is not None and np.array_equal(made, cells([[4, 4, 4], [4, 6, 7], [4, 4, 4]]))


def test_clashes_and_odd_sizes_do_not_nest() -> None:
    # Two single cells of different colours both land on the one middle cell.
    clash = cells([[3, 0, 0], [0, 0, 8]])
    assert centre(clash, 0, "col") is None
    # A 3-wide piece and a 2-wide one cannot share a centre cell.
    odd = cells([[1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 6, 6]])
    assert centre(odd, 0, "col") is None
    # One piece alone is nothing to gather.
    assert centre(cells([[0, 9, 9], [0, 0, 0]]), 0, "col") is None


def test_the_steps_are_added_to_wide() -> None:
    for text in ("centre(col)", "centre(obj)"):
        assert text in WIDE.by_text and text not in CORE.by_text
