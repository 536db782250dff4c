"""Ricochets: a ball shot from each corner of a long grid, bouncing off its long sides.

`bounce` fits a ray's way and the walls it reflects off as literal constants (``ur``, ``h``): the
source at the bottom left of a tall grid shoots up and right and bounces off the left and right
sides. Re-ARC sets such sources in any corner, several at once, and lays the grid tall or wide
from pair to pair, so the way and the walls must be read from each grid: a lone cell in a corner
shoots along the diagonal into the grid, and a ray reflects off the grid's two long sides (left
and right of a tall grid, top and bottom of a wide one) and ends at a short side.
``ricochet`` draws every such ray in its source's colour over the background; a square grid (no
long sides), a corner source with a neighbour, or anything on the grid besides the corner
sources make it not apply. A ray ends at a short side or at another source.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["FAMILIES", "ricochet"]


def ricochet(a: Array, bg: int) -> Array | None:
    """``a`` with a ray from each lone corner cell bouncing off the long sides (see module)."""
    h, w = int(a.shape[0]), int(a.shape[1])
    if h == w or min(h, w) < 2 or int(a.max()) >= SENTINEL:
        return None
    fg = a != bg
    sources: list[tuple[int, int, int, int]] = []
    for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
        if not fg[y, x]:
            continue
        dy, dx = (1 if y == 0 else -1), (1 if x == 0 else -1)
        if fg[y + dy, x] or fg[y, x + dx] or fg[y + dy, x + dx]:
            return None  # a corner cell with a neighbour is part of a shape, not a ball
        sources.append((y, x, dy, dx))
    if not sources or int(np.count_nonzero(fg)) != len(sources):
        return None  # the balls alone: anything else on the grid is another task
    out = a.copy()
    for y, x, dy, dx in sources:
        paint = a[y, x]
        for _ in range(h * w):
            # Off a long side the ray turns back along the short axis; off a short side it ends.
            if h > w and not 0 <= x + dx < w:
                dx = -dx
            elif h < w and not 0 <= y + dy < h:
                dy = -dy
            y, x = y + dy, x + dx
            if not (0 <= y < h and 0 <= x < w) or fg[y, x]:
                break  # the far side, or another ball's corner
            out[y, x] = paint
    return out


def _ricochet() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return ricochet(a, bg_for(a, ctx))

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "ricochet",
        (),
        2.5,
        _ricochet,
        "shoot a ball from each corner cell, bouncing off the grid's long sides",
        "same",
    ),
)
"""The family of this module: ``ricochet``."""
