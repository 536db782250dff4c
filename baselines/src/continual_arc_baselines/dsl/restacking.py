"""Restacking: shapes that overlap change places, the one underneath comes to the top.

A grid shows plain shapes laid over one another: bars that cross, rectangles that overlap at a
corner, a diagonal line under a blob. Where two overlap only the top one shows. A task may ask
for the order reversed: every shape seen partly hidden is drawn whole, over what hid it.
`overlapping` combines two grids' layers and `symmetry` repairs a pattern; neither reads one
grid's shapes as layered.

``restack`` reads each foreground colour as one shape and infers its whole extent from what
shows: cells on one diagonal stand for the diagonal segment between its ends, any other colour
for its bounding box. A colour is *hidden* in part when that extent holds no background (so it
is a solid bar, rectangle or line) but holds cells of other colours; those cells take its
colour. A colour whose extent holds background (an outline, scattered dots, a triangle) is
never redrawn, though it may be the one on top. Two hidden colours claiming one cell, or no
cell claimed at all, make the step not apply: the order is then not a fact of the grid.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, Mask, bg_for

__all__ = ["FAMILIES", "restack"]


def _extent(cells: Mask) -> Mask | None:
    """The whole shape a colour's visible ``cells`` stand for, or ``None`` for a single cell."""
    rows, cols = np.nonzero(cells)
    if len(rows) < 2:
        return None
    whole = np.zeros_like(cells)
    if len(np.unique(rows - cols)) == 1:
        # A diagonal running down to the right: every cell between its two ends.
        span = np.arange(rows.min(), rows.max() + 1)
        whole[span, span - int(rows[0] - cols[0])] = True
        return whole
    if len(np.unique(rows + cols)) == 1:
        span = np.arange(rows.min(), rows.max() + 1)
        whole[span, int(rows[0] + cols[0]) - span] = True
        return whole
    whole[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1] = True
    return whole


def restack(grid: Array, bg: int) -> Array | None:
    """``grid`` with every partly hidden solid shape drawn whole over what hid it (see module)."""
    claimed = np.full(grid.shape, -1, dtype=np.int16)
    for colour in np.unique(grid).tolist():
        if colour == bg:
            continue
        cells = grid == colour
        whole = _extent(cells)
        if whole is None or (grid[whole] == bg).any():
            continue
        hidden = whole & ~cells
        if not hidden.any():
            continue
        if (claimed[hidden] >= 0).any():
            return None  # two shapes claim one cell: which lies lowest is not shown
        claimed[hidden] = colour
    mine = claimed >= 0
    if not mine.any():
        return None
    out = grid.copy()
    out[mine] = claimed[mine].astype(grid.dtype)
    return out


def _restack() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return restack(a, bg_for(a, ctx))

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("restack", (), 3, _restack, "draw each partly hidden solid shape whole, on top", "same"),
)
"""The family of this module: ``restack``."""
