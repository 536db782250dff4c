"""Fence boxes: lone marker cells fence in a box, drawn one cell inside them in the figure's colour.

The grid holds a figure of one colour and *markers*: lone cells (no foreground neighbour, even at
a corner) of another colour. The markers' outermost rows and columns fence a region; ``fencebox``
draws the outline of the box one cell inside that fence (from the row below the topmost marker to
the row above the bottommost, and likewise across), in the figure's colour, on background cells
only. `spanning` boxes the rectangle whose corners four like cells are; here each marker only
bounds one side, and the box keeps clear of them.

The step does not apply unless there are exactly two foreground colours, one of them all lone
cells (three or more) and the other not, and the fenced box is at least 3 x 3.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array
from .keystamps import lone_cells

__all__ = ["FAMILIES", "fencebox"]


def fencebox(a: Array, bg: int) -> Array | None:
    """``a`` with the box its markers fence drawn in the figure's colour (see the module), or ``None``."""
    colours = [c for c in np.unique(a).tolist() if c != bg]
    if len(colours) != 2:
        return None
    lone = [c for c in colours if int((a == c).sum()) >= 3 and lone_cells(np.where(a == c, a, bg), bg)]
    if len(lone) != 1:
        return None
    mark = lone[0]
    figure = colours[1] if colours[0] == mark else colours[0]
    ys, xs = np.nonzero(a == mark)
    top, bottom, left, right = int(ys.min()) + 1, int(ys.max()) - 1, int(xs.min()) + 1, int(xs.max()) - 1
    if bottom - top < 2 or right - left < 2:
        return None
    ring = np.zeros(a.shape, dtype=bool)
    ring[top : bottom + 1, left : right + 1] = True
    ring[top + 1 : bottom, left + 1 : right] = False
    out = a.copy()
    out[ring & (a == bg)] = figure
    return out


def _fencebox() -> Prim:
    return on_colours(fencebox)


FAMILIES: tuple[Family, ...] = (
    Family(
        "fencebox",
        (),
        3,
        _fencebox,
        "draw the box one cell inside the lone markers, in the figure's colour",
        "same",
    ),
)
"""The family of this module: ``fencebox``."""
