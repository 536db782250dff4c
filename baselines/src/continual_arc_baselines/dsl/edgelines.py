"""Edge lines: markers facing each other across the grid are joined by a line, the clutter cleared.

A grid carries, on its border, pairs of cells of one colour that face each other (the two ends of
a row, or of a column) among specks of every colour; the task draws the full row or column
between each pair and (often) clears everything else. `links` joins cells by fitted rules and
keeps the rest; `extend` shoots from every cell. Here a colour is a *marker* colour when every
cell of it lies on the border and faces a cell of its colour on the opposite border (a corner
cell needs one such partner, along its row or column), so specks that share the colour inside
the grid disqualify it.

``edgelines(how)`` draws, for every marker colour, the rows and columns its pairs span, over a
grid cleared to background (``clear``) or over the grid as it is (``keep``). No marker colour,
or two colours' lines crossing at one cell, make the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "HOWS", "edgelines"]

HOWS = ("clear", "keep")
"""Whether the lines are drawn on a cleared grid or over the grid as it is."""


def _lines(grid: Array, colour: int) -> tuple[list[int], list[int]] | None:
    """The rows and columns ``colour``'s facing border pairs span, or ``None`` if it is no marker."""
    h, w = grid.shape
    cells = grid == colour
    inner = cells[1:-1, 1:-1]
    if inner.any() or h < 3 or w < 3:
        return None
    rows = [y for y in range(h) if cells[y, 0] and cells[y, w - 1]]
    cols = [x for x in range(w) if cells[0, x] and cells[h - 1, x]]
    paired = np.zeros_like(cells)
    for y in rows:
        paired[y, 0] = paired[y, w - 1] = True
    for x in cols:
        paired[0, x] = paired[h - 1, x] = True
    if (cells & ~paired).any():
        return None  # a border cell of the colour faces none of its own
    return rows, cols


def edgelines(grid: Array, bg: int, how: str) -> Array | None:
    """``grid`` with every marker colour's facing pairs joined by full lines (see module)."""
    drawn = np.full(grid.shape, -1, dtype=np.int16)
    for colour in np.unique(grid).tolist():
        if colour == bg:
            continue
        found = _lines(grid, colour)
        if found is None:
            continue
        line = np.zeros(grid.shape, dtype=bool)
        line[found[0], :] = True
        line[:, found[1]] = True
        if ((drawn[line] >= 0) & (drawn[line] != colour)).any():
            return None  # two colours' lines cross: which lies on top is not shown
        drawn[line] = colour
    mine = drawn >= 0
    if not mine.any():
        return None
    out = np.full_like(grid, bg) if how == "clear" else grid.copy()
    out[mine] = drawn[mine].astype(grid.dtype)
    return out


def _edgelines(how: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return edgelines(a, bg_for(a, ctx), how)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "edgelines",
        (HOWS,),
        3,
        _edgelines,
        "join a colour's facing border cells by full lines, on a cleared grid or over it",
        "same",
    ),
)
"""The family of this module: ``edgelines(how)``."""
