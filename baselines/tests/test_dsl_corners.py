"""Diagonal lines from the bends of strokes (`dsl.corners`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.corners import CORNERS, parse_corners

# An L of three 7s: its bend (3,1) has arms up and right, so it points down-left out of the bend
# and up-right into it.
L = g("00000", "00000", "07000", "07700", "00000")


def test_corners_shoot_out_of_the_bend() -> None:
    assert execute(parse("corners{out;=}"), L) == g("00000", "00000", "07000", "07700", "70000")


def test_corners_shoot_into_the_bend_past_its_gap() -> None:
    # The gap cell (2,2) stays; the line starts at (1,3).
    assert execute(parse("corners{in;=}"), L) == g("00007", "00070", "07000", "07700", "00000")
    assert execute(parse("corners{in;4}"), L) == g("00004", "00040", "07000", "07700", "00000")


def test_a_block_has_no_bend() -> None:
    assert execute(parse("corners{out;=}"), g("0000", "0110", "0110", "0000")) is None
    assert parse_corners("corners{up;=}") is None


def test_corners_take_the_other_colour_and_are_fitted() -> None:
    # A cup of 8 holding a 6: its two bottom bends shoot out in the 6's colour.
    cup = g("08680", "08080", "08880", "00000", "00000")
    want = g("08680", "08080", "08880", "60006", "00000")
    assert execute(parse("corners{out;x}"), cup) == want
    # On a cup holding a 5, the other colour and the fixed 6 answer apart: both kept, in order.
    test = g("08580", "08080", "08880", "00000", "00000")
    ops = CORNERS.fit(fit_input([(cup, want)], test))
    assert [op.text for op in ops] == ["corners{out;x}", "corners{out;6}"]


def test_corners_fit_nothing_for_straight_lines() -> None:
    demos = [(g("000", "010", "000"), g("010", "010", "010"))]
    assert CORNERS.fit(fit_input(demos, g("000", "010", "000"))) == []
