"""Shearing: a grid slanted, each row (or column) pushed one cell further along than the last.

Some tasks lean a picture over: its bottom row stays at the left and each row above it starts
one cell further right, so an ``h x w`` grid becomes ``h x (w + h - 1)``, the corners it opens
left blank (colour 0). ``shear(how)`` does it four ways (`HOWS`): rows leaning right at the top
(``r``, the top row pushed furthest right) or at the bottom (``l``), columns leaning down at the
left (``d``, the left column pushed furthest down) or at the right (``u``). Rows need two rows
to lean at all (columns two columns), else the step does not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES", "HOWS", "shear"]

HOWS = ("r", "l", "d", "u")
"""Which way the grid leans: rows (top right, bottom right), then columns (left down, right down)."""


def shear(a: Array, how: str) -> Array | None:
    """``a`` slanted one cell a line, the opened corners 0 (see the module)."""
    if how in ("d", "u"):
        turned = shear(a.T, "r" if how == "d" else "l")
        return None if turned is None else turned.T
    h, w = a.shape
    if h < 2:
        return None
    out = np.zeros((h, w + h - 1), dtype=np.uint8)
    for y in range(h):
        shift = h - 1 - y if how == "r" else y
        out[y, shift : shift + w] = a[y]
    return out


def _shear(how: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return shear(a, how)

    return prim


FAMILIES = (Family("shear", (HOWS,), 2, _shear, "slant the grid one cell a line", shape="grow"),)
"""Slanting a grid."""
