"""Staircases: a bar standing out from one edge grows steps on one side and shrinks them on the other.

A single straight bar of one colour starts at an edge of the grid and stands out into it. On one
side of it the lines grow one cell longer at each step away from the bar, on the other they
shrink one cell at each step, until they run out. ``staircase`` paints the growing steps with the
label `TRUE` and the shrinking ones with the next label, so a fitted colour map names both.

Which side grows follows the bar's edge the way a turn of the grid carries it: for a bar out of
the left edge the lines above grow and those below shrink; out of the top edge those to the
right grow, out of the right edge those below, out of the bottom edge those to the left. Only
background cells are painted. The step does not apply unless the foreground is exactly one such
bar, on exactly one edge.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .geometry import one_turn
from .grid import TRUE, Array

__all__ = ["FAMILIES", "GROW", "SHRINK", "staircase"]

GROW = TRUE
"""The label of the growing steps."""

SHRINK = TRUE + 1
"""The label of the shrinking steps."""


def _stepped(g: Array, bg: int) -> Array | None:
    """``g`` with steps around a bar out of its left edge, or ``None`` when it has no such bar."""
    ys, xs = np.nonzero(g != bg)
    if not len(ys) or len(np.unique(ys)) != 1 or len(np.unique(g[ys, xs])) != 1:
        return None
    row, length = int(ys[0]), len(xs)
    if int(xs.min()) != 0 or int(xs.max()) != length - 1 or length >= g.shape[1]:
        return None
    out = g.copy()
    for k in range(1, g.shape[0]):
        if row - k >= 0:
            out[row - k, : min(length + k, g.shape[1])] = GROW
        if row + k < g.shape[0] and length - k > 0:
            out[row + k, : length - k] = SHRINK
    return out


def staircase(a: Array, bg: int) -> Array | None:
    """``a`` with the steps of its one bar painted as labels (see the module), or ``None``."""
    return one_turn(a, lambda g: _stepped(g, bg))


def _staircase() -> Prim:
    return on_colours(staircase)


FAMILIES: tuple[Family, ...] = (
    Family(
        "staircase",
        (),
        3,
        _staircase,
        "label growing steps on one side of an edge bar and shrinking steps on the other",
        "same",
    ),
)
"""The family of this module: ``staircase``."""
