"""Sorting: bars laid in order of length, stacked against a wall and lined up at one end.

``sortbars(hand)`` reads every object as a straight one-colour bar and restacks them: the wall
is the one bar filling a whole side of the grid; it stays, and each shorter bar lies in the next
line out, longest first, all flush with one end. Which end follows the wall's side by ``hand``
(`HANDS`): a floor's bars flush right turn with the grid (``rot``), or mirror (``ref``), so a
task shown at several turns is one step. Bars must lie along the wall (horizontal bars on a
floor) and have distinct lengths, so the order is a fact of the grid, not a guess; anything that
is not such a bar makes the step not apply.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "SIDES"]

Turn = Callable[[Array], Array]


def _rot_ccw(a: Array) -> Array:
    return np.rot90(a, 1)


def _rot_cw(a: Array) -> Array:
    return np.rot90(a, -1)


# Each stacking as (there, back): ``there`` turns the grid so its wall is the floor and its bars
# are flush right; ``back`` undoes it.
_TURNS: dict[str, tuple[Turn, Turn]] = {
    "dr": (lambda a: a, lambda a: a),
    "dl": (np.fliplr, np.fliplr),
    "ur": (np.flipud, np.flipud),
    "ul": (lambda a: np.rot90(a, 2), lambda a: np.rot90(a, 2)),
    "ld": (_rot_ccw, _rot_cw),
    "lu": (lambda a: np.fliplr(_rot_ccw(a)), lambda a: _rot_cw(np.fliplr(a))),
    "ru": (_rot_cw, _rot_ccw),
    "rd": (lambda a: np.fliplr(_rot_cw(a)), lambda a: _rot_ccw(np.fliplr(a))),
}

SIDES = tuple(_TURNS)
"""Each stacking: the wall's side, then the side the bars are flush with."""

HANDS = {"rot": ("dr", "ld", "ul", "ru"), "ref": ("dl", "lu", "ur", "rd")}
"""For a wall found in the grid, the stacking: ``rot`` keeps the floor-and-right stacking's turn
(a quarter turn of the grid turns both sides), ``ref`` its mirror image."""


def _wall(a: Array, bg: int) -> str | None:
    """The one side of ``a`` filled by a single bar of one colour (``d``, ``l``, ``u``, ``r``)."""
    edges = {"d": a[-1], "l": a[:, 0], "u": a[0], "r": a[:, -1]}
    full = [side for side, line in edges.items() if line[0] != bg and bool(np.all(line == line[0]))]
    return full[0] if len(full) == 1 else None


def _floor_right(a: Array, bg: int) -> Array | None:
    """The bars of ``a`` (horizontal) sorted onto its floor, longest lowest, flush right."""
    objs = objects(a, bg, "4")
    n = len(objs)
    h, w = a.shape
    if n < 2 or n > h:
        return None
    if not np.all(objs.bottoms - objs.tops == 1):
        return None  # a bar is one line thick along the wall
    lengths = objs.rights - objs.lefts
    if len(np.unique(lengths)) != n:
        return None  # two bars of one length: their order is a guess
    out = np.full_like(a, bg)
    for row, i in enumerate(np.argsort(-lengths, kind="stable").tolist()):
        out[h - 1 - row, w - int(lengths[i]) :] = objs.colours[i]
    return out


def _sortbars(hand: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        wall = _wall(a, bg)
        if wall is None:
            return None
        there, back = _TURNS[next(side for side in HANDS[hand] if side[0] == wall)]
        made = _floor_right(np.ascontiguousarray(there(a)), bg)
        if made is None:
            return None
        out = np.ascontiguousarray(back(made))
        return None if np.array_equal(out, a) else out

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("sortbars", (tuple(HANDS),), 2.5, _sortbars, "stack bars by length on the wall, flush", "same"),
)
"""Bars sorted by length and stacked."""
