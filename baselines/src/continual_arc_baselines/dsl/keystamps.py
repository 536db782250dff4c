"""Key stamps: the pattern on one side of a dividing line is stamped, centred, on each marker across it.

One line of one colour (not the background) runs clear across the grid and cuts it in two. On one
side lies the *key*: a pattern (the box of that side's foreground, odd on both sides, so it has a
centre cell; cells of the background inside the box belong to it). On the other side lie
*markers*: lone cells of one colour, no two touching even at a corner. ``keystamp`` paints a copy
of the key centred on every marker, cut off at the edge of the markers' side; the key and the
line stay. `stamping` copies a template object that lies among its marks; here the key is kept
apart by the line, and may touch it.

The step does not apply unless exactly one such line cuts the grid and exactly one side reads as
key and the other as markers.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array, Mask
from .parts import separator_lines

__all__ = ["FAMILIES", "keystamp", "lone_cells"]

Box = tuple[int, int, int, int]
"""Rows ``[top, bottom)`` and columns ``[left, right)`` of a region."""


def lone_cells(part: Array, bg: int) -> bool:
    """Whether ``part``'s foreground is one or more cells of one colour, none touching another."""
    fg = part != bg
    if not fg.any() or len(np.unique(part[fg])) != 1:
        return False
    p = np.pad(fg, 1).astype(np.int8)
    h, w = fg.shape
    near = np.zeros((h, w), dtype=np.int8)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            near += p[dy : dy + h, dx : dx + w]
    lone: Mask = near[fg] == 1  # each cell sees only itself
    return bool(lone.all())


def _key(part: Array, bg: int) -> Array | None:
    """``part``'s foreground box, when it has two or more cells and odd sides; ``None`` otherwise."""
    ys, xs = np.nonzero(part != bg)
    if len(ys) < 2:
        return None
    key = part[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return key if key.shape[0] % 2 and key.shape[1] % 2 else None


def keystamp(a: Array, bg: int) -> Array | None:
    """``a`` with its key stamped on each marker across the line (see the module), or ``None``."""
    rows, cols = separator_lines(a, bg)
    if rows is None or cols is None or int(rows.sum()) + int(cols.sum()) != 1:
        return None
    h, w = a.shape
    if rows.any():
        cut = int(np.argmax(rows))
        sides: list[Box] = [(0, cut, 0, w), (cut + 1, h, 0, w)]
    else:
        cut = int(np.argmax(cols))
        sides = [(0, h, 0, cut), (0, h, cut + 1, w)]
    readings = []
    for mine, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        marks = a[mine[0] : mine[1], mine[2] : mine[3]]
        key = _key(a[other[0] : other[1], other[2] : other[3]], bg)
        if marks.size and lone_cells(marks, bg) and key is not None:
            readings.append((mine, key))
    if len(readings) != 1:
        return None
    (top, bottom, left, right), key = readings[0]
    out = a.copy()
    kh, kw = key.shape
    for y, x in zip(*np.nonzero(a[top:bottom, left:right] != bg), strict=True):
        y0, x0 = top + int(y) - kh // 2, left + int(x) - kw // 2
        # Cut the copy at the edges of the markers' side.
        ys, xs = max(y0, top), max(x0, left)
        ye, xe = min(y0 + kh, bottom), min(x0 + kw, right)
        if ys < ye and xs < xe:
            out[ys:ye, xs:xe] = key[ys - y0 : ye - y0, xs - x0 : xe - x0]
    return out


def _keystamp() -> Prim:
    return on_colours(keystamp)


FAMILIES: tuple[Family, ...] = (
    Family(
        "keystamp",
        (),
        3,
        _keystamp,
        "stamp the key pattern across the dividing line centred on each marker",
        "same",
    ),
)
"""The family of this module: ``keystamp``."""
