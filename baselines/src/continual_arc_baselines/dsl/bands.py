"""Bands: the colours of a grid laid out in stripes, in order, one cell each.

`extract`'s ``palette`` lists the foreground colours in order of first appearance. A grid that
is all stripes (ragged bands of colour side by side, no background) asks for every colour, the
commonest too, in the order the bands lie. ``bands`` orders the colours by the mean column of
their cells and answers a row, or by the mean row and answers a column, whichever way the bands
are spread further apart (relative to the grid's side). On most lines across the bands the
colours must come in that order, never stepping back; otherwise the grid has no bands and the
step gives nothing.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES", "bands"]


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


def _bands() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return bands(a)

    return prim


FAMILIES = (
    Family(
        "bands", (), 2, _bands, "the colours of a striped grid in the order the stripes lie", shape="shrink"
    ),
)
"""The reading of stripes."""
