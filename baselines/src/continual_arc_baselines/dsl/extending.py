"""Extending a periodic pattern: the foreground's box repeats on along the rows or the columns.

A task that starts a frieze (``1221221`` at the left of a long row) and asks for it carried on to
the grid's edge shows only the start: the cells past it are background, not holes of their own
colour, so ``tilefill`` and ``continue`` (which grow the grid) do not see it. Here the *known*
block is the bounding box of the foreground, background inside it included; its smallest period
along the chosen axis (``x``: columns, ``y``: rows) is the least shift under which the block
agrees with itself where it overlaps, and every cell of the box's rows (or columns) outside the box
takes the colour of the block's cell one whole number of periods away. ``xy`` extends along the
rows, then along the columns of the result, tiling the grid (either may find no period). A block
with no period shorter than itself gives ``None``.

``linetile(axes)`` reads each line on its own: a row's (or column's) longest run of foreground, two
cells or more, holds one period of a sequence, repeated along the whole line where the line's other
cells agree with it (a cross whose arms carry on their colour sequence to the edges).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, Mask, bg_for

__all__ = ["AXES", "EXTEND_COST", "FAMILIES", "extend", "tile_lines"]

AXES = ("x", "y", "xy")
"""Along which axes a pattern may be extended."""

EXTEND_COST = 3
"""The cost of an extension: one fitted period per grid."""


def _period(block: Array) -> int:
    """The least column shift under which ``block`` agrees with itself, or its width if none."""
    w = block.shape[1]
    for p in range(1, w):
        if np.array_equal(block[:, p:], block[:, :-p]):
            return p
    return int(w)


def _along_x(a: Array, bg: int) -> Array | None:
    rows, cols = np.nonzero(a != bg)
    if rows.size == 0:
        return None
    top, bottom, left, right = int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())
    block = a[top : bottom + 1, left : right + 1]
    p = _period(block)
    if p == block.shape[1]:
        return None
    out = a.copy()
    # Column x of the grid repeats block column (x - left) mod p, on either side of the box.
    source = (np.arange(a.shape[1]) - left) % p
    out[top : bottom + 1] = block[:, source]
    if np.array_equal(out, a):
        return None
    return out


def extend(a: Array, bg: int, axes: str) -> Array | None:
    """``a`` with its foreground's box extended periodically along ``axes``, or ``None``."""
    if axes == "x":
        return _along_x(a, bg)
    if axes == "y":
        done = _along_x(a.T, bg)
        return None if done is None else np.ascontiguousarray(done.T)
    # Either axis may have no period (a task's grids may run one way or the other).
    done = _along_x(a, bg)
    rows = a if done is None else done
    both = _along_x(np.ascontiguousarray(rows.T), bg)
    return done if both is None else np.ascontiguousarray(both.T)


def _longest_run(fg: Mask) -> tuple[int, int] | None:
    """The start and length of the one longest run of ``True`` in ``fg`` (``None``: none, or a tie)."""
    edges = np.diff(np.concatenate(([0], fg.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    if starts.size == 0:
        return None
    lengths = ends - starts
    best = int(lengths.max())
    if int((lengths == best).sum()) > 1:
        return None
    return int(starts[int(np.argmax(lengths))]), best


def _row_tiles(a: Array, bg: int) -> npt.NDArray[np.int16]:
    """Per cell, the colour its row's sequence tiles onto it, or -1 (no sequence, or drawn already)."""
    h, w = a.shape
    paint = np.full((h, w), -1, dtype=np.int16)
    for y in range(h):
        fg = a[y] != bg
        run = _longest_run(fg)
        # A run of one cell is a dot, not a sequence.
        if run is None or run[1] < 2:
            continue
        start, length = run
        tiled = a[y, start + (np.arange(w) - start) % length]
        # The row's other cells (where an arm crosses it) must already agree with the sequence.
        if np.any(fg & (tiled != a[y])):
            continue
        paint[y] = np.where(fg, -1, tiled)
    return paint


def tile_lines(a: Array, bg: int, axes: str) -> Array | None:
    """``a`` with each row's (column's) one segment repeated along it, or ``None``.

    A row's one longest run of foreground, two cells or more, is taken for one period of a
    sequence and tiled over the whole row, the run staying where it is, if the row's other
    foreground cells agree with it; rows and columns painting one cell two ways make the step
    not apply.
    """
    paints = []
    if "h" in axes:
        paints.append(_row_tiles(a, bg))
    if "v" in axes:
        paints.append(np.ascontiguousarray(_row_tiles(np.ascontiguousarray(a.T), bg).T))
    paint = paints[0]
    if len(paints) == 2:
        other = paints[1]
        if np.any((paint >= 0) & (other >= 0) & (paint != other)):
            return None
        paint = np.where(paint >= 0, paint, other)
    out = np.where((paint >= 0) & (a == bg), paint, a).astype(a.dtype)
    if np.array_equal(out, a):
        return None
    return out


def _tile_lines(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return tile_lines(a, bg_for(a, ctx), axes)

    return prim


def _extend(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return extend(a, bg_for(a, ctx), axes)

    return prim


FAMILIES = (
    Family(
        "periodic",
        (AXES,),
        EXTEND_COST,
        _extend,
        "carry the foreground's periodic block on to the grid's edges along rows, columns or both",
        "same",
    ),
    Family(
        "linetile",
        (("h", "v", "hv"),),
        EXTEND_COST,
        _tile_lines,
        "repeat each row's (column's) longest segment along it",
        "same",
    ),
)
"""The periodic-extension families."""
