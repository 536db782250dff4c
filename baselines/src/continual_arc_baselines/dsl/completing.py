"""Completing: each fragment of a template, wherever it lies, grows back into the whole template.

The step is ``complete(turn,conn)``. The *template* is the largest object of the most colours in
the grid (two or more, and no other of them as large; its cells under 4- or 8-connectivity,
whatever their colours). Every other, smaller object is a *fragment* when it fits inside the
template (``turn``: inside one of its turns and reflections) colour for colour, with the rest of
that footprint background, off the grid or already agreeing. A fragment that fits in exactly one
way is painted into the whole template there; a fragment that fits in two ways that paint
differently is ambiguous and the step does not apply to the grid at all (it cannot say which copy
the grid means).

This differs from `stamping`'s ``place(copy|turn)``, which finds copies by one fixed *mark* (a
colour class of the template): here the fragment as it stands is the mark, whatever colours it
happens to keep, so a copy reduced to its body and one coloured stud is still placed, turned the
way the stud says.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import Objects, objects

__all__ = ["COMPLETE_COST", "FAMILIES"]

COMPLETE_COST = 2.5
"""The cost of one completing step: as dear as the other round-one placing steps."""

_MAX_OBJECTS = 48
"""Grids with more objects are not completed: the fragments of one template are few."""
_MAX_CELLS = 49
"""A larger multicolour object is a picture, not a template."""

Pattern = npt.NDArray[np.int16]
"""A template's box: its own cells hold their colours, every other cell -1."""


def _variants(pattern: Pattern, turn: bool) -> list[Pattern]:
    """The pattern and, for ``turn``, its distinct turns and reflections."""
    found: list[Pattern] = []
    for flipped in (pattern, pattern[:, ::-1]) if turn else (pattern,):
        for k in range(4 if turn else 1):
            made = np.ascontiguousarray(np.rot90(flipped, k))
            if not any(m.shape == made.shape and np.array_equal(m, made) for m in found):
                found.append(made)
    return found


def _template(grid: Array, objs: Objects) -> int | None:
    """The largest object of the most colours, when that is two or more, it is alone and small."""
    if len(objs) < 2 or len(objs) > _MAX_OBJECTS:
        return None
    most = int(objs.ncolours.max())
    if most < 2:
        return None
    # A fragment may keep every colour of the template: of those, the template is the largest.
    found = np.flatnonzero(objs.ncolours == most)
    sizes = objs.sizes[found]
    top = np.flatnonzero(sizes == sizes.max())
    if len(top) != 1 or int(sizes[top[0]]) > _MAX_CELLS:
        return None
    return int(found[top[0]])


def _fits(
    grid: Array, bg: int, pattern: Pattern, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]
) -> list[tuple[int, int]]:
    """Each top-left corner where ``pattern`` holds the cells ``ys, xs`` colour for colour, the rest free."""
    h, w = grid.shape
    bh, bw = pattern.shape
    colours = grid[ys, xs]
    found: list[tuple[int, int]] = []
    # The fragment's first cell lands on each template cell of its colour: that fixes the corner.
    py, px = np.nonzero(pattern == colours[0])
    for ay, ax in zip(py.tolist(), px.tolist(), strict=True):
        top, left = int(ys[0]) - ay, int(xs[0]) - ax
        ry, rx = ys - top, xs - left
        if ry.min() < 0 or rx.min() < 0 or ry.max() >= bh or rx.max() >= bw:
            continue
        if not np.all(pattern[ry, rx] == colours):
            continue
        # The rest of the footprint, within the grid, is background or already the template's.
        y0, x0 = max(top, 0), max(left, 0)
        y1, x1 = min(top + bh, h), min(left + bw, w)
        part = pattern[y0 - top : y1 - top, x0 - left : x1 - left]
        at = grid[y0:y1, x0:x1]
        if np.all((part < 0) | (at == part) | (at == bg)):
            found.append((top, left))
    return found


def _complete(turn: bool, conn: str) -> Prim:
    mode = "m" + conn

    def prim(grid: Array, ctx: Context) -> Array | None:
        bg = bg_for(grid, ctx)
        objs = objects(grid, bg, mode)
        t = _template(grid, objs)
        if t is None:
            return None
        box = objs.box(t)
        base: Pattern = np.where(objs.labels[box] == t, grid[box].astype(np.int16), np.int16(-1))
        size = int(objs.sizes[t])
        variants = _variants(base, turn)
        h, w = grid.shape
        paint = np.full((h, w), -1, dtype=np.int16)
        placed = 0
        for j in range(len(objs)):
            if j == t or int(objs.sizes[j]) >= size:
                continue
            ys, xs = np.nonzero(objs.labels == j)
            ways: list[npt.NDArray[np.int16]] = []
            for pattern in variants:
                for top, left in _fits(grid, bg, pattern, ys, xs):
                    one = np.full((h, w), -1, dtype=np.int16)
                    bh, bw = pattern.shape
                    y0, x0 = max(top, 0), max(left, 0)
                    y1, x1 = min(top + bh, h), min(left + bw, w)
                    one[y0:y1, x0:x1] = pattern[y0 - top : y1 - top, x0 - left : x1 - left]
                    if not any(np.array_equal(one, seen) for seen in ways):
                        ways.append(one)
            if len(ways) > 1:
                return None  # the fragment fits two copies: the grid does not say which
            if not ways:
                continue
            one = ways[0]
            if np.any((one >= 0) & (paint >= 0) & (one != paint)):
                return None  # two copies paint one cell two ways
            paint = np.where(one >= 0, one, paint)
            placed += 1
        if placed == 0:
            return None
        out = np.where(paint >= 0, paint, grid).astype(np.uint8)
        return None if np.array_equal(out, grid) else out

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "complete",
        (("fixed", "turn"), ("4", "8")),
        COMPLETE_COST,
        lambda turn, conn: _complete(turn == "turn", conn),
        "grow every fragment of the template object back into a whole copy of it",
        "same",
    ),
)
"""The completing families, in search order."""
