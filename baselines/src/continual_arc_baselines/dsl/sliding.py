"""Sliding: a single row stacked into a block, each copy shifted one cell further than the last.

Some tasks give one row of cells and ask for the row to slide: the output stacks copies of it,
each moved one cell along from the one before, the cells it leaves behind filled either with the
row's own end cell (a bar that grows a step at each row, a staircase) or with one fixed colour
(the row trailing off diagonally). How many copies the block holds is read off the row: half its
length, its length, or its length times the number of its coloured cells; the block keeps the
row's width or is square. `dragging`'s ``drag`` copies a grid along a step on a canvas a fixed
number of times its size; here the block's size is read off the row, so it varies with each input.

``slide{count;width;way;side;pad}`` names one such block: ``count`` is ``half``, ``len`` or
``lenk`` (the copies), ``width`` is ``w`` (the row's) or ``n`` (square), ``way`` is ``d`` (the
row itself on top, sliding downwards) or ``u`` (the row itself at the bottom, sliding upwards),
``side`` is ``r`` or ``l`` (the way each copy moves), ``pad`` is ``e`` (the row's end cell) or a
colour. A single column slides the same way across (the grid read transposed). All five
constants are fitted from the demonstrations (`fit_slide`).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op
from .grid import Array, Context

__all__ = ["COUNTS", "FITTER", "MAX_SIDE", "SLIDE_COST", "fit_slide", "parse_slide", "slide_op"]

SLIDE_COST = 1.5
"""The base cost of a slide: fitted and strict (a whole block from one row), so it comes early."""

COUNTS = ("half", "len", "lenk")
"""How many copies a block holds: half the row's length, its length, length times coloured cells."""

MAX_SIDE = 30
"""The largest block side an ARC grid allows."""


def _copies(count: str, row: Array, pad: int | None) -> int:
    """The number of copies ``count`` asks of ``row`` (its coloured cells are those not ``pad``)."""
    n = len(row)
    if count == "half":
        return n // 2
    if count == "len":
        return n
    if pad is None:
        return 0
    return n * int(np.count_nonzero(row != pad))


def _slid(row: Array, shift: int, width: int, pad: int | None) -> Array:
    """``row`` moved ``shift`` cells right (left when negative) in a line of ``width`` cells."""
    n = len(row)
    line = np.full(width, 0 if pad is None else pad, dtype=row.dtype)
    if pad is None:
        # The row's end cells fill what the move leaves behind, so a bar grows a step.
        line[: max(0, min(width, shift))] = row[0]
        line[max(0, shift + n) :] = row[-1]
    lo, hi = max(0, shift), min(width, shift + n)
    if lo < hi:
        line[lo:hi] = row[lo - shift : hi - shift]
    return line


def slide_row(row: Array, count: str, square: bool, up: bool, right: bool, pad: int | None) -> Array | None:
    """The block of shifted copies of ``row`` the constants name (``None``: empty or too large)."""
    copies = _copies(count, row, pad)
    width = copies if square else len(row)
    if not (1 < copies <= MAX_SIDE and 0 < width <= MAX_SIDE):
        return None
    sign = 1 if right else -1
    lines = [_slid(row, sign * k, width, pad) for k in range(copies)]
    if up:
        lines.reverse()
    return np.stack(lines)


def slide_op(count: str, square: bool, up: bool, right: bool, pad: int | None) -> Op:
    """The step sliding a one-row (or one-column) grid into a block of shifted copies."""

    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if h == 1 and w > 1:
            return slide_row(a[0], count, square, up, right, pad)
        if w == 1 and h > 1:
            block = slide_row(a[:, 0], count, square, up, right, pad)
            return None if block is None else block.T
        return None

    ends = "e" if pad is None else str(pad)
    consts = [count, "n" if square else "w", "u" if up else "d", "r" if right else "l", ends]
    # "other", not "grow": half as many square copies of a long row make a block narrower than it.
    return Op(f"slide{{{';'.join(consts)}}}", SLIDE_COST, prim, "other")


def parse_slide(text: str) -> Op | None:
    """The step a ``slide{...}`` text names, or ``None`` when it names none."""
    parts = text.removeprefix("slide{").removesuffix("}").split(";")
    if len(parts) != 5:
        return None
    count, width, way, side, pad = parts
    if count not in COUNTS or width not in "wn" or way not in "ud" or side not in "rl" or len(pad) != 1:
        return None
    if not (pad == "e" or pad.isdigit()):
        return None
    op = slide_op(count, width == "n", way == "u", side == "r", None if pad == "e" else int(pad))
    return op if op.text == text else None


def fit_slide(given: FitInput) -> list[Op]:
    """The slides that turn every demonstration's single row (or column) into its output."""
    if not all(min(a.shape) == 1 and max(a.shape) > 1 for a in given.inputs):
        return []
    if any(a.shape == b.shape for a, b in zip(given.inputs, given.outputs, strict=False)):
        return []
    # The pad colour, when it is one colour, fills the far corner of every output a slide makes.
    corners = {int(b[i, j]) for b in given.outputs for i in (0, -1) for j in (0, -1)}
    pads: list[int | None] = [None, *sorted(corners)]
    ops = [
        slide_op(count, square, up, right, pad)
        for pad in pads
        for count in COUNTS
        for square in (False, True)
        for up in (False, True)
        for right in (True, False)
    ]
    return changing_answers(given, ops)


FITTER = Fitter("slide{", {"slide": SLIDE_COST}, fit_slide, parse_slide)
"""The fitter of sliding rows, searched in ``wide`` (the default)."""
