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

from .catalogue import FitInput, Fitter
from .drawn import WayColour
from .family import Op
from .grid import SENTINEL, Array
from .objects import label

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


_STEPS = WayColour("axes", AXES_COST, _axes, _LINES, _NAMES)


def axes_op(lines: str, colour: int = _OWN) -> Op:
    """The step ``axes{lines;colour}`` (``colour`` -1: each line in its object's colour)."""
    return _STEPS.op(lines, colour)


def parse_axes(text: str) -> Op | None:
    """The ``axes`` step written as ``text``, or ``None`` when it is malformed."""
    return _STEPS.parse(text)


def fit(given: FitInput) -> list[Op]:
    """The ``axes`` steps that turn every demonstration input into its output."""
    return _STEPS.fit(given)


AXES = Fitter("axes{", {"axes": AXES_COST}, fit, parse_axes)
"""The fitter of ``axes{...}``: every object's middle row and column drawn across the grid."""
