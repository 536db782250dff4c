"""Boxes marked out by four corner pixels, filled inside (`dsl.spanning`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.spanning import SPANNED, _boxin, parse_spanned


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


def test_boxin_labels_the_background_in_each_objects_box() -> None:
    # A diagonal-stepping 8-connected shape: its 3 x 3 box's three background cells get 11.
    grid = np.array(g("00000", "04400", "00400", "04040", "00000"), dtype=np.uint8)
    labelled = _boxin("8")(grid, Context(grid))
    assert labelled is not None
    assert labelled[1:4, 1:4].tolist() == [[4, 4, 11], [11, 4, 11], [4, 11, 4]]
    assert not labelled[0].any() and not labelled[4].any()
    # A map then paints the label: the step as a program.
    painted = g("00000", "04470", "07470", "04740", "00000")
    assert execute(parse("boxin(8) | map(11>7)"), g("00000", "04400", "00400", "04040", "00000")) == painted


def test_boxin_needs_background_inside_a_box() -> None:
    # Solid rectangles fill their boxes: nothing to label.
    solid = np.array(g("000", "044", "044"), dtype=np.uint8)
    assert _boxin("8")(solid, Context(solid)) is None
