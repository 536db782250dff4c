"""Bands and lines: the colours of a grid's stripes or lines, in order.

`extract`'s ``palette`` lists the foreground colours in order of first appearance. A grid that
is all stripes (ragged bands of colour side by side, no background) asks for every colour, the
commonest too, in the order the bands lie. ``bands`` orders the colours by the mean column of
their cells and answers a row, or by the mean row and answers a column, whichever way the bands
are spread further apart (relative to the grid's side). On most lines across the bands the
colours must come in that order, never stepping back; otherwise the grid has no bands and the
step gives nothing.

``lines`` reads thin lines instead: every colour other than the background whose cells all lie
in one row (or all in one column) is a line, even where something covers most of it; colours
spread over several rows and columns (a block laid over the lines) are not. The lines must all
run one way (a colour of one cell runs either way); the answer is a square with one stripe per
line, in the order the lines lie, running the way they run.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "bands", "lines"]


def bands(a: Array) -> Array | None:
    """The colours of a striped grid in order, as a row or a column (see the module)."""
    colours = [int(c) for c in np.unique(a)]
    if len(colours) < 2:
        return None
    grids = np.indices(a.shape)
    ys, xs = grids[0], grids[1]
    means = np.array([[ys[a == c].mean() / a.shape[0], xs[a == c].mean() / a.shape[1]] for c in colours])
    axis = int(np.ptp(means[:, 1]) > np.ptp(means[:, 0]))
    order = np.argsort(means[:, axis], kind="stable")
    ranked = [colours[i] for i in order]
    # Bands: on most lines across them, the colours met in order never step back a band (ragged
    # edges may mix two neighbours on a few lines).
    rank = np.full(256, -1)
    rank[ranked] = np.arange(len(ranked))
    lines = rank[a] if axis else rank[a].T
    steps_back = np.any(np.diff(lines, axis=1) < 0, axis=1)
    if np.count_nonzero(steps_back) * 2 >= len(lines):
        return None
    row = np.array([ranked], dtype=np.uint8)
    return row if axis else row.T


def lines(a: Array, bg: int) -> Array | None:
    """A square of the grid's lines' colours, one stripe each, in order (see the module)."""
    rows: list[tuple[int, int]] = []  # (row, colour) of lines running across
    cols: list[tuple[int, int]] = []  # (column, colour) of lines running down
    dots: list[tuple[int, int, int]] = []  # (row, column, colour) of one-cell colours
    for colour in range(10):
        if colour == bg:
            continue
        ys, xs = np.nonzero(a == colour)
        if len(ys) == 0:
            continue
        one_row, one_col = bool((ys == ys[0]).all()), bool((xs == xs[0]).all())
        if one_row and one_col:
            dots.append((int(ys[0]), int(xs[0]), colour))
        elif one_row:
            rows.append((int(ys[0]), colour))
        elif one_col:
            cols.append((int(xs[0]), colour))
    if rows and cols:
        return None
    across = bool(rows) or (not cols and a.shape[1] >= a.shape[0])
    found = rows + [(y, c) for y, _, c in dots] if across else cols + [(x, c) for _, x, c in dots]
    places = [p for p, _ in found]
    if len(found) < 2 or len(set(places)) != len(places):
        return None
    order = [c for _, c in sorted(found)]
    square = np.array([order] * len(order), dtype=np.uint8)
    return square.T if across else square


def _lines() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return lines(a, bg_for(a, ctx))

    return prim


def _bands() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return bands(a)

    return prim


FAMILIES = (
    Family(
        "bands", (), 2, _bands, "the colours of a striped grid in the order the stripes lie", shape="shrink"
    ),
    Family(
        "lines", (), 2, _lines, "a square of the thin lines' colours, one stripe each, in order", "shrink"
    ),
)
"""The reading of stripes and lines."""
