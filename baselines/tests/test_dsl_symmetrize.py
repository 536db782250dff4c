"""Symmetrizing a figure: the foreground completed under a group about a fitted centre."""

from __future__ import annotations

import numpy as np
from dsl_rig import digits as g

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.grid import TRUE, to_array
from continual_arc_baselines.dsl.symmetrize import pivot, symmetrize


def test_a_mirror_about_a_fitted_axis_adds_the_missing_half() -> None:
    # The two 1s agree about the axis between columns 2 and 3; the 2s are mirrored across it.
    grid = g("010010", "022000", "000000")
    assert execute(parse("symmetrize(h,keep)"), grid) == g("010010", "022220", "000000")


def test_a_rotor_gets_its_missing_arms_and_new_cells_can_be_labelled() -> None:
    # Arms above and right of the centre (2,2) are a quarter turn apart: the turns add left and below.
    grid = g("00300", "00000", "00503", "00000", "00000")
    assert execute(parse("symmetrize(r4,keep)"), grid) == g("00300", "00000", "30503", "00000", "00300")
    made = symmetrize(to_array(grid), 0, "r4", True)
    assert made is not None
    assert made[2, 0] == TRUE and made[4, 2] == TRUE and made[0, 2] == 3


def test_a_figure_with_no_agreeing_pair_or_already_symmetric_is_left_alone() -> None:
    assert symmetrize(to_array(g("000", "010", "000")), 0, "h", False) is None  # one cell: no vote
    assert symmetrize(to_array(g("0000", "1221", "0000")), 0, "h", False) is None  # nothing to add
    # Two cells of different colours clash under every centre that pairs them.
    assert symmetrize(to_array(g("000", "102", "000")), 0, "h", False) is None


def test_an_image_that_would_leave_the_grid_rules_its_centre_out() -> None:
    # The 1s pair about the axis at column 0.5, but the 2 at column 3 would land at column -2.
    a = to_array(g("1100", "0002"))
    assert symmetrize(a, 0, "h", False) is None
    assert np.array_equal(a, to_array(g("1100", "0002")))  # the input is not changed in place


def test_a_pivot_object_fixes_the_centre_the_rest_is_mirrored_about() -> None:
    # The yellow X (rows 3-5, columns 3-5) is its own mirror image about (4, 4); the red L is not,
    # so the L is mirrored left-right, up-down and by the half turn about the X's centre.
    grid = g("220000000", "020000000", "000000000", "000404000", "000040000", "000404000", *["000000000"] * 3)
    assert execute(parse("hub(hv)"), grid) == g(
        "220000022",
        "020000020",
        "000000000",
        "000404000",
        "000040000",
        "000404000",
        "000000000",
        "020000020",
        "220000022",
    )


def test_two_pivots_with_different_centres_leave_the_figure_alone() -> None:
    # Each square is its own mirror image: which one is the pivot cannot be told.
    assert pivot(to_array(g("110000", "110000", "000000", "000011", "000011")), 0, "hv") is None
    # A flat bar is its own image only by leaving every cell in place under the mirror along it:
    # no evidence of a pivot, so the L is not mirrored about the bar.
    assert pivot(to_array(g("2200000000", "0200330000", "0000000000")), 0, "hv") is None
