"""Homing: every object slides toward the border wall of its own colour until it rests.

Some grids are fenced by walls, border lines each of one colour (a row or column at the grid's
edge, its two end cells aside), and strew objects inside; each object travels to the wall that
shares its colour, stopping against the wall or against an object that came to rest before it
(nearest its wall first, as `motion`'s ``fall`` stacks blocks). `motion`'s ``fall`` moves every
object one way and `aligning` toward one anchor; here the direction is each object's own, read
off the colours of the walls.

``home(rest)`` cuts the cells inside the walls into single-colour 8-connected objects and homes
each. ``rest`` says what becomes of an object whose colour no wall has: ``drop`` erases it (a
stray that has no home vanishes), ``keep`` leaves it where it is. A grid without walls, with two
walls of one colour, with more than `MAX_MOVERS` objects, or in which nothing moves gives
``None``.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .motion import slide
from .objects import objects

__all__ = ["FAMILIES", "MAX_MOVERS", "RESTS", "home", "walls"]

MAX_MOVERS = 40
"""The most objects ``home`` moves; a grid of more is a texture, not a scene."""

RESTS = ("drop", "keep")
"""What becomes of an object whose colour no wall has: erased, or left in place."""

_SIDES: dict[str, tuple[int, int]] = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}


def _line(a: Array, side: str) -> Array:
    """The border line of ``a`` on ``side``, top to bottom or left to right."""
    index = {"top": (0, slice(None)), "bottom": (-1, slice(None)), "left": (slice(None), 0)}
    line: Array = a[index.get(side, (slice(None), -1))]
    return line


def walls(a: Array, bg: int) -> dict[int, str] | None:
    """Each wall's colour and side: border lines of one non-background colour, end cells aside.

    ``None`` when two walls share a colour (which way its objects go is then a guess).
    """
    found: dict[int, str] = {}
    for side in _SIDES:
        inner = _line(a, side)[1:-1]
        if len(inner) < 2:
            continue
        colour = int(inner[0])
        if colour == bg or not (inner == colour).all():
            continue
        if colour in found:
            return None
        found[colour] = side
    return found


def home(a: Array, bg: int, rest: str) -> Array | None:
    """``a`` with every object moved to the wall of its colour (see the module's docstring)."""
    found = walls(a, bg)
    if not found:
        return None
    h, w = a.shape
    fixed = np.zeros(a.shape, dtype=bool)  # the walls' own cells
    for colour, side in found.items():
        if side in ("top", "bottom"):
            row = 0 if side == "top" else h - 1
            fixed[row, 1:-1] = True
            fixed[row, (0, w - 1)] = a[row, (0, w - 1)] == colour
        else:
            col = 0 if side == "left" else w - 1
            fixed[1:-1, col] = True
            fixed[(0, h - 1), col] = a[(0, h - 1), col] == colour
    inside = np.where(fixed, bg, a)
    objs = objects(inside, bg, "8")
    if not 0 < len(objs) <= MAX_MOVERS:
        return None
    out = np.where(fixed, a, bg)
    # how far each object lies from its wall: the nearest come to rest first
    reach = {"top": objs.tops, "bottom": h - objs.bottoms, "left": objs.lefts, "right": w - objs.rights}
    order: list[tuple[int, int]] = []
    for i in range(len(objs)):
        towards = found.get(int(objs.colours[i]))
        if towards is not None:
            order.append((int(reach[towards][i]), i))
        elif rest == "keep":
            out[objs.labels == i] = a[objs.labels == i]
    if not order:
        return None
    for _, i in sorted(order):
        ys, xs = np.nonzero(objs.labels == i)
        slide(out, ys, xs, a[ys, xs], _SIDES[found[int(objs.colours[i])]], bg)
    return None if np.array_equal(out, a) else out


def _home(rest: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return home(a, bg_for(a, ctx), rest)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "home",
        (RESTS,),
        2,
        _home,
        "slide every object toward the border wall of its own colour until it rests",
        "same",
    ),
)
"""The homing family."""
