"""Hopping: every object moves in one direction by as many cells as it holds.

Some tasks move each object a distance it carries itself: a bar of three cells moves three rows,
a dot one, an L of five cells five; small things barely stir and big ones travel far.
`contact`'s ``leap`` moves an object by its extent (its height or width), `motion`'s ``fall``
until it rests, `aligning` by its relation to an anchor; none counts an object's cells.

``hop(dir,mode)`` cuts the grid into objects (`objects.MODES` ``4``, single-colour, or ``m8``,
multicolour) and moves each by its cell count toward ``dir``. An object that spans the grid's
whole width or height is a wall or floor and stays. What leaves the grid is cut off. Two objects
landing on one cell, or a grid of more than `MAX_MOVERS` objects, make the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["DIRECTIONS", "FAMILIES", "MAX_MOVERS", "hop"]

MAX_MOVERS = 30
"""The most objects ``hop`` moves; a grid of more is a texture, not a scene."""

DIRECTIONS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
"""The unit step of each direction an object may hop."""

_MODES = ("4", "m8")


def hop(grid: Array, bg: int, direction: str, mode: str) -> Array | None:
    """``grid`` with every object but the walls moved by its cell count toward ``direction``."""
    objs = objects(grid, bg, mode)
    if not 0 < len(objs) <= MAX_MOVERS:
        return None
    h, w = grid.shape
    dy, dx = DIRECTIONS[direction]
    out = np.full_like(grid, bg)
    taken = np.zeros(grid.shape, dtype=bool)
    moved = False
    for i in range(len(objs)):
        ys, xs = np.nonzero(objs.labels == i)
        wall = objs.rights[i] - objs.lefts[i] == w or objs.bottoms[i] - objs.tops[i] == h
        far = 0 if wall else int(objs.sizes[i])
        ny, nx = ys + far * dy, xs + far * dx
        inside = (ny >= 0) & (ny < h) & (nx >= 0) & (nx < w)
        ny, nx = ny[inside], nx[inside]
        if taken[ny, nx].any():
            return None  # two objects would share a cell
        taken[ny, nx] = True
        out[ny, nx] = grid[ys[inside], xs[inside]]
        moved = moved or far > 0
    return out if moved else None


def _hop(direction: str, mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return hop(a, bg_for(a, ctx), direction, mode)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "hop",
        (tuple(DIRECTIONS), _MODES),
        3,
        _hop,
        "move every object by its own cell count in a direction",
        "same",
    ),
)
"""The family of this module: ``hop(dir,mode)``."""
