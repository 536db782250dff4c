"""A rectangle hidden in noise: the block of one colour that stands out of a speckled grid.

Some tasks strew every cell with random colours and hide one large block of a single colour among
them, itself sprinkled with a few specks; the answer is that block, cropped (often then worked on:
lines through its specks). Object steps cannot see it, because the noise of its colour touches it
and joins its object. ``densebox`` finds it in two moves:

1. the largest rectangle all of one colour (any colour; the first colour wins a tie of areas), which
   the specks may cut short of the block;
2. grown one side at a time while the next row or column along that side is at least three
   quarters that colour: the block's own rows, specks and all, pass; rows of noise do not.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, Array, Context, Mask

__all__ = ["FAMILIES", "MIN_SIDE", "SHARE", "dense_box", "largest_solid"]

SHARE = 0.75
"""How much of a row or column along a side must have the block's colour for the block to take it."""

MIN_SIDE = 2
"""The smallest side of a solid rectangle worth growing: a single line of one colour is no block."""

Box = tuple[int, int, int, int]
"""A rectangle as (top, bottom, left, right), bottom and right exclusive."""

_CACHE: dict[tuple[bytes, tuple[int, ...]], Box | None] = {}
_CACHE_LIMIT = 4096
"""The search asks for the same grids' boxes over and over; the answers are kept, a bounded few."""


def _largest_in(cells: Mask) -> tuple[int, Box]:
    """The largest all-true rectangle of a boolean grid (the first found in reading order on a tie)."""
    h, w = cells.shape
    heights = np.zeros(w, dtype=np.intp)
    best: tuple[int, Box] = (0, (0, 0, 0, 0))
    for y in range(h):
        heights = np.where(cells[y], heights + 1, 0)
        stack: list[int] = []  # columns whose heights rise, left to right
        row = heights.tolist()
        for x in range(w + 1):
            height = row[x] if x < w else 0
            while stack and row[stack[-1]] >= height:
                top = row[stack.pop()]
                left = stack[-1] + 1 if stack else 0
                area = top * (x - left)
                if area > best[0] and top >= MIN_SIDE and x - left >= MIN_SIDE:
                    best = (area, (y + 1 - top, y + 1, left, x))
            stack.append(x)
    return best


def largest_solid(a: Array) -> tuple[int, Box] | None:
    """The colour and box of the largest rectangle all of one colour (``None``: none of 2 x 2)."""
    best: tuple[int, int, Box] | None = None
    for colour in np.flatnonzero(np.bincount(a.ravel(), minlength=SENTINEL)).tolist():
        area, box = _largest_in(a == colour)
        if area and (best is None or area > best[0]):
            best = (area, int(colour), box)
    return None if best is None else (best[1], best[2])


def dense_box(a: Array) -> Box | None:
    """The box of the block hidden in noise: the largest solid rectangle, grown over its specks."""
    key = (a.tobytes(), a.shape)
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = _dense_box(a)
    return _CACHE[key]


def _dense_box(a: Array) -> Box | None:
    found = largest_solid(a)
    if found is None:
        return None
    colour, (t, b, left, right) = found
    h, w = a.shape
    grown = True
    while grown:
        grown = False
        if t > 0 and np.mean(a[t - 1, left:right] == colour) >= SHARE:
            t, grown = t - 1, True
        if b < h and np.mean(a[b, left:right] == colour) >= SHARE:
            b, grown = b + 1, True
        if left > 0 and np.mean(a[t:b, left - 1] == colour) >= SHARE:
            left, grown = left - 1, True
        if right < w and np.mean(a[t:b, right] == colour) >= SHARE:
            right, grown = right + 1, True
    if (b - t, right - left) == (h, w):
        return None  # the whole grid is no hidden block
    return t, b, left, right


def _densebox() -> Prim:
    def run(a: Array, ctx: Context) -> Array | None:
        box = dense_box(a)
        if box is None:
            return None
        t, b, left, right = box
        return a[t:b, left:right].copy()

    return run


FAMILIES: tuple[Family, ...] = (
    Family("densebox", (), 2, _densebox, "crop the block of one colour hidden in noise", shape="shrink"),
)
"""The families of this module."""
