"""Rays that alternate two colours (`dsl.dashes`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.dashes import DASH, parse_dash


def test_dash_alternates_a_fixed_colour_and_the_sources() -> None:
    grid = g("000000", "200000", "000300")
    assert execute(parse("dash{r;5;=}"), grid) == g("000000", "252525", "000353")


def test_dash_may_skip_every_other_cell_and_stops_at_foreground() -> None:
    # Dotted: the source's colour at even distances only; the 4 at (0,4) ends the line.
    assert execute(parse("dash{r;.;=}"), g("100040")) == g("101040")


def test_dash_needs_room_to_draw() -> None:
    assert execute(parse("dash{l;5;=}"), g("200", "000")) is None
    assert parse_dash("dash{r;.;.}") is not None
    assert parse_dash("dash{x;5;=}") is None


def test_dash_is_fitted_and_leaves_solid_lines_alone() -> None:
    demos = [(g("0000", "2000"), g("0000", "2525")), (g("3000", "0000"), g("3535", "0000"))]
    ops = DASH.fit(fit_input(demos, g("000", "600")))
    assert ops and ops[0].text == "dash{r;5;=}"
    solid = [(g("0000", "2000"), g("0000", "2222")), (g("3000", "0000"), g("3333", "0000"))]
    assert DASH.fit(fit_input(solid, g("000", "600"))) == []
