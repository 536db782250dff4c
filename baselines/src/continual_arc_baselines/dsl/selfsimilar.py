"""Self-similar placing in place: a small pattern copied into the blocks its own cells pick.

A grid of ``k*k`` by ``m*m`` cells cut into ``k`` x ``m`` blocks holds its whole foreground inside
one block: the pattern. The answer keeps the grid's size and puts a copy of the pattern in block
``(i, j)`` wherever the pattern's own cell ``(i, j)`` is foreground (``selfplace(fg)``) or
background (``selfplace(bg)``); every other block is background. It is the fractal tiling of
`sizing` (``kself``) drawn on the canvas the pattern already sits in, so no crop and no resize is
needed and the block the pattern came from is judged like any other.

The step does not apply when the grid's sides are not squares of a block side from 2 to 5, when
the foreground is empty, or when it spans more than one block.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array

__all__ = ["FAMILIES", "WHERE", "selfplace"]

WHERE = ("fg", "bg")
"""Which cells of the pattern get a copy: its foreground ones, or its background ones."""

_SIDES = (2, 3, 4, 5)
"""The block sides tried: a grid side must be a block side squared (4, 9, 16, 25)."""


def _side(n: int) -> int | None:
    """The block side whose square is ``n``, if it is one of `_SIDES`."""
    return next((k for k in _SIDES if k * k == n), None)


def selfplace(a: Array, bg: int, where: str) -> Array | None:
    """``a``'s one-block pattern copied into every block its own cells pick (see the module)."""
    bh, bw = _side(a.shape[0]), _side(a.shape[1])
    if bh is None or bw is None:
        return None
    ys, xs = np.nonzero(a != bg)
    if not len(ys):
        return None
    by, bx = int(ys.min()) // bh, int(xs.min()) // bw
    if int(ys.max()) // bh != by or int(xs.max()) // bw != bx:
        return None  # the foreground spans two blocks: no one pattern
    pattern = a[by * bh : (by + 1) * bh, bx * bw : (bx + 1) * bw]
    picked = (pattern != bg) if where == "fg" else (pattern == bg)
    out = np.full_like(a, bg)
    for i, j in zip(*np.nonzero(picked), strict=True):
        out[i * bh : (i + 1) * bh, j * bw : (j + 1) * bw] = pattern
    return out


def _selfplace(where: str) -> Prim:
    return on_colours(lambda a, bg: selfplace(a, bg, where))


FAMILIES: tuple[Family, ...] = (
    Family(
        "selfplace",
        (WHERE,),
        3,
        _selfplace,
        "copy the one-block pattern into the blocks its own cells pick, in place",
        "same",
    ),
)
"""The family of this module: ``selfplace(where)``."""
