"""Key stripes: a key line of colours at one edge, a rule under it, and the rest striped in its colours.

The grid's first row is the *key* (no background cell), the second a *rule* of one colour that is
not the background, and every row below is background. ``keystripes`` paints those rows whole,
one key colour each, in the key's order and again from its start when it runs out. The key may
lie along any edge: the grid is turned a quarter at a time until its key is the top row, striped,
and turned back, so a key on the right edge reads top to bottom, on the bottom right to left and
on the left bottom to top (the order a turn of the grid carries the top row's left-to-right to).

The step does not apply unless exactly one edge is such a key.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .geometry import one_turn
from .grid import Array

__all__ = ["FAMILIES", "keystripes"]


def _striped(g: Array, bg: int) -> Array | None:
    """``g`` striped below its top-row key and rule, or ``None`` when its top is no key."""
    if g.shape[0] < 3 or (g[0] == bg).any() or len(np.unique(g[1])) != 1 or g[1, 0] == bg:
        return None
    if not (g[2:] == bg).all():
        return None
    out = g.copy()
    key = g[0]
    for i in range(g.shape[0] - 2):
        out[2 + i] = key[i % len(key)]
    return out


def keystripes(a: Array, bg: int) -> Array | None:
    """``a`` striped in its key's colours (see the module), or ``None``."""
    return one_turn(a, lambda g: _striped(g, bg))


def _keystripes() -> Prim:
    return on_colours(keystripes)


FAMILIES: tuple[Family, ...] = (
    Family(
        "keystripes",
        (),
        3,
        _keystripes,
        "stripe the empty rows past a key line and its rule in the key's colours, in turn",
        "same",
    ),
)
"""The family of this module: ``keystripes``."""
