"""Axis mirrors: the foreground reflected about a divider line drawn across the grid.

`layers`' ``mirrorfill`` reflects the whole grid about its centre and `symmetrize` fits a centre
from the figure's own matching cells. Some tasks draw the axis instead: one row (or column) filled
end to end with a single colour other than the background splits the grid, and the picture on one
side is to be reflected onto the other. The divider need not sit at the grid's middle, so a
reflection may run off the grid; its cells there are dropped.

``axismirror(way)`` paints every background cell with the colour of its mirror image about the
divider(s), when that image lies on the grid and is foreground:

* ``h``: about the one divider column (left-right);
* ``v``: about the one divider row (up-down);
* ``hv``: about both, and the half turn about their crossing (four quadrants).

Foreground cells never change. The step does not apply when the grid lacks exactly one divider
of each way it needs, or when nothing would change.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .fulllines import full_lines
from .grid import Array

__all__ = ["FAMILIES", "WAYS", "axis_mirror", "divider_lines"]

WAYS = ("h", "v", "hv")
"""Which dividers reflect: the column (left-right), the row (up-down), or both."""


def divider_lines(a: Array, bg: int) -> tuple[list[int], list[int]]:
    """The rows and the columns that one colour other than ``bg`` fills end to end."""
    rows = np.flatnonzero(full_lines(a, bg, "h")[:, 0]).tolist()
    cols = np.flatnonzero(full_lines(a, bg, "v")[0, :]).tolist()
    return rows, cols


def axis_mirror(a: Array, bg: int, way: str) -> Array | None:
    """``a`` with its background cells painted from their mirror images about its divider(s)."""
    rows, cols = divider_lines(a, bg)
    if ("v" in way and len(rows) != 1) or ("h" in way and len(cols) != 1):
        return None
    h, w = a.shape
    ys, xs = np.nonzero(a != bg)
    # Reflections in a fixed order (left-right, up-down, half turn): where two images land on one
    # background cell, the first one painted keeps it.
    flips = {"h": ((False, True),), "v": ((True, False),), "hv": ((False, True), (True, False), (True, True))}
    out = a.copy()
    for flip_rows, flip_cols in flips[way]:
        ty = 2 * rows[0] - ys if flip_rows else ys
        tx = 2 * cols[0] - xs if flip_cols else xs
        inside = (ty >= 0) & (ty < h) & (tx >= 0) & (tx < w)
        ty, tx, sy, sx = ty[inside], tx[inside], ys[inside], xs[inside]
        free = out[ty, tx] == bg
        out[ty[free], tx[free]] = a[sy[free], sx[free]]
    return None if np.array_equal(out, a) else out


def _axis_mirror(way: str) -> Prim:
    return on_colours(lambda a, bg: axis_mirror(a, bg, way))


FAMILIES: tuple[Family, ...] = (
    Family(
        "axismirror",
        (WAYS,),
        5,
        _axis_mirror,
        "reflect the foreground onto background about a divider row or column drawn across the grid",
        "same",
    ),
)
"""The reflection about drawn divider lines."""
