"""Cornering: every object grows into a solid block reaching the grid's nearest corner.

A grid holds a few objects (often single cells), and each one fills, in its colour, the rectangle
that spans its own box and the grid corner nearest to it: a dot near the bottom left becomes the
block from it to that corner. ``tocorner`` does that for every multicolour 8-connected object, in
reading order (a later block is painted over an earlier one). Which corner is nearest is judged on
each axis apart: the side of the grid its box lies nearer to. A box exactly midway on either axis
makes the corner a guess, and the step does not apply; nor does it to a grid of more than
`MAX_OBJECTS` objects.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "MAX_OBJECTS", "to_corner"]

MAX_OBJECTS = 12
"""The most objects ``tocorner`` grows; past a few the blocks would only bury each other."""


def to_corner(a: Array, bg: int) -> Array | None:
    """``a`` with every object's box grown, in its colour, to the nearest corner of the grid."""
    objs = objects(a, bg, "m8")
    if not 0 < len(objs) <= MAX_OBJECTS:
        return None
    h, w = a.shape
    out = a.copy()
    for i in range(len(objs)):
        top, left, bottom, right = (int(v[i]) for v in (objs.tops, objs.lefts, objs.bottoms, objs.rights))
        above, below, before, after = top, h - bottom, left, w - right
        if above == below or before == after:
            return None  # midway: no corner is the nearest
        ys = slice(0, bottom) if above < below else slice(top, h)
        xs = slice(0, right) if before < after else slice(left, w)
        out[ys, xs] = objs.colours[i]
    return None if np.array_equal(out, a) else out


def _to_corner() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return to_corner(a, bg_for(a, ctx))

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("tocorner", (), 2, _to_corner, "grow every object into a block to its nearest corner", "same"),
)
"""The cornering family."""
