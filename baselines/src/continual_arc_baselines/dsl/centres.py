"""Centre lines: the middle row and column of each object, drawn across the whole grid.

A frame, a plus or a block with an odd side has a middle line; a task may mark it through the
whole scene (a cross of lines through every square's centre), over the background only. No ray
shoots from a middle cell that is itself background (a hollow frame's centre), and ``extend``
shoots from every cell, not from the middle.

``axes{lines;colour}`` draws, for every object (cells of one colour, 8-connected), its middle row
(``h``), its middle column (``v``) or both (``hv``) where its bounding box has an odd side, over
every background cell of the grid, in the object's colour (``=``) or a fixed one. The two
constants are fitted from the demonstrations (`fit`) and written into the text.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colours
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .objects import label
from .steptext import braced, colour_text, parse_colour

__all__ = ["AXES", "AXES_COST", "MAX_OBJECTS", "axes_op", "parse_axes"]

AXES_COST = 2.5
"""The base cost of an ``axes`` step."""

MAX_OBJECTS = 12
"""The most objects a grid may hold: past that, lines through every one fill a texture's grid."""

_LINES = ("hv", "h", "v")
_OWN = -1
_NAMES = {_OWN: "="}


def _axes(a: Array, bg: int, lines: str, colour: int) -> Array | None:
    """``a`` with the middle lines of its objects drawn; ``None`` when none is drawn."""
    if int(a.max()) >= SENTINEL:
        return None
    labels = label(a, a != bg, True, True)
    n = int(labels.max()) + 1
    if not 0 < n <= MAX_OBJECTS:
        return None
    out = a.copy()
    free = a == bg
    for i in range(n):
        ys, xs = np.nonzero(labels == i)
        paint = int(a[ys[0], xs[0]]) if colour == _OWN else colour
        top, bottom, left, right = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
        # Only an odd side has a single middle line; an object one cell thick is its own line.
        if "h" in lines and (bottom - top) % 2 == 0 and right > left:
            row = (top + bottom) // 2
            out[row, free[row]] = paint
        if "v" in lines and (right - left) % 2 == 0 and bottom > top:
            col = (left + right) // 2
            out[free[:, col], col] = paint
    return None if np.array_equal(out, a) else out


def _text(lines: str, colour: int) -> str:
    return f"axes{{{lines};{colour_text(colour, _NAMES)}}}"


def axes_op(lines: str, colour: int = _OWN) -> Op:
    """The step ``axes{lines;colour}`` (``colour`` -1: each line in its object's colour)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _axes(a, ctx.bg, lines, colour)

    step: Prim = prim
    return Op(_text(lines, colour), AXES_COST, step, "same")


def parse_axes(text: str) -> Op | None:
    """The ``axes`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "axes")
    if body is None:
        return None
    lines, _, colour = body.partition(";")
    if lines not in _LINES:
        return None
    paint = parse_colour(colour, _NAMES)
    if paint is None:
        return None
    op = axes_op(lines, paint)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``axes`` steps that turn every demonstration input into its output."""
    # Lines are drawn over the background only, and every pair draws some.
    painted = painted_colours(given)
    if painted is None:
        return []
    colours = [_OWN, *sorted(painted)] if len(painted) == 1 else [_OWN]
    ops = [axes_op(lines, colour) for lines in _LINES for colour in colours]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


AXES = Fitter("axes{", {"axes": AXES_COST}, fit, parse_axes)
"""The fitter of ``axes{...}``: every object's middle row and column drawn across the grid."""
