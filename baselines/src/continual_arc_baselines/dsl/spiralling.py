"""Spiralling: a square spiral drawn in from the top-left corner, one cell of gap between its turns.

``spiral`` walks from the top-left cell rightward and turns clockwise whenever the next step
would leave the grid, land on the path, or come up against it (the cell beyond the next one is
on the path), so each turn keeps one cell of gap from the last; it stops when it cannot move
after a turn. The path is painted with the label `TRUE` over whatever the grid holds (an empty
canvas, or noise that shows through the gaps), and a fitted colour map names its colour, so one
step serves every colour. The path depends only on the grid's size.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .family import Family, Prim, on_colours
from .grid import TRUE, Array, Mask

__all__ = ["FAMILIES", "spiral_path"]

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Right, down, left, up: the clockwise order of the walk's headings."""


@lru_cache(maxsize=64)
def _path(h: int, w: int) -> bytes:
    """The spiral's cells of an ``h`` x ``w`` grid, as row-major flags (cached: bytes are immutable)."""
    on = np.zeros((h, w), dtype=bool)
    on[0, 0] = True
    y, x, heading, turns = 0, 0, 0, 0

    def free(y: int, x: int) -> bool:
        return 0 <= y < h and 0 <= x < w and not on[y, x]

    while turns < 2:
        dy, dx = _STEPS[heading]
        ny, nx = y + dy, x + dx
        ahead_clear = not (0 <= ny + dy < h and 0 <= nx + dx < w) or not on[ny + dy, nx + dx]
        if free(ny, nx) and ahead_clear:
            y, x, turns = ny, nx, 0
            on[y, x] = True
        else:
            heading, turns = (heading + 1) % 4, turns + 1
    return on.tobytes()


def spiral_path(h: int, w: int) -> Mask:
    """The cells of the spiral on an ``h`` x ``w`` grid (see the module)."""
    flags: Mask = np.frombuffer(_path(h, w), dtype=bool).reshape(h, w)
    return flags


def _spiralled(a: Array, bg: int) -> Array:
    out = a.copy()
    out[spiral_path(*a.shape)] = TRUE
    return out


def _spiral() -> Prim:
    return on_colours(_spiralled)


FAMILIES: tuple[Family, ...] = (
    Family(
        "spiral",
        (),
        3,
        _spiral,
        "label a square spiral drawn in from the top-left corner",
        "same",
    ),
)
"""The family of this module: ``spiral``."""
