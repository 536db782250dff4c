"""Segment spans: every straight bar of two cells or more becomes a whole line across the grid.

A grid strews short bars, each a row or a column of one colour, and asks for each bar carried on
to both edges along its own axis, crossing whatever lies there: a two-cell stub marks the whole
row or column it lies on. Where a row and a column cross, one axis is drawn over the other, so the
step names the order: ``segspan(vh)`` draws the columns (vertical bars) first and the rows over
them, ``segspan(hv)`` the rows first. `painting`'s ``extend`` shoots rays from every foreground
cell (a dot as well as a bar, and along both axes); here only a bar says which way it spans, and a
dot stays a dot.

Bars are single-colour 4-connected objects whose box is one cell thick and two long or more,
with every cell of the box their own. A grid with no bar, or with more than `MAX_BARS` objects,
gives ``None``.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "MAX_BARS", "ORDERS", "segspan"]

MAX_BARS = 40
"""The most objects a grid may hold for ``segspan`` to read it as bars, not a texture."""

ORDERS = ("vh", "hv")
"""Which axis is drawn first: ``vh`` columns then rows (rows win where they cross), ``hv`` the reverse."""


def segspan(a: Array, bg: int, order: str) -> Array | None:
    """``a`` with every bar's row or column painted its colour from edge to edge, in ``order``."""
    objs = objects(a, bg, "4")
    if not 0 < len(objs) <= MAX_BARS:
        return None
    heights, widths = objs.bottoms - objs.tops, objs.rights - objs.lefts
    rows: list[tuple[int, int]] = []
    cols: list[tuple[int, int]] = []
    for i in range(len(objs)):
        if objs.sizes[i] != heights[i] * widths[i]:
            continue
        if heights[i] == 1 and widths[i] >= 2:
            rows.append((int(objs.tops[i]), int(objs.colours[i])))
        elif widths[i] == 1 and heights[i] >= 2:
            cols.append((int(objs.lefts[i]), int(objs.colours[i])))
    if not rows and not cols:
        return None
    out = a.copy()
    for axis in order:
        for place, colour in cols if axis == "v" else rows:
            if axis == "v":
                out[:, place] = colour
            else:
                out[place, :] = colour
    return None if np.array_equal(out, a) else out


def _segspan(order: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return segspan(a, bg_for(a, ctx), order)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("segspan", (ORDERS,), 2, _segspan, "carry every straight bar across the whole grid", "same"),
)
"""The segment-span family."""
