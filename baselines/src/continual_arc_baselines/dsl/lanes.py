"""Lanes: rows or columns that run clear across a framed grid, from wall to wall.

``emptylines`` (`painting`) labels the rows or columns with no foreground at all. A grid inside a
ragged frame has none: each row starts and ends in wall. A *lane* is a row (or column) whose
only foreground is its two end cells, the frame: a straight path crosses the grid there from one
wall to the other where no part of the wall juts in.
``lanes(axes)`` labels the background cells of every lane 11 (a fitted map colours them) and leaves
the rest alone; ``None`` when no row or column is a lane, or every background cell is in one.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import TRUE, Array, Context, Mask, bg_for

__all__ = ["FAMILIES", "LANE_COST", "lane_rows"]

LANE_COST = 3
"""The cost of a lane step: dearer than ``emptylines`` (2), which it refines."""


def lane_rows(free: Mask) -> Mask:
    """Per row of the background mask ``free``: whether it is a lane (background but its end cells)."""
    if free.shape[1] < 3:
        return np.zeros(free.shape[0], dtype=bool)
    # Wall in both end cells and nowhere between: a row whose wall juts in is blocked at that depth.
    return free[:, 1:-1].all(axis=1) & ~free[:, 0] & ~free[:, -1]


def _lanes(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        free = a == bg_for(a, ctx)
        lanes = np.zeros(a.shape, dtype=bool)
        if "h" in axes:
            lanes |= lane_rows(free)[:, None]
        if "v" in axes:
            lanes |= lane_rows(free.T)[None, :]
        paint = lanes & free
        if not paint.any() or paint.sum() == free.sum():
            return None
        return np.where(paint, np.uint8(TRUE), a).astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "lanes",
        (("h", "v", "hv"),),
        LANE_COST,
        _lanes,
        "label the background of rows or columns that run clear from wall to wall",
        "same",
    ),
)
"""The lane family."""
