"""Whole rows and columns judged as one: lines of one colour, the middle line, walls, bands.

``uniform`` labels the lines of a single colour; ``centre`` keeps only the middle line;
``nearer`` paints every foreground cell between two walls (opposite border lines, each of one
colour) in the colour of the nearer wall, leaving a cell midway as it is; ``spread`` repeats the
band of rows that hold foreground (else of columns) over the whole grid, in phase. A task
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


def _walls(b: Array, bg: int) -> bool:
    """Whether the first and last rows of ``b`` are each of one colour, neither the background."""
    return all(bool(np.all(line == line[0])) and int(line[0]) != bg for line in (b[0], b[-1]))


def _nearer() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        # The walls are the first and last rows, else the first and last columns.
        b = a if a.shape[0] > 2 and _walls(a, bg) else a.T
        if b.shape[0] < 3 or not _walls(b, bg):
            return None
        n = b.shape[0]
        rows = np.arange(n)[:, None]
        inside = (b != bg) & (rows > 0) & (rows < n - 1)
        near = np.where(rows < n - 1 - rows, b[0][None, :], b[-1][None, :])
        out = np.where(inside & (2 * rows != n - 1), near, b).astype(np.uint8)
        return None if np.array_equal(out, b) else np.ascontiguousarray(out if b is a else out.T)

    return prim


def _spread() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        fg = a != bg_for(a, ctx)
        for b, lines in ((a, fg.any(axis=1)), (a.T, fg.any(axis=0))):
            hit = np.flatnonzero(lines)
            if len(hit) and (hit[0] > 0 or hit[-1] < len(lines) - 1):
                first, period = int(hit[0]), int(hit[-1] - hit[0] + 1)
                out = b[first + (np.arange(len(lines)) - first) % period]
                return np.ascontiguousarray(out if b is a else out.T)
        return None

    return prim


FAMILIES = (
    # A rule over whole lines is rarer than a cell-wise or an object-wise one: priced as the object ops.
    Family("centre", (("h", "v"),), 3, _centre, "keep only the middle row (or column)", "same"),
    Family("nearer", (), 3, _nearer, "paint each cell between two walls in the nearer wall's colour", "same"),
    Family("spread", (), 3, _spread, "repeat the band of foreground rows (or columns) over the grid", "same"),
    Family("uniform", (("h", "v"),), 3, _uniform, "label the rows (or columns) of a single colour", "same"),
)
