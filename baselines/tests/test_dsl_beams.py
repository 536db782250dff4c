"""Lines shot by marked shapes the way they point (`dsl.beams`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.beams import BEAM, parse_beam

# An arrow of 2s with its mark 1 at (2,0); the body's middle, (2, 0.75), lies to the right.
RIGHT = g("000000", "200000", "122000", "200000", "000000")
RIGHT_OUT = g("000000", "200000", "122111", "200000", "000000")
# An arrow of 2s with its mark 3 at the bottom; the body's middle lies above it.
UP = g("000", "000", "000", "020", "222", "030")
UP_OUT = g("030", "030", "030", "020", "222", "030")


def test_beam_passes_its_arrow_and_paints_the_background() -> None:
    assert execute(parse("beam{to;m}"), RIGHT) == RIGHT_OUT
    assert execute(parse("beam{to;b}"), UP) == g("020", "020", "020", "020", "222", "030")


def test_beam_needs_a_marked_shape_and_room() -> None:
    assert execute(parse("beam{to;m}"), g("000", "220", "000")) is None  # no mark
    assert execute(parse("beam{from;m}"), RIGHT) is None  # the mark is on the border
    assert parse_beam("beam{up;m}") is None


def test_beam_is_fitted() -> None:
    ops = BEAM.fit(fit_input([(RIGHT, RIGHT_OUT), (UP, UP_OUT)], UP))
    assert ops and ops[0].text == "beam{to;m}"
    lines = [(g("000", "010", "000"), g("010", "010", "010"))]  # a dot is no arrow
    assert BEAM.fit(fit_input(lines, g("000", "010", "000"))) == []


def test_beam_fans_out_from_a_cups_front() -> None:
    # A cup of 2s marked 4 at its base points up; its front is the single cell (3,2), whose two
    # flanking diagonals run up-left and up-right to the border.
    cup = g("00000", "00000", "00000", "00200", "22422")
    assert execute(parse("beam{fan;m}"), cup) == g("00000", "40004", "04040", "00200", "22422")
    # A wider rim: the diagonals leave its two ends.
    rim = g("0000000", "0000000", "0022200", "2244422")
    assert execute(parse("beam{fan;m}"), rim) == g("4000004", "0400040", "0022200", "2244422")
