"""Rays bent at the border (`dsl.turns`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.turns import TURN, parse_turn


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


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
    ops = TURN.fit(given([(GRID, BENT)], g("000", "400", "000")))
    assert [op.text for op in ops] == ["turn{r;cw}"]
    straight = [(GRID, g("0000", "0222", "0000", "3333", "0000"))]
    assert TURN.fit(given(straight, GRID)) == []
