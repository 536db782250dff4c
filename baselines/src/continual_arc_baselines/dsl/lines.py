"""Whole rows and columns judged as one: the lines of a single colour, the middle line.

``uniform`` labels the lines of a single colour; ``centre`` keeps only the middle line. A task
that marks the rows drawn in one colour (and blanks the rest), or that keeps the middle column,
asks for a property of a line, not of a cell or an object; no cell-wise rule and no object cut
sees it.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import FALSE, TRUE, Array, Context, bg_for

__all__ = ["FAMILIES"]


def _uniform(axis: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        b = a if axis == "h" else a.T
        flat = np.all(b == b[:, :1], axis=1)
        if flat.all() or not flat.any():
            return None  # every line, or none: nothing told apart
        out = np.where(flat[:, None], np.uint8(TRUE), np.uint8(FALSE)) * np.ones_like(b)
        return np.ascontiguousarray(out if axis == "h" else out.T).astype(np.uint8)

    return prim


def _centre(axis: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        b = a if axis == "h" else a.T
        if b.shape[0] % 2 == 0 or b.shape[0] < 3:
            return None
        out = np.full_like(b, bg_for(a, ctx))
        middle = b.shape[0] // 2
        out[middle] = b[middle]
        return None if np.array_equal(out, b) else np.ascontiguousarray(out if axis == "h" else out.T)

    return prim


FAMILIES = (
    Family("centre", (("h", "v"),), 2, _centre, "keep only the middle row (or column)", "same"),
    Family("uniform", (("h", "v"),), 2, _uniform, "label the rows (or columns) of a single colour", "same"),
)
