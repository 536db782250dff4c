"""Colour maps: every cell blown up into a map of where its own colour lies in the grid.

`sizing`'s ``fractal`` puts a copy of the whole grid in every foreground (or background) block,
and `kronecker`'s ``kron`` a copy where one fitted colour lies. Some tasks key each block by the
cell's own colour instead: the block of a cell of colour ``c`` shows, in ``c``, every cell of the
grid that is ``c``, and nothing (colour 0) elsewhere, so the output is the grid's colour-by-colour
self-similar picture, ``h * h`` by ``w * w``. ``kself`` is that step; a grid of one colour makes a
blank-free copy of itself and is not taken as such a map (the step does not apply).
"""

from __future__ import annotations

import numpy as np

from continual_arc.grids import MAX_SIDE

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES", "self_map"]


def self_map(a: Array) -> Array | None:
    """Each cell of ``a`` as the map of its colour's cells, in that colour on 0 (see the module)."""
    h, w = a.shape
    if h * h > MAX_SIDE or w * w > MAX_SIDE or (a == a.flat[0]).all():
        return None  # too large an answer to keep (built only to be dropped), or no map at all
    # blocks[i, j, y, x]: cell (y, x) in the block of cell (i, j).
    same = a[:, :, None, None] == a[None, None, :, :]
    blocks = np.where(same, a[:, :, None, None], np.uint8(0)).astype(np.uint8)
    return blocks.transpose(0, 2, 1, 3).reshape(h * h, w * w)


def _kself() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return self_map(a)

    return prim


FAMILIES = (Family("kself", (), 3, _kself, "each cell a map of where its own colour lies", shape="grow"),)
"""The colour-by-colour self-similar map."""
