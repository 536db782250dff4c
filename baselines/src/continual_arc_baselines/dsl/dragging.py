"""Dragging: the grid on a larger canvas, copied again and again one step further along a direction.

Some outputs are their input placed on a canvas some whole number of times its size, then copied
at every multiple of one short step until the copies leave the canvas, so each cell drags a
trail of itself (a diagonal streak, a staircase). ``drag{dy,dx,ry,rx}`` does that: the canvas is
``ry x rx`` times the grid, the grid sits in the corner the step leads away from, and where copies
meet an earlier copy's foreground wins over a later one's. The step and the factors are fitted:
the factors from the ratio of every output's sides to its input's, the step as the one of the
eight single steps (then the sixteen double ones) that reproduces every demonstration.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import Array, Context, bg_for

__all__ = ["DRAG_COST", "FITTER", "drag", "drag_op", "parse_drag"]

DRAG_COST = 3.0
"""The base cost of ``drag{...}``: four fitted constants."""

_STEPS = tuple(
    (dy, dx)
    for reach in (1, 2)
    for dy in range(-reach, reach + 1)
    for dx in range(-reach, reach + 1)
    if max(abs(dy), abs(dx)) == reach
)
"""The steps a trail may take, the single ones first."""

_MAX_FACTOR = 4


def drag(a: Array, bg: int, dy: int, dx: int, ry: int, rx: int) -> Array | None:
    """``a`` on a canvas ``ry x rx`` times its size, trailing by ``(dy, dx)`` (see the module)."""
    h, w = a.shape
    H, W = h * ry, w * rx
    out = np.full((H, W), bg, dtype=np.uint8)
    top = 0 if dy >= 0 else H - h
    left = 0 if dx >= 0 else W - w
    fg = a != bg
    # Later copies go first, so the earlier ones paint over them.
    copies = []
    t = 0
    while True:
        y, x = top + t * dy, left + t * dx
        if y >= H or x >= W or y + h <= 0 or x + w <= 0:
            break
        copies.append((y, x))
        t += 1
    for y, x in reversed(copies):
        y0, x0 = max(y, 0), max(x, 0)
        y1, x1 = min(y + h, H), min(x + w, W)
        part = fg[y0 - y : y1 - y, x0 - x : x1 - x]
        out[y0:y1, x0:x1][part] = a[y0 - y : y1 - y, x0 - x : x1 - x][part]
    return out


def _prim(dy: int, dx: int, ry: int, rx: int) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return drag(a, bg_for(a, ctx), dy, dx, ry, rx)

    return prim


def drag_op(dy: int, dx: int, ry: int, rx: int) -> Op:
    """The step ``drag{dy,dx,ry,rx}``."""
    return Op(f"drag{{{dy},{dx},{ry},{rx}}}", DRAG_COST, _prim(dy, dx, ry, rx), "grow")


def parse_drag(text: str) -> Op | None:
    """The step a ``drag{dy,dx,ry,rx}`` text names, or ``None`` when it names none."""
    fields = text.removeprefix("drag{").removesuffix("}").split(",")
    try:
        dy, dx, ry, rx = (int(f) for f in fields)
    except ValueError:
        return None
    if (dy, dx) not in _STEPS or not (1 <= ry <= _MAX_FACTOR and 1 <= rx <= _MAX_FACTOR) or ry * rx < 2:
        return None
    op = drag_op(dy, dx, ry, rx)
    return op if op.text == text else None


def fit_drag(given: FitInput) -> list[Op]:
    """The first trail that reproduces every demonstration, if the outputs are whole multiples."""
    factors = set()
    for a, out in zip(given.inputs, given.outputs, strict=False):
        (h, w), (oh, ow) = a.shape, out.shape
        if oh % h or ow % w:
            return []
        factors.add((oh // h, ow // w))
    if len(factors) != 1:
        return []
    ry, rx = factors.pop()
    if not (1 <= ry <= _MAX_FACTOR and 1 <= rx <= _MAX_FACTOR) or ry * rx < 2:
        return []
    for dy, dx in _STEPS:
        op = drag_op(dy, dx, ry, rx)
        if given.reproduced_by(op):
            return [op]
    return []


FITTER = Fitter("drag{", {"drag": DRAG_COST}, fit_drag, parse_drag)
"""The fitter of dragged copies."""
