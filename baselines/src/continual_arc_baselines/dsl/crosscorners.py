"""Crossed corners: the colour at each corner of a shape goes out past the opposite corner.

Two shapes carry four colours at their corners, and each colour is painted just outside the
corner diagonally opposite its own, so the picture's corners cross over:

* ``crosscorners(copy)``: a solid 2 x 2 block of four cells stays, and each cell's colour fills a
  2 x 2 block touching the block's opposite corner from outside (cut at the grid's border);
* ``crosscorners(move)``: a box whose one-colour border encloses an inside of one colour but for
  its four inner corner cells (the marks); each mark leaves for the cell diagonally outside the
  opposite corner of the border, and its place takes the inside colour.

Shapes are the 8-connected multicolour objects on the background; objects of neither kind are left
as they are. The step does not apply when no object is of the kind, or when a moved mark would
leave the grid.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array
from .objects import objects

__all__ = ["FAMILIES", "HOW", "crosscorners"]

HOW = ("copy", "move")
"""Which shapes and how their corners cross: 2 x 2 blocks copied out, or a box's marks moved out."""


def _copied(out: Array, a: Array, top: int, left: int) -> None:
    """Paints each cell of the 2 x 2 block at ``(top, left)`` as a 2 x 2 block past its opposite corner."""
    h, w = a.shape
    for i in (0, 1):
        for j in (0, 1):
            y = top + 2 if i == 0 else top - 2  # the top row goes below, the bottom row above
            x = left + 2 if j == 0 else left - 2
            ys, xs = slice(max(y, 0), max(min(y + 2, h), 0)), slice(max(x, 0), max(min(x + 2, w), 0))
            out[ys, xs] = a[top + i, left + j]


def _moved(out: Array, a: Array, bg: int, box: tuple[int, int, int, int]) -> bool:
    """Moves out the marks of the box ``(top, bottom, left, right)`` (ends exclusive); ``False`` if none.

    A box only 4 cells across has no inside but its marks: their places take the background.
    """
    top, bottom, left, right = box
    h, w = a.shape
    if bottom - top < 4 or right - left < 4:
        return False
    part = a[top:bottom, left:right]
    border = np.concatenate([part[0], part[-1], part[1:-1, 0], part[1:-1, -1]])
    if len(np.unique(border)) != 1:
        return False
    inner = part[1:-1, 1:-1]
    last_y, last_x = inner.shape[0] - 1, inner.shape[1] - 1
    corners = [(0, 0), (0, last_x), (last_y, 0), (last_y, last_x)]
    rest = np.ones(inner.shape, dtype=bool)
    for y, x in corners:
        rest[y, x] = False
    inside = np.unique(inner[rest])
    if len(inside) > 1 or (len(inside) == 1 and inside[0] == border[0]):
        return False
    fill = int(inside[0]) if len(inside) else bg
    if any(int(inner[y, x]) in (fill, int(border[0])) for y, x in corners):
        return False
    # Each mark goes one cell diagonally outside the border's opposite corner.
    targets = [(bottom, right), (bottom, left - 1), (top - 1, right), (top - 1, left - 1)]
    if any(not (0 <= y < h and 0 <= x < w) for y, x in targets):
        return False
    for (y, x), (ty, tx) in zip(corners, targets, strict=True):
        out[ty, tx] = inner[y, x]
        out[top + 1 + y, left + 1 + x] = fill
    return True


def crosscorners(a: Array, bg: int, how: str) -> Array | None:
    """``a`` with the corners of its shapes crossed over (see the module), or ``None``."""
    objs = objects(a, bg, "m8")
    out = a.copy()
    done = False
    for i in range(len(objs)):
        top, bottom = int(objs.tops[i]), int(objs.bottoms[i])
        left, right = int(objs.lefts[i]), int(objs.rights[i])
        if how == "copy":
            if bottom - top == 2 and right - left == 2 and objs.sizes[i] == 4:
                _copied(out, a, top, left)
                done = True
        elif _moved(out, a, bg, (top, bottom, left, right)):
            done = True
    return out if done else None


def _crosscorners(how: str) -> Prim:
    return on_colours(lambda a, bg: crosscorners(a, bg, how))


FAMILIES: tuple[Family, ...] = (
    Family(
        "crosscorners",
        (HOW,),
        3,
        _crosscorners,
        "paint each corner colour of a shape past its opposite corner",
        "same",
    ),
)
"""The family of this module: ``crosscorners(how)``."""
