"""Extending a periodic pattern: the foreground's box repeats on along the rows or the columns.

A task that starts a frieze (``1221221`` at the left of a long row) and asks for it carried on to
the grid's edge shows only the start: the cells past it are background, not holes of their own
colour, so ``tilefill`` and ``continue`` (which grow the grid) do not see it. Here the *known*
block is the bounding box of the foreground, background inside it included; its smallest period
along the chosen axis (``x``: columns, ``y``: rows) is the least shift under which the block
agrees with itself where it overlaps, and every cell of the box's rows (or columns) outside the box
takes the colour of the block's cell one whole number of periods away. ``xy`` extends along the
rows, then along the columns of the result, tiling the grid. A block with no period shorter than
itself gives ``None``.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["AXES", "EXTEND_COST", "FAMILIES", "extend"]

AXES = ("x", "y", "xy")
"""Along which axes a pattern may be extended."""

EXTEND_COST = 3
"""The cost of an extension: one fitted period per grid."""


def _period(block: Array) -> int:
    """The least column shift under which ``block`` agrees with itself, or its width if none."""
    w = block.shape[1]
    for p in range(1, w):
        if np.array_equal(block[:, p:], block[:, :-p]):
            return p
    return int(w)


def _along_x(a: Array, bg: int) -> Array | None:
    rows, cols = np.nonzero(a != bg)
    if rows.size == 0:
        return None
    top, bottom, left, right = int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())
    block = a[top : bottom + 1, left : right + 1]
    p = _period(block)
    if p == block.shape[1]:
        return None
    out = a.copy()
    # Column x of the grid repeats block column (x - left) mod p, on either side of the box.
    source = (np.arange(a.shape[1]) - left) % p
    out[top : bottom + 1] = block[:, source]
    if np.array_equal(out, a):
        return None
    return out


def extend(a: Array, bg: int, axes: str) -> Array | None:
    """``a`` with its foreground's box extended periodically along ``axes``, or ``None``."""
    if axes == "x":
        return _along_x(a, bg)
    if axes == "y":
        done = _along_x(a.T, bg)
        return None if done is None else np.ascontiguousarray(done.T)
    rows = _along_x(a, bg)
    if rows is None:
        return None
    both = _along_x(rows.T, bg)
    return rows if both is None else np.ascontiguousarray(both.T)


def _extend(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return extend(a, bg_for(a, ctx), axes)

    return prim


FAMILIES = (
    Family(
        "periodic",
        (AXES,),
        EXTEND_COST,
        _extend,
        "carry the foreground's periodic block on to the grid's edges along rows, columns or both",
        "same",
    ),
)
"""The periodic-extension family (``next`` only while it is measured)."""
