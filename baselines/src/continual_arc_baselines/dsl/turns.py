"""Turning lines: rays that reach the border turn a right angle and run along it.

A ray shot to the border may go on along it, like a pipe bent at a wall, until something stops
it: the border's end or the line another source drew there. ``drawing``'s rays end at the
border; the bend and the order in which the lines claim the border are what it lacks.

``turn{way;rot}`` traces, from each foreground cell of a sparse grid, a ray toward ``way`` over
background cells; one that reaches the border turns clockwise (``cw``) or anticlockwise
(``ccw``) and runs on over cells still background, up to anything (another line included) or
the border's end. Lines are drawn in their source's colour, the source furthest along the
second leg's direction first, so each bent line stops at the next one's. Both constants are
fitted from the demonstrations (`fit`) and written into the text.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import background_paints
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .steptext import braced

__all__ = ["MAX_SOURCES", "TURN", "TURN_COST", "parse_turn", "turn_op"]

TURN_COST = 2.5
"""The base cost of a ``turn`` step."""

MAX_SOURCES = 12
"""The most foreground cells a grid may hold for bent lines to be traced from them."""

_WAYS: dict[str, tuple[int, int]] = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
_ROTS = ("cw", "ccw")


def _turn(a: Array, bg: int, way: str, rot: str) -> Array | None:
    """``a`` with every source's bent line drawn; ``None`` when none is drawn."""
    if int(a.max()) >= SENTINEL:
        return None
    ys, xs = np.nonzero(a != bg)
    if not 0 < len(ys) <= MAX_SOURCES:
        return None
    dy, dx = _WAYS[way]
    # A clockwise quarter turn of (dy, dx) in (row, column) steps is (dx, -dy).
    ty, tx = (dx, -dy) if rot == "cw" else (-dx, dy)
    h, w = a.shape
    out = a.copy()
    # The source furthest along the second leg draws first: the others stop at its line.
    order = sorted(range(len(ys)), key=lambda i: (-(int(ys[i]) * ty + int(xs[i]) * tx), i))
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        paint = int(a[y, x])
        while 0 <= y + dy < h and 0 <= x + dx < w and int(out[y + dy, x + dx]) == bg:
            y, x = y + dy, x + dx
            out[y, x] = paint
        if 0 <= y + dy < h and 0 <= x + dx < w:
            continue  # stopped short of the border: no bend
        while 0 <= y + ty < h and 0 <= x + tx < w and int(out[y + ty, x + tx]) == bg:
            y, x = y + ty, x + tx
            out[y, x] = paint
    return None if np.array_equal(out, a) else out


def turn_op(way: str, rot: str) -> Op:
    """The step ``turn{way;rot}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _turn(a, ctx.bg, way, rot)

    step: Prim = prim
    return Op(f"turn{{{way};{rot}}}", TURN_COST, step, "same")


def parse_turn(text: str) -> Op | None:
    """The ``turn`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "turn")
    if body is None:
        return None
    way, _, rot = body.partition(";")
    if way not in _WAYS or rot not in _ROTS:
        return None
    op = turn_op(way, rot)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``turn`` steps that turn every demonstration input into its output."""
    # Lines are drawn over the background only, and every pair draws some.
    if background_paints(given) is None:
        return []
    ops = [turn_op(way, rot) for way in _WAYS for rot in _ROTS]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


TURN = Fitter("turn{", {"turn": TURN_COST}, fit, parse_turn)
"""The fitter of ``turn{...}``: rays bent at the border, each stopping at the next one's line."""
