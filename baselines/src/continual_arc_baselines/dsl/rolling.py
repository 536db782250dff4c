"""Rolling by a marker: an edge line holds one marker cell, and its place says how far to roll.

Some grids keep a ruler along one or two edges: a line of one colour with a single cell of
another. The rest of the grid (the edge lines taken off) is the picture, and the picture is
rolled cyclically, its rows (for a column ruler) or its columns (for a row ruler) moved on by as
many places as the marker sits from the picture's start, what falls off one end coming back at
the other. A marker at the picture's first place leaves it as it is.

``roll{where,dir}`` reads rulers on the edges ``where`` names (`WHERES`: ``l``/``r`` a column on
the left or right, ``t``/``b`` a row at the top or bottom, or one of each) and rolls forward
(``+``: a marker at place ``p`` moves the picture's first row down, or its first column right,
by ``p``) or back (``-``). A ruler's place is counted along the picture only (a corner cell shared with the
other ruler is not part of it). A ruler must be one colour but for exactly one cell of a colour
the ruler shows nowhere else, else the step does not apply: an ordinary edge line is no ruler.
"""

from __future__ import annotations

import numpy as np

from .family import Prim
from .grid import Array, Context
from .offering import offered_fitter

__all__ = ["DIRS", "FITTER", "WHERES", "marker_place", "roll_by_marker"]

WHERES = ("l", "r", "t", "b", "tl", "tr", "bl", "br")
"""Which edges hold rulers: one column, one row, or a row and a column."""

DIRS = ("+", "-")
"""Which way the picture rolls: on by the marker's place, or back by it."""


def marker_place(line: Array) -> int | None:
    """Where the one odd cell of a ruler ``line`` lies; ``None`` when ``line`` is no ruler."""
    if line.size < 3:
        return None  # of two cells, either could be the odd one
    values, counts = np.unique(line, return_counts=True)
    if len(values) != 2 or int(counts.min()) != 1 or int(counts.max()) != line.size - 1:
        return None
    odd = int(values[int(np.argmin(counts))])
    return int(np.flatnonzero(line == odd)[0])


def roll_by_marker(a: Array, where: str, sign: int) -> Array | None:
    """``a`` without its ruler lines, rolled by their markers' places (see the module)."""
    h, w = a.shape
    top = 1 if "t" in where else 0
    bottom = h - 1 if "b" in where else h
    left = 1 if "l" in where else 0
    right = w - 1 if "r" in where else w
    picture = a[top:bottom, left:right]
    if picture.shape[0] < 2 or picture.shape[1] < 2:
        return None
    out = picture
    for side in where:
        ruler = {
            "l": a[top:bottom, 0],
            "r": a[top:bottom, w - 1],
            "t": a[0, left:right],
            "b": a[h - 1, left:right],
        }[side]
        place = marker_place(ruler)
        if place is None:
            return None
        out = np.roll(out, sign * place, axis=0 if side in "lr" else 1)
    return np.ascontiguousarray(out)


def _roll(variant: str) -> Prim:
    where, direction = variant.split(",")
    sign = 1 if direction == "+" else -1

    def prim(a: Array, ctx: Context) -> Array | None:
        return roll_by_marker(a, where, sign)

    return prim


FITTER = offered_fitter("roll", [f"{w},{d}" for w in WHERES for d in DIRS], _roll, 2.5, "shrink")
"""Rolling a picture by the marker on its edge, offered when it answers the demonstrations alone."""
