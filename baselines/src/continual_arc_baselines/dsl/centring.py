"""Centring pieces: every piece laid over the others, aligned on the centre of its box.

`gathering`'s ``gather`` aligns pieces on a marker cell that each one holds. Many grids scatter
pieces that hold no marker but are each symmetric about their own middle (four corner dots of a
rectangle, a diamond of four dots, a framed square), and ask for them nested about one common
centre: ``centre(piece)`` moves each piece so the centre of its bounding box lands on one cell
(or cell corner), overlays them all, and answers the box of the largest, the rest background.

The pieces are the grid's colour classes (``col``: every cell of one colour is one piece, so four
scattered dots make one piece) or its multicolour objects (``obj``, 8-connected). Every piece's
box must differ from the largest box by an even number of rows and of columns (else the centres
cannot meet on the grid's lattice), and the largest box must be the largest on both sides. Where
two pieces paint one cell they must agree, except that a colour every piece holds (the shared
ground of boxes that differ only in their marks) gives way to any other; any other clash makes
the step not apply, as does a grid of fewer than two pieces.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "PIECES", "centre"]

PIECES = {"col": "c", "obj": "m8"}
"""The ways to cut a grid into pieces, by the name the step writes: to `objects`' modes."""


def centre(a: Array, bg: int, piece: str) -> Array | None:
    """The pieces of ``a`` overlaid on their common centre, in the largest box (see the module)."""
    objs = objects(a, bg, PIECES[piece])
    n = len(objs)
    if n < 2:
        return None
    heights = (objs.bottoms - objs.tops).astype(np.intp)
    widths = (objs.rights - objs.lefts).astype(np.intp)
    h, w = int(heights.max()), int(widths.max())
    if ((h - heights) % 2).any() or ((w - widths) % 2).any():
        return None
    if not ((heights == h) & (widths == w)).any():
        return None  # no one piece is the largest both ways: the frame is nobody's
    # A colour every piece holds is their common ground, overruled by any other colour.
    held = [set(np.unique(a[objs.box(i)][objs.labels[objs.box(i)] == i]).tolist()) for i in range(n)]
    shared = set.intersection(*held)
    ground = min(shared) if len(shared) == 1 else -1
    out = np.full((h, w), bg, dtype=np.uint8)
    painted = np.zeros((h, w), dtype=bool)
    for i in range(n):
        box = objs.box(i)
        mine = objs.labels[box] == i
        top, left = (h - int(heights[i])) // 2, (w - int(widths[i])) // 2
        window = out[top : top + int(heights[i]), left : left + int(widths[i])]
        seen = painted[top : top + int(heights[i]), left : left + int(widths[i])]
        values = a[box]
        for y, x in zip(*np.nonzero(mine), strict=True):
            v = int(values[y, x])
            if seen[y, x] and window[y, x] != v:
                if v == ground:
                    continue  # the shared ground gives way to the mark already there
                if int(window[y, x]) != ground:
                    return None  # two marks clash: the pieces do not nest this way
            window[y, x] = v
            seen[y, x] = True
    return out


def _centre(piece: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return centre(a, bg_for(a, ctx), piece)

    return prim


FAMILIES = (
    Family(
        "centre",
        (tuple(PIECES),),
        3,
        _centre,
        "overlay every piece aligned on the centre of its box, in the largest box",
        shape="shrink",
    ),
)
"""Nesting pieces about one centre."""
