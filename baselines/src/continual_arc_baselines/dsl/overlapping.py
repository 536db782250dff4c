"""Folding a grid onto itself: its halves or quarters laid over each other, the middle line kept or not.

`combining`'s ``overlay`` lays the halves of a split grid over each other, and drops an odd
middle line only when it is uniform (a separator). Some grids fold about a middle line that
carries content, which then belongs to both halves (``s``, shared), or about a blank gap of any
width that belongs to neither (``d``, dropped: the halves are the outer ``floor(n / 2)`` lines).
``union(how)`` folds across (``h``), down (``v``) or both (``q``, a mode per axis, rows then
columns) and answers the union of the parts' foreground; where two parts paint one cell they must
agree on its colour, else the step does not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "HOWS", "union"]

HOWS = ("hs", "hd", "vs", "vd", "qss", "qsd", "qds", "qdd")
"""How to fold: across, down or both, each axis's middle line shared (``s``) or dropped (``d``)."""


def _halves(a: Array, axis: int, mode: str) -> tuple[Array, Array] | None:
    n = a.shape[axis]
    if n < 2:
        return None
    size = (n + 1) // 2 if mode == "s" else n // 2
    first = a[:size] if axis == 0 else a[:, :size]
    second = a[n - size :] if axis == 0 else a[:, n - size :]
    return first, second


def union(a: Array, bg: int, how: str) -> Array | None:
    """The parts of ``a`` folded as ``how`` says, their foreground united (see the module)."""
    parts = [a]
    across = (1 if how[0] == "h" else 0, how[1])
    folds = ((0, how[1]), (1, how[2])) if how[0] == "q" else (across,)
    for axis, mode in folds:
        cut: list[Array] = []
        for part in parts:
            pair = _halves(part, axis, mode)
            if pair is None:
                return None
            cut.extend(pair)
        parts = cut
    out = np.full(parts[0].shape, bg, dtype=np.uint8)
    for part in parts:
        fg = part != bg
        if ((out != bg) & fg & (out != part)).any():
            return None
        out[fg] = part[fg]
    return out


def _union(how: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return union(a, bg_for(a, ctx), how)

    return prim


FAMILIES = (
    Family(
        "union",
        (HOWS,),
        3,
        _union,
        "the halves or quarters laid over each other, a middle line shared or dropped",
        shape="shrink",
    ),
)
"""Folding a grid onto itself."""
