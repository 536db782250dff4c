"""Diagonal lines that reflect off walls (`dsl.bounce`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.bounce import BOUNCE, parse_bounce


def test_bounce_zigzags_between_the_side_borders() -> None:
    # From the bottom-left cell up-right, off the right side, off the left side, to the top.
    grid = g("000", "000", "000", "000", "100")
    assert execute(parse("bounce{p;ur;h;=}"), grid) == g("100", "010", "001", "010", "100")


def test_bounce_off_foreground_and_stop_at_the_border() -> None:
    # The 8 stroke's upper tip (4,1) shoots up-right, meets the 2 wall at (1,4), turns up-left,
    # then the top border ends it.
    grid = g("00002", "00002", "00002", "00002", "08002", "80002")
    want = g("03002", "00302", "00032", "00302", "08002", "80002")
    assert execute(parse("bounce{t;*;f;3}"), grid) == want


def test_bounce_needs_a_free_first_step() -> None:
    # A corner cell pointing off the grid draws nothing.
    assert execute(parse("bounce{p;dl;h;=}"), g("000", "100")) is None
    assert parse_bounce("bounce{t;ur;h;=}") is None


def test_bounce_is_fitted_and_fits_no_straight_line() -> None:
    demos = [
        (g("000", "000", "000", "100"), g("010", "001", "010", "100")),
        (g("00", "00", "10"), g("10", "01", "10")),
    ]
    ops = BOUNCE.fit(fit_input(demos, g("000", "100")))
    assert ops and ops[0].text == "bounce{p;ur;h;=}"
    straight = [(g("000", "100"), g("000", "111"))]
    assert BOUNCE.fit(fit_input(straight, g("000", "100"))) == []
