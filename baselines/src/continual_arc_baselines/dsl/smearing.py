"""Smearing: a shape with marked cells drags itself out along the ways its marks point, to the border.

Some tasks draw a small shape (a 2 x 2 block, a bar) with a few cells of a *mark* colour; each
mark sits toward one side or corner of the shape and says "this way". The answer drags the whole
shape that way again and again, one cell a step (straight or diagonal), until it leaves the grid,
leaving a thick streak in the shape's own colour; the marks take that colour too. `beams` draws
one thin line from a shape with a single mark; here every mark points, and the streak is as wide
as the shape.

``smear{m}`` cuts the grid into multicolour 4-connected objects; each object holding the mark
colour ``m`` and one other colour (its *body*) is smeared from each of its mark cells in the
direction from the centre of its box to that cell (the sign of the offset on each axis). A mark
at the centre, an object that is all marks, or two streaks painting one cell two colours make the
step not apply. The mark colour is fitted: a colour every demonstration's input holds and its
output does not.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op
from .grid import SENTINEL, Array, Context, bg_for
from .objects import objects

__all__ = ["FITTER", "SMEAR_COST", "fit_smear", "parse_smear", "smear", "smear_op"]

SMEAR_COST = 3.0
"""The base cost of a smear: one fitted colour and a whole-grid drawing."""

_MAX_OBJECTS = 16
"""More marked objects than this are not arrows but a pattern."""


def _directions(ys: np.ndarray, xs: np.ndarray, marks: np.ndarray) -> list[tuple[int, int]] | None:
    """The ways an object's marks point: from its box's centre to each mark, in sorted order."""
    cy2 = int(ys.min()) + int(ys.max())  # twice the centre, so halves stay integers
    cx2 = int(xs.min()) + int(xs.max())
    found: set[tuple[int, int]] = set()
    for y, x in zip(ys[marks].tolist(), xs[marks].tolist(), strict=True):
        d = (int(np.sign(2 * y - cy2)), int(np.sign(2 * x - cx2)))
        if d == (0, 0):
            return None
        found.add(d)
    return sorted(found)


def smear(a: Array, bg: int, mark: int) -> Array | None:
    """Every object marked with ``mark`` dragged along its marks' directions (see the module)."""
    objs = objects(a, bg, "m4")
    out = a.copy()
    painted = np.full(a.shape, -1, dtype=np.int16)
    h, w = a.shape
    moved = 0
    for i in range(len(objs)):
        if objs.ncolours[i] != 2:
            continue
        ys, xs = np.nonzero(objs.labels == i)
        colours = a[ys, xs]
        marks = colours == mark
        if not marks.any():
            continue
        body = int(colours[~marks][0])
        ways = _directions(ys, xs, marks)
        if ways is None:
            return None
        moved += 1
        if moved > _MAX_OBJECTS:
            return None
        for dy, dx in ways:
            k = 0
            while True:
                ty, tx = ys + k * dy, xs + k * dx
                inside = (ty >= 0) & (ty < h) & (tx >= 0) & (tx < w)
                if not inside.any():
                    break
                ty, tx = ty[inside], tx[inside]
                if np.any((painted[ty, tx] >= 0) & (painted[ty, tx] != body)):
                    return None  # two streaks of different colours cross: which lies on top is a guess
                painted[ty, tx] = body
                out[ty, tx] = body
                k += 1
    if moved == 0:
        return None
    return out


def smear_op(mark: int) -> Op:
    """The step ``smear{mark}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return smear(a, bg_for(a, ctx), mark)

    return Op(f"smear{{{mark}}}", SMEAR_COST, prim, "same")


def parse_smear(text: str) -> Op | None:
    """The step a ``smear{m}`` text names, or ``None`` when it names none."""
    body = text.removeprefix("smear{").removesuffix("}")
    if len(body) != 1 or not body.isdigit():
        return None
    op = smear_op(int(body))
    return op if op.text == text else None


def fit_smear(given: FitInput) -> list[Op]:
    """A smear for each colour every demonstration's input holds and its output lacks."""
    if not given.keeps_size:
        return []
    gone = [
        c
        for c in range(10)
        if all(bool((a == c).any()) and not bool((b == c).any()) for a, b, _ in given.demos())
    ]
    return changing_answers(given, (smear_op(c) for c in gone))


FITTER = Fitter("smear{", {"smear": SMEAR_COST}, fit_smear, parse_smear)
"""The fitter of smears, searched in ``wide`` (the default)."""
