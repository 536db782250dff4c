"""Fitting a shape into a frame: the frame, its inside filled by the shape scaled up to fit.

Some grids hold one rectangle outline of one colour (a frame) and one other shape elsewhere,
and ask for the frame with the shape scaled up by the whole factor that makes it fill the frame's
inside exactly. ``fitin`` finds the frame (the largest one-colour component whose cells are
exactly its box's border, at least 3 x 3, the only one that large) and crops the other
foreground cells to their box; the inside's height and width must be the same multiple of it.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "fit_in"]


def fit_in(a: Array, bg: int) -> Array | None:
    """The frame of ``a`` with the rest of its foreground scaled to fill it (see the module)."""
    objs = objects(a, bg, "8")
    best, area, tied = -1, 0, False
    for i in range(len(objs)):
        h = int(objs.bottoms[i] - objs.tops[i])
        w = int(objs.rights[i] - objs.lefts[i])
        if h < 3 or w < 3 or objs.sizes[i] != 2 * (h + w) - 4:
            continue
        box = objs.labels[objs.box(i)] == i
        if box[1:-1, 1:-1].any():
            continue
        if h * w > area:
            best, area, tied = i, h * w, False
        elif h * w == area:
            tied = True
    if best < 0 or tied:
        return None
    rest = (a != bg) & (objs.labels != best)
    ys, xs = np.nonzero(rest)
    if len(ys) == 0:
        return None
    shape = np.where(rest, a, np.uint8(bg))[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    frame = a[objs.box(best)].copy()
    inner_h, inner_w = frame.shape[0] - 2, frame.shape[1] - 2
    sh, sw = shape.shape
    if inner_h % sh or inner_w % sw or inner_h // sh != inner_w // sw:
        return None
    k = inner_h // sh
    frame[1:-1, 1:-1] = np.repeat(np.repeat(shape, k, axis=0), k, axis=1)
    return frame


def _fitin() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return fit_in(a, bg_for(a, ctx))

    return prim


FAMILIES = (
    Family(
        "fitin", (), 3, _fitin, "the one frame, the other shape scaled up to fill its inside", shape="shrink"
    ),
)
"""Fitting a shape into a frame."""
