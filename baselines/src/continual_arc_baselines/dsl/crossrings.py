"""Crossing rings: where a band across the grid crosses a band down it, a ring marks the crossing.

A *band* is a run of whole rows (or whole columns) holding no background cell: a line, one or
more cells thick, drawn clear across the grid. Where a run of rows crosses a run of columns, the
box they share is the crossing; ``crossring`` draws a one-cell ring of the label `TRUE` just
around that box (on the bands' cells and the background alike, cut at the border), and leaves
the box itself as it is; a fitted colour map names the ring's colour. Every crossing is ringed.

It is the crossing marked rather than the lines: `halo` rings every cell of a colour, and
`crossing` joins pairs of cells. The step does not apply when the grid has no row band or no
column band, or when every row or every column is a band (no background at all).
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import TRUE, Array
from .parts import runs

__all__ = ["FAMILIES", "crossring"]


def crossring(a: Array, bg: int, colour: int = TRUE) -> Array | None:
    """``a`` with a ring of ``colour`` around every crossing of a row band and a column band."""
    open_rows = (a == bg).any(axis=1)
    open_cols = (a == bg).any(axis=0)
    if open_rows.all() or open_cols.all() or not open_rows.any() or not open_cols.any():
        return None
    h, w = a.shape
    out = a.copy()
    for top, bottom in runs(open_rows):
        for left, right in runs(open_cols):
            y0, y1, x0, x1 = max(top - 1, 0), min(bottom + 1, h), max(left - 1, 0), min(right + 1, w)
            ring = np.zeros((h, w), dtype=bool)
            ring[y0:y1, x0:x1] = True
            ring[top:bottom, left:right] = False
            out[ring] = colour
    return out


def _crossring() -> Prim:
    return on_colours(crossring)


FAMILIES: tuple[Family, ...] = (
    Family(
        "crossring",
        (),
        3,
        _crossring,
        "label a ring around every crossing of a row band and a column band",
        "same",
    ),
)
"""The family of this module: ``crossring``."""
