"""Half bars: of each bar standing on a side of the grid, the half nearer that side.

A *bar* is a one-colour object one cell thick, straight, that touches exactly one side of the
grid with an end (a column standing on the bottom, a row reaching in from the left). Tasks recolour
the half of each bar nearer its side, whatever side that is: Re-ARC stands the bars on the bottom
in one pair and hangs them from the top or the left in the next, so the side is read from each
bar. ``halfbar`` labels `TRUE` the ``n // 2`` cells of each bar of ``n`` cells nearest its side
(a colour map paints them); no bar, or no bar of two cells or more, makes the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, TRUE, Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "half_bars"]


def half_bars(a: Array, bg: int) -> Array | None:
    """``a`` with the half of each bar nearer the side it stands on labelled `TRUE` (see module)."""
    if int(a.max()) >= SENTINEL:
        return None
    h, w = a.shape
    objs = objects(a, bg, "4")
    out = a.copy()
    for i in range(len(objs.sizes)):
        top, left, bottom, right = (int(v[i]) for v in (objs.tops, objs.lefts, objs.bottoms, objs.rights))
        size = int(objs.sizes[i])
        tall, wide = bottom - top, right - left
        if size < 2 or min(tall, wide) != 1 or max(tall, wide) != size:
            continue  # not a straight bar one cell thick
        # Along the bar: its first and last index, the grid's extent that way, and its line.
        vertical = wide == 1
        lo, hi, extent, line = (top, bottom, h, left) if vertical else (left, right, w, top)
        ends = (lo == 0, hi == extent)
        if ends.count(True) != 1:
            continue
        half = size // 2
        span = slice(lo, lo + half) if ends[0] else slice(hi - half, hi)
        (out if vertical else out.T)[span, line] = TRUE
    return None if np.array_equal(out, a) else out


def _halfbar() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return half_bars(a, bg_for(a, ctx))

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("halfbar", (), 2, _halfbar, "label the half of each bar nearer the side it stands on", "same"),
)
"""The family of this module: ``halfbar``."""
