"""Rays bent at the border (`dsl.turns`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.turns import TURN, parse_turn

GRID = g("0000", "0200", "0000", "3000", "0000")
# The 3 draws first (it is further down): right to the border, then down. The 2's line turns
# down at the border and stops at the 3's.
BENT = g("0000", "0222", "0002", "3333", "0003")


def test_turn_bends_at_the_border_and_stops_at_the_next_line() -> None:
    assert execute(parse("turn{r;cw}"), GRID) == BENT


def test_turn_does_not_bend_at_an_obstacle() -> None:
    # The 2 stops at the 3 short of the border; only the 3's line bends.
    assert execute(parse("turn{r;cw}"), g("00000", "20300", "00000")) == g("00000", "22333", "00003")
    assert execute(parse("turn{r;cw}"), g("000", "000")) is None
    assert parse_turn("turn{r;up}") is None


def test_turn_is_fitted() -> None:
    ops = TURN.fit(fit_input([(GRID, BENT)], g("000", "400", "000")))
    assert [op.text for op in ops] == ["turn{r;cw}"]
    straight = [(GRID, g("0000", "0222", "0000", "3333", "0000"))]
    assert TURN.fit(fit_input(straight, GRID)) == []
