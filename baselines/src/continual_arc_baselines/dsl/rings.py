"""Concentric rings: a grid's colours laid out as nested square rings, one ring per colour.

Some tasks answer with a target of rings, each one cell wide and of one colour, and choose which
colour goes where by what the input shows:

* ``rings``: every foreground colour is one ring, the colour with the most cells outermost
  and the one with the fewest in the middle, so ``n`` colours make a ``2n - 1`` square. Two
  colours of one count leave the order open, and the step does not apply.
* ``ringmarks``: the grid keeps its size, and each ring of it (the cells as far from the
  nearest edge) takes the colour of the marks that lie on it. Every ring must hold marks of one
  colour exactly, else the step does not apply.
* ``ringgaps`` (`GAP_FAMILIES`, under measurement): ``ringmarks`` where a ring holding no marks
  stays background. Nested bands drawn with a background band between two coloured ones, then
  speckled with holes, leave such a ring bare, and ``ringmarks`` would not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "GAP_FAMILIES", "by_count", "by_mark"]


def _depth(h: int, w: int) -> Array:
    """Per cell, how many rings lie outside it: its distance to the nearest edge."""
    ys, xs = np.indices((h, w))
    depth: Array = np.minimum(np.minimum(ys, xs), np.minimum(h - 1 - ys, w - 1 - xs)).astype(np.uint8)
    return depth


def by_count(a: Array, bg: int) -> Array | None:
    """The foreground colours as rings, the commonest outermost (see the module)."""
    counts = np.bincount(a.ravel(), minlength=10)
    counts[bg] = 0
    colours = [c for c in range(10) if counts[c]]
    if len(colours) < 2 or len({int(counts[c]) for c in colours}) != len(colours):
        return None
    order = sorted(colours, key=lambda c: -int(counts[c]))
    side = 2 * len(order) - 1
    return np.array(order, dtype=np.uint8)[_depth(side, side)]


def by_mark(a: Array, bg: int, gaps: bool = False) -> Array | None:
    """Each ring of ``a`` painted with the colour of the marks on it (see the module).

    With ``gaps`` a ring that holds no mark is painted ``bg``; some ring must still hold marks.
    """
    h, w = a.shape
    depth = _depth(h, w)
    rings = int(depth.max()) + 1
    if rings < 2:
        return None
    colours = np.zeros(rings, dtype=np.uint8)
    for k in range(rings):
        on = a[(depth == k) & (a != bg)]
        if on.size == 0 and gaps:
            colours[k] = bg
            continue
        if on.size == 0 or (on != on[0]).any():
            return None
        colours[k] = on[0]
    if gaps and (colours == bg).all():
        return None
    return colours[depth]


def _rings() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return by_count(a, bg_for(a, ctx))

    return prim


def _ringmarks(gaps: bool = False) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return by_mark(a, bg_for(a, ctx), gaps)

    return prim


FAMILIES = (
    Family("rings", (), 3, _rings, "the colours as concentric rings, the commonest outermost"),
    Family("ringmarks", (), 3, _ringmarks, "each ring of the grid in the colour of its marks", shape="same"),
)
"""Concentric rings of the grid's colours."""

GAP_FAMILIES = (
    Family(
        "ringgaps",
        (),
        4,
        lambda: _ringmarks(gaps=True),
        "each ring of the grid in the colour of its marks, a ring without marks background",
        shape="same",
    ),
)
"""Ring marks with bare rings left background: searched only in ``next``."""
