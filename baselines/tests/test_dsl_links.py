"""Bands across the gaps between facing objects (`dsl.links`): hand-made grids and fitting."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.links import LINK, parse_link


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


SIDE = g("220033", "220033", "220000", "000000")
STACK = g("11111", "00000", "00000", "22222")
STACK_LINKED = g("11111", "08880", "08880", "22222")


def test_link_spans_the_rows_two_blocks_share() -> None:
    assert execute(parse("link{0;8}"), SIDE) == g("228833", "228833", "220000", "000000")
    # Narrowed by a cell at each edge, two shared rows leave nothing.
    assert execute(parse("link{1;8}"), SIDE) is None


def test_link_joins_blocks_one_above_the_other() -> None:
    assert execute(parse("link{1;8}"), STACK) == STACK_LINKED


def test_link_is_blocked_by_anything_in_the_gap() -> None:
    assert execute(parse("link{1;8}"), g("11111", "00500", "00000", "22222")) is None
    assert parse_link("link{2;8}") is None


def test_link_is_fitted() -> None:
    ops = LINK.fit(given([(STACK, STACK_LINKED)], STACK))
    assert [op.text for op in ops] == ["link{1;8}"]
    dots = [(g("000", "010", "000"), g("080", "010", "000"))]  # one object: nothing to join
    assert LINK.fit(given(dots, g("000", "010", "000"))) == []
