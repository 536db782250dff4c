"""Wall slopes: beside a wall, a floor is laid and a slope climbs from the floor's corner to the edge.

The grid is empty but for a *wall*: its first ``t`` columns, all of one colour. ``wallslope`` lays
a *floor* along the bottom, ``t`` rows deep, from the wall to the far edge (label `TRUE` + 1), and
from the corner where floor meets wall a *slope* of ``t`` x ``t`` blocks climbs diagonally up
and away from the wall, one block at a time, until it leaves the grid (label `TRUE`); a fitted
colour map names both. A wall on another edge is read by turning the grid (`geometry.one_turn`),
so a wall on the right gets its floor along the top.

The step does not apply unless exactly one edge holds such a wall with the rest of the grid
background, the wall leaving room for the floor and the slope.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .geometry import one_turn
from .grid import TRUE, Array

__all__ = ["FAMILIES", "wallslope"]


def _sloped(g: Array, bg: int) -> Array | None:
    """``g`` with its floor and slope, when its wall stands on the left; ``None`` otherwise."""
    h, w = g.shape
    walled = (g != bg).all(axis=0)
    t = int(np.argmin(walled)) if not walled.all() else w
    if t == 0 or t >= w or 2 * t > h or len(np.unique(g[:, :t])) != 1 or (g[:, t:] != bg).any():
        return None
    out = g.copy()
    out[h - t :, t:] = TRUE + 1
    k = 0
    while h - t - k * t > 0 and t + k * t < w:
        bottom, left = h - t - k * t, t + k * t
        out[max(bottom - t, 0) : bottom, left : left + t] = TRUE
        k += 1
    return out


def wallslope(a: Array, bg: int) -> Array | None:
    """``a`` with a floor and a slope laid beside its wall (see the module), or ``None``."""
    return one_turn(a, lambda g: _sloped(g, bg))


def _wallslope() -> Prim:
    return on_colours(wallslope)


FAMILIES: tuple[Family, ...] = (
    Family(
        "wallslope",
        (),
        3,
        _wallslope,
        "label a floor and a diagonal slope of wall-thick blocks beside the wall",
        "same",
    ),
)
"""The family of this module: ``wallslope``."""
