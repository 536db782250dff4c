"""Lines repeated at the markers' spacing (`dsl.pitching`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.pitching import PITCH, parse_pitch


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


# A wide grid: red at column 1, blue at column 3, two apart.
WIDE = g("02000000", "00000000", "00030000")
# Columns 1, 3, 5, 7 drawn, red and blue in turn, from the first marker on.
WIDE_ON = g("02030203", "02030203", "02030203")


def test_pitch_repeats_the_markers_lines_to_the_edge() -> None:
    assert execute(parse("pitch{long;on}"), WIDE) == WIDE_ON
    assert execute(parse("pitch{v;on}"), WIDE) == WIDE_ON


def test_pitch_reaches_back_to_the_near_edge_too() -> None:
    # Markers at columns 3 and 6 (pitch 3): 'both' adds column 0 (blue, one step before red).
    grid = g("0003000", "0000004")
    assert execute(parse("pitch{v;both}"), grid) == g("4003004", "4003004")
    assert execute(parse("pitch{v;on}"), grid) == g("0003004", "0003004")


def test_pitch_follows_the_long_side() -> None:
    # A tall grid: markers in rows 0 and 2, so rows are drawn.
    tall = g("100", "000", "005", "000", "000")
    assert execute(parse("pitch{long;on}"), tall) == g("111", "000", "555", "000", "111")


def test_pitch_needs_evenly_spaced_markers() -> None:
    # Columns 0, 2, 5: uneven spacing, no stripes.
    assert execute(parse("pitch{v;on}"), g("102003")) is None
    # One marker sets no spacing; a square grid has no long side.
    assert execute(parse("pitch{v;on}"), g("0100", "0000")) is None
    assert execute(parse("pitch{long;on}"), g("100", "000", "002")) is None
    assert parse_pitch("pitch{d;on}") is None


def test_pitch_is_fitted() -> None:
    ops = PITCH.fit(given([(WIDE, WIDE_ON)], g("20000000", "00300000")))
    assert [op.text for op in ops][:1] == ["pitch{long;on}"]
    # A fixed colour over the background is no pitch of the markers' own colours.
    other = [(WIDE, g("02030205", "02030205", "02030205"))]
    assert PITCH.fit(given(other, WIDE)) == []


def test_pitch_rings_grow_about_the_middle_marker() -> None:
    # Markers at (1,1) and (3,3): both lie on ring 1 about the box's centre (2,2), one position only.
    assert execute(parse("pitch{ring;on}"), g("00000", "01000", "00000", "00010", "00000")) is None
    # Markers at (0,0), (2,2), (4,4): rings 2 and 0 about (2,2), spacing 2; rings 0, 2 and 4 drawn.
    grid = g("3000000", "0000000", "0030000", "0000000", "0000300", "0000000", "0000000")
    made = g("3333303", "3000303", "3030303", "3000303", "3333303", "0000003", "3333333")
    assert execute(parse("pitch{ring;on}"), grid) == made
