"""Joins along rows and columns with one axis on top (`dsl.crossing`): hand-made grids."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.crossing import OVERJOIN
from continual_arc_baselines.dsl.grid import Context


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(pairs: list[tuple[Grid, Grid]], test: Grid) -> FitInput:
    inputs = (*(np.array(i, dtype=np.uint8) for i, _ in pairs), np.array(test, dtype=np.uint8))
    outputs = tuple(np.array(o, dtype=np.uint8) for _, o in pairs)
    return FitInput(inputs, outputs, tuple(Context(a) for a in inputs))


# Red pair on column 2 (rows 0 and 4), green pair on row 2 (columns 0 and 4): the joins cross at (2,2).
CROSS = g("00200", "00000", "30003", "00000", "00200")


def test_overjoin_keeps_the_top_axis_where_joins_cross() -> None:
    assert execute(parse("overjoin{v}"), CROSS) == g("00200", "00200", "33233", "00200", "00200")
    assert execute(parse("overjoin{h}"), CROSS) == g("00200", "00200", "33333", "00200", "00200")


def test_overjoin_needs_a_crossing() -> None:
    # A lone row join: connect's work, not this step's.
    assert execute(parse("overjoin{v}"), g("00000", "30003", "00000")) is None
    # Pairs of different colours are not joined at all.
    assert execute(parse("overjoin{v}"), g("00200", "30004", "00100")) is None


def test_overjoin_is_fitted() -> None:
    vertical = g("00200", "00200", "33233", "00200", "00200")
    assert [op.text for op in OVERJOIN.fit(given([(CROSS, vertical)], CROSS))] == ["overjoin{v}"]
    # Joins of another colour than the pair's are no overjoin.
    other = g("00200", "00500", "33533", "00500", "00200")
    assert OVERJOIN.fit(given([(CROSS, other)], CROSS)) == []
