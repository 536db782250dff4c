"""Inward rays: every cell on the grid's border shoots straight in, and rays meet halfway.

`drawing` fits each ray's way as a literal (``l``, ``r``): cells on the left and right sides
shooting toward each other. Re-ARC lays such a task on its side from pair to pair (the cells on
the top and bottom instead), so the way must be read from each cell: a foreground cell on a side
of the border shoots perpendicular to that side, into the grid, over background, until it meets
foreground (a corner cell lies on two sides: it shoots on the axis all the others do). Where rays
reach one cell, the nearer source's ray wins; two sources equally near paint the fitted *meeting*
colour (``inward{5}``: a grey cell where two lines meet), or make the step not apply when the
demonstrations never showed one (``inward{-}``).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op
from .grid import SENTINEL, Array, Context, bg_for
from .steptext import braced

__all__ = ["FITTER", "INWARD_COST", "fit_inward", "inward", "inward_op", "parse_inward"]

INWARD_COST = 3.0
"""The base cost of an ``inward`` step: a fixed rule and one fitted meeting colour."""

_NONE = -1
_TIE = -2


def _ways(a: Array, bg: int) -> list[tuple[int, int, int, int]]:
    """Each border source with the way it shoots: ``(y, x, dy, dx)``.

    A corner cell lies on two sides; it shoots along the one axis every other source shoots on,
    and not at all when they shoot on both or none.
    """
    h, w = a.shape
    found, corners, axes = [], [], set()
    for y, x in zip(*np.nonzero(a != bg), strict=True):
        y, x = int(y), int(x)
        vertical = (1 if y == 0 else -1 if y == h - 1 else 0, 0)
        across = (0, 1 if x == 0 else -1 if x == w - 1 else 0)
        if vertical[0] and across[1]:
            corners.append((y, x, vertical, across))
        elif vertical[0]:
            found.append((y, x, *vertical))
            axes.add("v")
        elif across[1]:
            found.append((y, x, *across))
            axes.add("h")
    if len(axes) == 1:
        found += [(y, x, *(v if "v" in axes else c)) for y, x, v, c in corners]
    return found


def _reached(a: Array, bg: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Per cell, the colour its nearest ray paints (``_TIE``: two sources equally near)."""
    h, w = a.shape
    if h < 3 or w < 3 or int(a.max()) >= SENTINEL:
        return None
    sources = _ways(a, bg)
    if not sources:
        return None
    colour = np.full((h, w), _NONE, dtype=np.int16)
    dist = np.full((h, w), h + w, dtype=np.int32)
    for y, x, dy, dx in sources:
        paint, step = int(a[y, x]), 0
        cy, cx = y + dy, x + dx
        while 0 <= cy < h and 0 <= cx < w and int(a[cy, cx]) == bg:
            step += 1
            if step < dist[cy, cx]:
                dist[cy, cx], colour[cy, cx] = step, paint
            elif step == dist[cy, cx]:
                colour[cy, cx] = _TIE
            cy, cx = cy + dy, cx + dx
    return colour, dist


def inward(a: Array, bg: int, meet: int | None) -> Array | None:
    """``a`` with every border cell's inward ray drawn (see module); ``None`` when nothing is."""
    reached = _reached(a, bg)
    if reached is None:
        return None
    colour = reached[0]
    ties = colour == _TIE
    if ties.any() and meet is None:
        return None
    out = np.where(colour >= 0, colour, a).astype(np.uint8)
    if meet is not None:
        out[ties] = meet
    return None if np.array_equal(out, a) else out


def inward_op(meet: int | None) -> Op:
    """The step ``inward{meet}`` (``None``, written ``-``: no meeting colour)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return inward(a, bg_for(a, ctx), meet)

    return Op(f"inward{{{'-' if meet is None else meet}}}", INWARD_COST, prim, "same")


def fit_inward(given: FitInput) -> list[Op]:
    """The ``inward`` step that gives every demonstration output and changes the test input."""
    if any(a.shape != o.shape for a, o in zip(given.inputs, given.outputs, strict=False)):
        return []
    meets: set[int] = set()
    for a, o, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        reached = _reached(a, bg_for(a, ctx))
        if reached is None:
            return []
        meets.update(int(c) for c in np.unique(o[reached[0] == _TIE]))
    if len(meets) > 1:
        return []
    return changing_answers(given, [inward_op(next(iter(meets)) if meets else None)])


def parse_inward(text: str) -> Op | None:
    """The ``inward`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "inward")
    if body is None or not (body == "-" or (body.isdigit() and int(body) < 10)):
        return None
    op = inward_op(None if body == "-" else int(body))
    return op if op.text == text else None


FITTER = Fitter("inward{", {"inward": INWARD_COST}, fit_inward, parse_inward)
"""The fitter of ``inward{...}``: border cells shooting straight in, meeting halfway."""
