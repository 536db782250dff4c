"""Stretching: a box pulled out along one axis until its far side reaches a lone marker cell.

A solid box of at least 3 x 3 cells (a frame around a filling, say) and one marker cell stand
apart; the marker lies beyond one side of the box, within the span of its rows or its columns.
The box grows toward the marker: the side facing it moves onto the marker's row (or column), the
row (or column) next to that side repeats to fill the gap, and the marker itself is covered.
It is "extend the object until it touches the marker" for objects that keep their outline:
`contact` moves a whole object and `spanning` boxes four corners; neither stretches.

``stretch`` reads the grid as its 8-connected multicolour objects on the background: there must
be exactly two, one a single cell and the other a box with no background inside it. Any other
layout, or a marker diagonal to the box, makes the step not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array
from .objects import objects

__all__ = ["FAMILIES", "stretch"]


def _grown(box: Array, reach: int) -> Array:
    """``box`` made ``reach`` rows longer at its bottom by repeating its next-to-last row."""
    return np.concatenate([box[:-1], *([box[-2:-1]] * reach), box[-1:]])


def stretch(a: Array, bg: int) -> Array | None:
    """``a`` with its box stretched to its marker cell (see the module), or ``None``."""
    objs = objects(a, bg, "m8")
    if len(objs) != 2 or sorted(objs.sizes.tolist())[0] != 1 or objs.sizes[0] == objs.sizes[1]:
        return None
    mark, body = (0, 1) if objs.sizes[0] == 1 else (1, 0)
    y, x = int(objs.tops[mark]), int(objs.lefts[mark])
    top, bottom = int(objs.tops[body]), int(objs.bottoms[body])
    left, right = int(objs.lefts[body]), int(objs.rights[body])
    box = a[top:bottom, left:right]
    if min(box.shape) < 3 or (box == bg).any():
        return None
    out = a.copy()
    if left <= x < right and not top <= y < bottom:
        # Turn the column case into the bottom case: flip so the marker lies below.
        flip = y < top
        part = box[::-1] if flip else box
        reach = (top - y) if flip else (y - bottom + 1)
        grown = _grown(part, reach)
        out[min(top, y) : max(bottom, y + 1), left:right] = grown[::-1] if flip else grown
        return out
    if top <= y < bottom and not left <= x < right:
        flip = x < left
        part = (box[:, ::-1] if flip else box).T
        reach = (left - x) if flip else (x - right + 1)
        grown = _grown(part, reach).T
        out[top:bottom, min(left, x) : max(right, x + 1)] = grown[:, ::-1] if flip else grown
        return out
    return None


def _stretch() -> Prim:
    return on_colours(stretch)


FAMILIES: tuple[Family, ...] = (
    Family("stretch", (), 3, _stretch, "stretch the one box until it reaches the lone marker cell", "same"),
)
"""The family of this module: ``stretch``."""
