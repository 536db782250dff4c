"""Masking a pattern by a shape drawn at a larger scale.

Some grids hold a small pattern of many colours and, elsewhere, one large shape of one colour
drawn in solid blocks (each cell of the shape an n x n block). The answer is the pattern seen
through the shape: its cells where the shape, scaled down to the pattern's size, is set, the
background elsewhere. ``masked`` takes the pattern as the multicolour object (8-connected) with
the most colours, the only one with that many and at least three; the shape is the box of every
other foreground cell, which must cut into the pattern's rows and columns in equal blocks, each
all shape or all background.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "masked"]


def masked(a: Array, bg: int) -> Array | None:
    """The pattern of ``a`` where its large shape, scaled down, is set (see the module)."""
    objs = objects(a, bg, "m8")
    if len(objs) < 2:
        return None
    colours = objs.ncolours
    top = int(colours.max())
    if top < 3 or int(np.count_nonzero(colours == top)) != 1:
        return None
    p = int(np.argmax(colours))
    pattern = a[objs.box(p)]
    rest = (a != bg) & (objs.labels != p)
    ys, xs = np.nonzero(rest)
    if len(ys) == 0:
        return None
    shape = rest[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    (ph, pw), (sh, sw) = pattern.shape, shape.shape
    if sh % ph or sw % pw or sh == ph:
        return None
    ky, kx = sh // ph, sw // pw
    blocks = shape.reshape(ph, ky, pw, kx).transpose(0, 2, 1, 3).reshape(ph, pw, -1)
    full, empty = blocks.all(axis=2), ~blocks.any(axis=2)
    if not (full | empty).all():
        return None
    return np.where(full, pattern, np.uint8(bg)).astype(np.uint8)


def _masked() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return masked(a, bg_for(a, ctx))

    return prim


FAMILIES = (
    Family(
        "masked",
        (),
        3,
        _masked,
        "the many-coloured pattern where the large blocky shape, scaled down to it, is set",
        shape="shrink",
    ),
)
"""Masking a pattern by a scaled shape."""
