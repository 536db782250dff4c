"""Drop and comb: a lone dot falls one cell and leaves a comb of teeth above where it was.

The grid holds one foreground cell. ``dropcomb`` moves it one row down and paints, with the label
`TRUE` (a fitted colour map names it), every cell from the top row to the dot's old row whose
column has the dot's column's parity: teeth every other column, level with where the dot stood.
The step does not apply unless there is exactly one foreground cell and a row below it.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import TRUE, Array

__all__ = ["FAMILIES", "dropcomb"]


def dropcomb(a: Array, bg: int) -> Array | None:
    """``a`` with its one dot dropped a row and the comb drawn above (see the module), or ``None``."""
    ys, xs = np.nonzero(a != bg)
    if len(ys) != 1 or int(ys[0]) + 1 >= a.shape[0]:
        return None
    y, x = int(ys[0]), int(xs[0])
    out = a.copy()
    out[: y + 1, x % 2 :: 2] = TRUE
    out[y + 1, x] = a[y, x]
    return out


def _dropcomb() -> Prim:
    return on_colours(dropcomb)


FAMILIES: tuple[Family, ...] = (
    Family("dropcomb", (), 3, _dropcomb, "drop the lone dot a row and label a comb above it", "same"),
)
"""The family of this module: ``dropcomb``."""
