"""Middle lines of objects across the grid (`dsl.centres`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.centres import AXES, parse_axes
from continual_arc_baselines.dsl.grid import Context


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


def test_axes_draws_a_frames_middle_lines_over_the_background() -> None:
    # The middle row and column cross the frame's own cells untouched and its hole painted.
    grid = g("00000", "01110", "01010", "01110", "00000")
    assert execute(parse("axes{hv;6}"), grid) == g("00600", "01110", "61616", "01110", "00600")
    assert execute(parse("axes{h;=}"), grid) == g("00000", "01110", "11111", "01110", "00000")


def test_axes_needs_an_odd_side() -> None:
    assert execute(parse("axes{hv;6}"), g("0000", "0110", "0110", "0000")) is None
    assert parse_axes("axes{d;6}") is None


def test_axes_is_fitted() -> None:
    demos = [(g("0000", "0111", "0101", "0111"), g("0060", "0111", "6161", "0111"))]
    ops = AXES.fit(given(demos, g("00000", "01110", "01010", "01110", "00000")))
    assert ops and ops[0].text == "axes{hv;6}"
    lines = [(g("000", "010", "000"), g("010", "010", "010"))]  # a dot is no frame
    assert AXES.fit(given(lines, g("000", "010", "000"))) == []
