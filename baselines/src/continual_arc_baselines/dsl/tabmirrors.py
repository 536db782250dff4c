"""Tab mirrors: cells of another colour beside a shape mark the sides it is reflected to.

An 8-connected multicolour object holds a *shape* (its commonest colour) and *marks*: cells of
other colours that touch it from outside its box. Each mark colour's cells all lie on one side of
the shape's box, or off one of its corners; the shape is reflected across that side of its box
(across both sides at a corner: a half turn about the corner), and the copy is painted:

* ``tabmirror(own)``: in the shape's own colour, the marks erased first (a shape that grows its
  mirror image where a tab of another colour shows the way);
* ``tabmirror(mark)``: in the mark's colour (one copy per mark colour, each the way it points).

Unlike `layers`' ``mirrorfill``/``mirrormark``, which reflect the whole grid about its centre,
each copy here hangs off its own shape's box on the side its marks show. Objects with no marks
stay as they are. The step does not apply when no object has marks, when a
mark colour's cells point two ways or sit inside the shape's box, or when two colours tie for an
object's commonest.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array
from .objects import objects

__all__ = ["FAMILIES", "HOW", "tabmirror"]

HOW = ("own", "mark")
"""The colour of each mirrored copy: the shape's own, or its mark's."""


def _side(v: int, low: int, high: int) -> int:
    """-1 before ``[low, high)``, 1 after it, 0 inside it."""
    return -1 if v < low else 1 if v >= high else 0


def _reflected(v: np.ndarray, side: int, low: int, high: int) -> np.ndarray:
    """Coordinates ``v`` reflected across the ``side`` edge of ``[low, high)`` (kept for side 0)."""
    if side < 0:
        return 2 * low - 1 - v
    if side > 0:
        return 2 * high - 1 - v
    return v


def tabmirror(a: Array, bg: int, how: str) -> Array | None:
    """``a`` with each marked shape mirrored the ways its marks point (see the module), or ``None``."""
    objs = objects(a, bg, "m8")
    h, w = a.shape
    out = a.copy()
    done = False
    for i in range(len(objs)):
        if objs.ncolours[i] < 2:
            continue
        cells = objs.labels == i
        counts = np.bincount(a[cells], minlength=16)
        shape = int(counts.argmax())
        if int((counts == counts[shape]).sum()) > 1:
            return None
        sy, sx = np.nonzero(cells & (a == shape))
        top, bottom, left, right = int(sy.min()), int(sy.max()) + 1, int(sx.min()), int(sx.max()) + 1
        copies = []
        for mark in np.nonzero(counts)[0].tolist():
            if mark == shape:
                continue
            my, mx = np.nonzero(cells & (a == mark))
            pairs = zip(my.tolist(), mx.tolist(), strict=True)
            sides = {(_side(y, top, bottom), _side(x, left, right)) for y, x in pairs}
            if len(sides) != 1 or (0, 0) in sides:
                return None
            (dy, dx) = sides.pop()
            ry, rx = _reflected(sy, dy, top, bottom), _reflected(sx, dx, left, right)
            inside = (ry >= 0) & (ry < h) & (rx >= 0) & (rx < w)
            copies.append((ry[inside], rx[inside], shape if how == "own" else mark))
            if how == "own":
                out[my, mx] = bg
        for ry, rx, colour in copies:
            out[ry, rx] = colour
        done = True
    return out if done else None


def _tabmirror(how: str) -> Prim:
    return on_colours(lambda a, bg: tabmirror(a, bg, how))


FAMILIES: tuple[Family, ...] = (
    Family(
        "tabmirror",
        (HOW,),
        3,
        _tabmirror,
        "reflect each shape across the sides its marks of another colour touch",
        "same",
    ),
)
"""The family of this module: ``tabmirror(how)``."""
