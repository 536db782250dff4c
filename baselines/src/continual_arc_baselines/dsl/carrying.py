"""Carrying a pattern on by its own step: a staircase or a column of motifs grown to a fixed size.

`layout`'s ``continue`` repeats a pattern along rows and columns. A pattern that repeats along a
slant (a staircase, each step a copy of the last one moved down and across) carries on only by
its own translation: the smallest ``(dy, dx)``, ``dy`` at most half the grid's height, under
which every row is the row ``dy`` above it moved ``dx`` across (cells moved in from beyond the
edge are background). ``carry(v){H}`` finds it on each grid and adds rows below by it until the
grid is ``H`` rows tall; ``carry(h){W}`` carries columns across the same way. The size is
fitted: the one height (width) of every demonstration's output, whose width (height) is its
input's.
"""

from __future__ import annotations

import numpy as np

from continual_arc.grids import MAX_SIDE

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import Array, Context, bg_for

__all__ = ["CARRY_COST", "FITTER", "carry", "carry_op", "parse_carry", "step_of"]

CARRY_COST = 2.5
"""The base cost of ``carry{H,W}``: its size is fitted."""


def _moved(row: Array, dx: int, bg: int) -> Array:
    """``row`` moved ``dx`` cells right (left when negative), background moved in."""
    out = np.full_like(row, bg)
    w = len(row)
    if dx >= 0:
        out[dx:] = row[: w - dx]
    else:
        out[: w + dx] = row[-dx:]
    return out


def step_of(a: Array, bg: int) -> tuple[int, int] | None:
    """The smallest translation that carries ``a``'s rows onto the rows ``dy`` below (see the module)."""
    h, w = a.shape
    if not (a != bg).any():
        return None
    for dy in range(1, h // 2 + 1):
        for dx in sorted(range(-(w - 1), w), key=lambda d: (abs(d), d < 0)):
            if all(np.array_equal(a[y], _moved(a[y - dy], dx, bg)) for y in range(dy, h)):
                return dy, dx
    return None


def carry(a: Array, bg: int, height: int) -> Array | None:
    """``a`` carried down by its own step to ``height`` rows, or ``None`` if it has none."""
    h = a.shape[0]
    if height <= h:
        return None
    step = step_of(a, bg)
    if step is None:
        return None
    dy, dx = step
    rows = list(a)
    while len(rows) < height:
        rows.append(_moved(rows[len(rows) - dy], dx, bg))
    return np.array(rows, dtype=np.uint8)


def _prim(way: str, size: int) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        if way == "v":
            return carry(a, bg, size)
        across = carry(a.T, bg, size)
        return None if across is None else across.T

    return prim


def carry_op(way: str, size: int) -> Op:
    """The step ``carry(way){size}``."""
    return Op(f"carry({way}){{{size}}}", CARRY_COST, _prim(way, size), "grow")


def parse_carry(text: str) -> Op | None:
    """The step a ``carry(way){size}`` text names, or ``None`` when it names none."""
    head, _, body = text.partition("){")
    way, size = head.removeprefix("carry("), body.removesuffix("}")
    if way not in ("v", "h") or not size.isdigit() or not 0 < int(size) <= MAX_SIDE:
        return None
    op = carry_op(way, int(size))
    return op if op.text == text else None


def fit_carry(given: FitInput) -> list[Op]:
    """The carry to the outputs' one height (or width), if it reproduces every demonstration."""
    pairs = list(zip(given.inputs, given.outputs, strict=False))
    for way, keep, grow in (("v", 1, 0), ("h", 0, 1)):
        if any(a.shape[keep] != out.shape[keep] for a, out in pairs):
            continue
        sizes = {out.shape[grow] for _, out in pairs}
        if len(sizes) != 1:
            continue
        op = carry_op(way, sizes.pop())
        if given.reproduced_by(op):
            return [op]
    return []


FITTER = Fitter("carry(", {"carry(v)": CARRY_COST, "carry(h)": CARRY_COST}, fit_carry, parse_carry)
"""The fitter of carried patterns."""
