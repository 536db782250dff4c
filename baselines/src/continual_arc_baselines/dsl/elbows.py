"""Elbows: a path of two straight legs joining the one cell of one colour to the one cell of another.

A scene with a single cell of colour ``a`` and a single cell of colour ``b`` (a start and an end)
is often joined by an L-shaped path: from ``a`` along its row to ``b``'s column, then along that
column to ``b`` (or first along the column). No straight ray draws it, since the corner is where
no source stands; ``connect`` joins cells of one colour on one line only.

``elbow{a;b;first;c}`` paints the background cells of that path, the two ends excluded, in colour
``c``; ``first`` (``h`` or ``v``) is the axis of the leg that leaves ``a``. When the two cells share
a row or a column the path is the straight line between them. The step does not apply when a grid
holds not exactly one cell of each colour. The constants are fitted from the demonstrations
(`fit`) and written into the text, so a kept program runs with no demonstrations.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colour
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .steptext import braced, parse_colour

__all__ = ["ELBOW", "ELBOW_COST", "elbow_op", "parse_elbow"]

ELBOW_COST = 2.5
"""The base cost of an ``elbow`` step (four small constants: two ends, an axis, a colour)."""

_AXES = ("h", "v")


def _single(a: Array, colour: int) -> tuple[int, int] | None:
    """The one cell of ``colour`` in ``a``, or ``None`` when there is not exactly one."""
    ys, xs = np.nonzero(a == colour)
    return (int(ys[0]), int(xs[0])) if len(ys) == 1 else None


def _elbow(a: Array, bg: int, start: int, end: int, first: str, colour: int) -> Array | None:
    """``a`` with the path from the ``start`` cell to the ``end`` cell painted, if both are single."""
    p, q = _single(a, start), _single(a, end)
    if p is None or q is None:
        return None
    (y0, x0), (y1, x1) = p, q
    # The corner: where the first leg, leaving the start along ``first``, meets the end's line.
    cy, cx = (y0, x1) if first == "h" else (y1, x0)
    path = np.zeros(a.shape, dtype=bool)
    path[min(y0, cy) : max(y0, cy) + 1, min(x0, cx) : max(x0, cx) + 1] = True
    path[min(y1, cy) : max(y1, cy) + 1, min(x1, cx) : max(x1, cx) + 1] = True
    path[y0, x0] = path[y1, x1] = False
    on = path & (a == bg)
    if not on.any():
        return None
    out = a.copy()
    out[on] = colour
    return out


def _text(start: int, end: int, first: str, colour: int) -> str:
    return f"elbow{{{start};{end};{first};{colour}}}"


def elbow_op(start: int, end: int, first: str, colour: int) -> Op:
    """The step ``elbow{start;end;first;colour}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _elbow(a, ctx.bg, start, end, first, colour)

    step: Prim = prim
    return Op(_text(start, end, first, colour), ELBOW_COST, step, "same")


def parse_elbow(text: str) -> Op | None:
    """The ``elbow`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "elbow")
    if body is None:
        return None
    parts = body.split(";")
    if len(parts) != 4 or parts[2] not in _AXES:
        return None
    start, end, colour = parse_colour(parts[0]), parse_colour(parts[1]), parse_colour(parts[3])
    if start is None or end is None or colour is None or start == end:
        return None
    op = elbow_op(start, end, parts[2], colour)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``elbow`` steps that turn every demonstration input into its output."""
    # The path is drawn over the background only, in one colour, in every pair.
    colour = painted_colour(given)
    if colour is None:
        return []
    # The ends: colours with exactly one cell in every grid, the test's too.
    grids = list(zip(given.inputs, given.contexts, strict=True))
    ends = [c for c in range(SENTINEL) if all(c != ctx.bg and _single(a, c) is not None for a, ctx in grids)]
    ops = [
        elbow_op(start, end, first, colour)
        for start in ends
        for end in ends
        if start != end
        for first in _AXES
    ]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


ELBOW = Fitter("elbow{", {"elbow": ELBOW_COST}, fit, parse_elbow)
"""The fitter of ``elbow{...}``: an L-shaped path between the single cells of two colours."""
