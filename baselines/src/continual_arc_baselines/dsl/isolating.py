"""Isolating: the one cell whose colour occurs nowhere else is kept, ringed, and all else erased.

A grid strewn with specks of many colours, each colour seen several times but one seen exactly
once: the task asks for that odd cell alone, marked by a ring of one colour around it. Object
steps choose by size, place or shape (`objects.CHOOSERS`), and a one-cell colour class is no
smaller than the other one-cell specks, so none of them singles it out; `halo` rings cells by
their literal colour, which the test input draws afresh.

``lone(ring)`` finds the foreground colours that occur in exactly one cell; when there is exactly
one such colour it answers a grid of background holding that cell and, on its eight neighbours,
the colour ``ring`` (a literal, cut off at the grid's border). Any other count of such colours
makes the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for, colour_counts

__all__ = ["FAMILIES", "lone"]


def lone(grid: Array, bg: int, ring: int) -> Array | None:
    """A background grid holding only ``grid``'s one cell of a once-seen colour, ringed in ``ring``."""
    counts = colour_counts(grid)
    once = [c for c in range(len(counts)) if counts[c] == 1 and c != bg]
    if len(once) != 1:
        return None
    ys, xs = np.nonzero(grid == once[0])
    y, x = int(ys[0]), int(xs[0])
    out = np.full_like(grid, bg)
    out[max(y - 1, 0) : y + 2, max(x - 1, 0) : x + 2] = ring
    out[y, x] = once[0]
    return out


def _lone(ring: str) -> Prim:
    colour = int(ring)

    def prim(a: Array, ctx: Context) -> Array | None:
        return lone(a, bg_for(a, ctx), colour)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "lone",
        (tuple(str(c) for c in range(10)),),
        3,
        _lone,
        "keep only the cell of the once-seen colour, ringed in a colour",
        "same",
    ),
)
"""The family of this module: ``lone(ring)``."""
