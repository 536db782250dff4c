"""Full lines: the rows and columns one colour fills end to end, whatever that colour is.

`painting`'s ``emptylines`` labels the rows and columns left wholly background. Many grids cross
a speckled field with lines of one foreground colour instead, and that colour changes from pair
to pair (Re-ARC draws it afresh, and the specks may share it), so a line must be told by its
being whole, not by its colour. ``fulllines(axes)`` labels 11 every row (``h``), column (``v``)
or both (``hv``) that one colour other than the background fills, for a colour map to paint.
No such line, or every cell on one, makes the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import TRUE, Array, Context, Mask, bg_for

__all__ = ["AXES", "FAMILIES", "full_lines"]

AXES = ("h", "v", "hv")
"""Rows, columns, or both."""


def full_lines(grid: Array, bg: int, axes: str) -> Mask:
    """The cells of ``grid``'s rows or columns (``axes``) filled by one colour other than ``bg``."""
    lines = np.zeros(grid.shape, dtype=bool)
    if "h" in axes:
        rows = np.all(grid == grid[:, :1], axis=1) & (grid[:, 0] != bg)
        lines |= rows[:, None]
    if "v" in axes:
        cols = np.all(grid == grid[:1, :], axis=0) & (grid[0, :] != bg)
        lines |= cols[None, :]
    return lines


def _fulllines(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        lines = full_lines(a, bg_for(a, ctx), axes)
        if not lines.any() or lines.all():
            return None
        return np.where(lines, np.uint8(TRUE), a).astype(np.uint8)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "fulllines",
        (AXES,),
        2,
        _fulllines,
        "label the rows or columns one foreground colour fills",
        "same",
    ),
)
"""The family of this module: ``fulllines(axes)``."""
