"""Marked crossings: a lattice of lines whose crossings are coloured, read as the cells between them.

Some grids draw a lattice, lines of one colour across a ground of another, and colour some of
its crossings. The answer has one cell for each lattice cell among the coloured crossings: the
colour its four corner crossings share, when they are all coloured alike, else the ground.

``crossings{}`` finds the lattice from the rows: the commonest row is a plain one (ground with
the line colour at the line columns; exactly two colours), every other row is a line (the line
colour but at the line columns, where a crossing may be coloured). The answer spans the box of
the coloured crossings, which must cover at least two lines each way; a grid that is no such
lattice gives ``None``.
"""

from __future__ import annotations

import numpy as np

from .family import on_colours
from .grid import Array
from .offering import offered_fitter

__all__ = ["FITTER", "read_crossings"]


def read_crossings(a: Array, bg: int) -> Array | None:
    """The lattice cells between ``a``'s coloured crossings, read by their corners (see the module).

    ``bg`` is not used: the ground is read off the plain rows, and it may be less common than
    the lines.
    """
    rows, counts = np.unique(a, axis=0, return_counts=True)
    plain = rows[int(np.argmax(counts))]
    colours, tally = np.unique(plain, return_counts=True)
    if len(colours) != 2 or np.count_nonzero(counts == counts.max()) != 1:
        return None
    ground = int(colours[int(np.argmax(tally))])
    line = int(colours[int(np.argmin(tally))])
    cols = plain == line
    lines = ~(a == plain).all(axis=1)
    if lines.sum() < 2 or cols.sum() < 2 or not (a[lines][:, ~cols] == line).all():
        return None
    marks = a[lines][:, cols]
    ys, xs = np.nonzero(marks != line)
    if len(ys) == 0 or ys.max() == ys.min() or xs.max() == xs.min():
        return None
    box = marks[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.intp)
    corners = (box[:-1, :-1], box[:-1, 1:], box[1:, :-1], box[1:, 1:])
    alike = (corners[0] == corners[1]) & (corners[0] == corners[2]) & (corners[0] == corners[3])
    out = np.where(alike & (corners[0] != line), corners[0], ground)
    return out.astype(np.uint8)


FITTER = offered_fitter("crossings", ("",), lambda _: on_colours(read_crossings), 3.0, "shrink")
"""Reading a lattice's coloured crossings, offered when it answers the demonstrations alone."""
