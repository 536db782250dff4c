"""Boxes marked out by four corner pixels, filled inside (`dsl.spanning`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.spanning import BOXIN, SPANNED, parse_boxin, parse_spanned


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


# Four yellow corners at rows 0 and 3, columns 1 and 4: the inside is rows 1-2, columns 2-3.
BOX = g("040040", "000000", "000000", "040040", "000000")
FILLED = g("040040", "002200", "002200", "040040", "000000")


def test_spanned_fills_the_inside_of_the_marked_box() -> None:
    assert execute(parse("spanned{2}"), BOX) == FILLED
    assert execute(parse("spanned{=}"), BOX) == g("040040", "004400", "004400", "040040", "000000")


def test_spanned_needs_four_lone_corners() -> None:
    # The fourth corner missing: no box.
    assert execute(parse("spanned{2}"), g("040040", "000000", "000000", "040000")) is None
    # Corners of two colours mark no box.
    assert execute(parse("spanned{2}"), g("040040", "000000", "000000", "040030")) is None
    # A corner with a neighbour of its colour is part of a shape, not a marker.
    assert execute(parse("spanned{2}"), g("044040", "000000", "000000", "040040")) is None
    assert parse_spanned("spanned{x}") is None


def test_spanned_is_fitted() -> None:
    ops = SPANNED.fit(given([(BOX, FILLED)], BOX))
    assert [op.text for op in ops] == ["spanned{2}"]
    # Painting outside the box is no spanned box.
    outside = [(BOX, g("040040", "000000", "000000", "040040", "222222"))]
    assert SPANNED.fit(given(outside, BOX)) == []


def test_boxin_fills_each_objects_box() -> None:
    # A diagonal-stepping 8-connected shape: its 3 x 3 box's background becomes orange.
    grid = g("00000", "04400", "00400", "04040", "00000")
    painted = g("00000", "04470", "07470", "04740", "00000")
    assert execute(parse("boxin{7}"), grid) == painted
    assert [op.text for op in BOXIN.fit(given([(grid, painted)], grid))] == ["boxin{7}"]


def test_boxin_needs_background_inside_a_box() -> None:
    # Solid rectangles fill their boxes: nothing to paint.
    assert execute(parse("boxin{7}"), g("000", "044", "044")) is None
    assert parse_boxin("boxin{x}") is None
