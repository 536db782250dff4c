"""Band lines: each speck in a band of colour draws a line straight across its band.

A grid cut into *bands*: runs of whole rows (or whole columns) that share one commonest colour,
the band's colour, holding more than half of each line. A *speck* is a cell of a band not in its
colour. ``bandline`` draws every speck's colour along its column (for row bands; along its row
for column bands) from one side of its band to the other, and stops at the band's edge: holes
punched through stripes, or seeds that colour a lane of their own stripe only.

The bands are read along the one axis that cuts the grid into two or more; the step does not
apply when both axes or neither do, or when two specks of different colours share a lane.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import SENTINEL, Array

__all__ = ["FAMILIES", "bandline", "bands_of"]


def bands_of(g: Array) -> list[tuple[int, int, int]] | None:
    """``g``'s row bands as (start, stop, colour), or ``None`` unless there are two or more."""
    modes = []
    for row in g:
        counts = np.bincount(row, minlength=SENTINEL)
        mode = int(counts.argmax())
        if 2 * int(counts[mode]) <= g.shape[1]:
            return None  # a line no colour holds the most of: not a band
        modes.append(mode)
    found, start = [], 0
    for i in range(1, len(modes) + 1):
        if i == len(modes) or modes[i] != modes[start]:
            found.append((start, i, modes[start]))
            start = i
    return found if len(found) >= 2 else None


def _drawn(g: Array, bands: list[tuple[int, int, int]]) -> Array | None:
    out = g.copy()
    for start, stop, colour in bands:
        band = g[start:stop]
        for x in np.nonzero((band != colour).any(axis=0))[0].tolist():
            specks = np.unique(band[:, x][band[:, x] != colour])
            if len(specks) > 1:
                return None
            out[start:stop, x] = specks[0]
    return out


def bandline(a: Array) -> Array | None:
    """``a`` with each speck drawn across its band (see the module), or ``None``."""
    rows, cols = bands_of(a), bands_of(a.T)
    if rows is not None and cols is None:
        return _drawn(a, rows)
    if cols is not None and rows is None:
        drawn = _drawn(a.T, cols)
        return None if drawn is None else drawn.T.copy()
    return None


def _bandline() -> Prim:
    return on_colours(lambda a, bg: bandline(a))


FAMILIES: tuple[Family, ...] = (
    Family("bandline", (), 3, _bandline, "draw each speck across its band of colour", "same"),
)
"""The family of this module: ``bandline``."""
