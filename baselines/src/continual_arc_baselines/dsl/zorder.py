"""Layer order: the colours of overlapping lines and outlines, from the bottom layer to the top one.

Some grids draw lines or rectangle outlines of several colours over each other, each overlap
showing only the colour laid last, and ask for the order they were laid in: as a row or a column
of colours, or as nested rings (the bottom layer outermost). Two kinds of evidence say that a
colour A lies above a colour B:

* a crossing: a cell of A whose two neighbours along one line through it (across, down or either
  diagonal) are both B, B's line going on past at least one of them (so the single cell between
  the two sides of a thin outline, which B does not cross, says nothing);
* a covered outline: B's cells all lie on the border of their bounding box (a rectangle outline
  or a straight line) and cover at least half of it, and a cell of that border shows A.

Each piece of evidence is one vote; for every pair of colours the side with more votes wins, a
tie says nothing. The foreground colours must then fall into exactly one order (at every step
one colour alone has nothing left under it), else the step does not apply, since a guess between
orders is a coin toss. ``zorder(how)`` lays the order out (`LAYOUTS`): ``row`` and ``col`` from
the bottom layer, ``rings`` as concentric one-cell rings, ``2n - 1`` wide, bottom outermost.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "LAYOUTS", "layer_order", "votes"]

LAYOUTS = ("row", "col", "rings")
"""How the order is laid out: a row, a column (bottom layer first) or nested rings."""

_AXES = ((0, 1), (1, 0), (1, 1), (1, -1))
_OFF = 255  # a value no colour has, for cells off the grid


def votes(a: Array, bg: int) -> npt.NDArray[np.intp]:
    """``v[x, y]``: how many cells of ``a`` say colour ``x`` lies above colour ``y`` (see the module)."""
    h, w = a.shape
    count = np.zeros((10, 10), dtype=np.intp)
    pad = np.full((h + 4, w + 4), _OFF, dtype=np.uint8)
    pad[2 : h + 2, 2 : w + 2] = a
    for dy, dx in _AXES:

        def at(k: int, dy: int = dy, dx: int = dx) -> Array:
            return pad[2 + k * dy : 2 + k * dy + h, 2 + k * dx : 2 + k * dx + w]

        under = at(-1)
        hit = (under == at(1)) & ((at(-2) == under) | (at(2) == under))
        hit &= (under != a) & (under != bg) & (a != bg) & (under != _OFF)
        np.add.at(count, (a[hit], under[hit]), 1)
    for colour in range(10):
        if colour == bg:
            continue
        ys, xs = np.nonzero(a == colour)
        if len(ys) == 0:
            continue
        top, bottom, left, right = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
        # A box one cell from a line (two rows or columns) has no inside to tell an outline by.
        if bottom - top == 1 or right - left == 1:
            continue
        border = np.zeros((h, w), dtype=bool)
        border[top, left : right + 1] = border[bottom, left : right + 1] = True
        border[top : bottom + 1, left] = border[top : bottom + 1, right] = True
        size = int(border.sum())
        if size < 3 or not border[ys, xs].all() or 2 * len(ys) < size:
            continue
        covered = border & (a != colour) & (a != bg)
        np.add.at(count, (a[covered], np.full(int(covered.sum()), colour)), 1)
    return count


def layer_order(a: Array, bg: int) -> list[int] | None:
    """The foreground colours of ``a`` from the bottom layer up, or ``None`` (see the module)."""
    colours = [c for c in range(10) if c != bg and (a == c).any()]
    if len(colours) < 2:
        return None
    count = votes(a, bg)
    above = count > count.T
    order: list[int] = []
    left = list(colours)
    while left:
        free = [c for c in left if not any(above[c, d] for d in left if d != c)]
        if len(free) != 1:
            return None
        order.append(free[0])
        left.remove(free[0])
    return order


def _zorder(how: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        order = layer_order(a, bg_for(a, ctx))
        if order is None:
            return None
        line = np.array(order, dtype=np.uint8)
        if how == "row":
            return line[None, :]
        if how == "col":
            return line[:, None]
        side = 2 * len(order) - 1
        ys, xs = np.indices((side, side))
        depth = np.minimum(np.minimum(ys, xs), np.minimum(side - 1 - ys, side - 1 - xs))
        return line[depth]

    return prim


FAMILIES = (
    Family(
        "zorder",
        (LAYOUTS,),
        3,
        _zorder,
        "the colours of overlapping lines in the order they were laid: a row, a column or rings",
    ),
)
"""Reading the layer order of overlapping lines and outlines."""
