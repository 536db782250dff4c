"""Half frames: two seeds, one in each half of the grid, each frame their half with a rule through them.

The grid holds exactly two foreground cells, one in its top half and one in its bottom half (an
even number of rows). ``halfframe`` paints, in each seed's colour, its half's outer edge row (the
grid's top row for the top half, its bottom row for the bottom), both side columns of the half,
and the whole row the seed stands on: two boxes open toward each other, each ruled across at its
seed. The step does not apply to any other count or placing of foreground cells.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array

__all__ = ["FAMILIES", "halfframe"]


def halfframe(a: Array, bg: int) -> Array | None:
    """``a`` with each half framed and ruled by its seed (see the module), or ``None``."""
    h = a.shape[0]
    ys, xs = np.nonzero(a != bg)
    if h % 2 or len(ys) != 2 or not (ys[0] < h // 2 <= ys[1]):
        return None
    out = np.full_like(a, bg)
    for (top, bottom, edge), y, x in zip(((0, h // 2, 0), (h // 2, h, h - 1)), ys, xs, strict=True):
        colour = a[y, x]
        out[top:bottom, 0] = out[top:bottom, -1] = colour
        out[edge] = out[y] = colour
    return out


def _halfframe() -> Prim:
    return on_colours(halfframe)


FAMILIES: tuple[Family, ...] = (
    Family(
        "halfframe",
        (),
        3,
        _halfframe,
        "frame each half of the grid in its seed's colour, ruled across at the seed",
        "same",
    ),
)
"""The family of this module: ``halfframe``."""
