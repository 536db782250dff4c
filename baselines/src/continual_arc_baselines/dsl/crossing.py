"""Crossing joins: pairs of same-coloured cells joined along rows and columns, one axis on top.

Two cells of one colour on a row (or a column) with only background between them are joined
by a line of their colour; the fixed ``connect(hv)`` does this, but it paints the rows first
and keeps the first colour a cell gets, so where a vertical and a horizontal join cross the
horizontal one wins. Tasks draw such crossings with one axis consistently over the other.

``overjoin(top)`` joins every pair along both axes, reading the rays from the input (so one
line does not stop another), and where a row join crosses a column join the ``top`` axis's
colour (``v`` columns, ``h`` rows) is kept. It returns ``None`` when no two joins cross: only
then does it differ from ``connect``, so it may cost less than that without pre-empting it.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, Array, Context, bg_for
from .rays import ray

__all__ = ["FAMILIES", "OVERJOIN_COST"]

OVERJOIN_COST = 1.5
"""The cost of an ``overjoin`` step: below ``connect`` (2) and the fixed steps that mimic a
crossing by chance, since it applies only where joins cross."""

_AXES = {"h": ("left", "right"), "v": ("up", "down")}


def _joins(a: Array, bg: int, axis: str) -> Array:
    """Per cell, the colour of the join along ``axis`` through it, or -1 where there is none."""
    one, other = _AXES[axis]
    r1, r2 = ray(a, bg, one), ray(a, bg, other)
    return np.where((a == bg) & (r1 >= 0) & (r1 == r2), r1, -1)


def _overjoin(top: str) -> Prim:
    under = "h" if top == "v" else "v"

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        bg = bg_for(a, ctx)
        upper, lower = _joins(a, bg, top), _joins(a, bg, under)
        # Without a crossing this is `connect`'s work (and, being cheaper, would pre-empt it).
        if not np.any((upper >= 0) & (lower >= 0)):
            return None
        line = np.where(upper >= 0, upper, lower)
        return np.where(line >= 0, line, a).astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "overjoin",
        (("v", "h"),),
        OVERJOIN_COST,
        _overjoin,
        "join same-coloured cells along rows and columns, one axis drawn over the other",
        "same",
    ),
)
"""The crossing-join family (``next`` only)."""
