"""Corner rays: the bends of thin strokes shoot diagonal lines, out of the bend or into it.

Where a stroke turns a right angle (an L, the corners of a cup or of an open frame) the corner
cell points diagonally two ways: outward, away from both its arms, and inward, across the gap
the two arms enclose. Tasks draw a diagonal line either way from every such corner. ``drawing``
shoots diagonals only from cells that jut out diagonally (a tip), which a bend's cell is not.

A *corner* is a foreground cell with exactly two neighbours of its own colour, one along each
axis, and the cell between those neighbours not of its colour (a bend, not the inside of a
block). ``corners{way;colour}`` draws from each corner a diagonal over background cells up to
the first foreground cell or the border: ``out`` starts beside the corner, away from its arms;
``in`` crosses the gap between the arms and starts beyond it (the corner's 2 x 2 box is left
alone). Lines take the corner's colour (``=``), the grid's other foreground colour (``x``, when
there is exactly one other: a frame drawn in the colour of what it holds) or a fixed one. Both
constants are fitted from the demonstrations (`fit`) and written into the text.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .drawn import WayColour
from .family import Op
from .grid import SENTINEL, Array

__all__ = ["CORNERS", "CORNERS_COST", "MAX_CORNERS", "corners_op", "parse_corners"]

CORNERS_COST = 2.5
"""The base cost of a ``corners`` step."""

MAX_CORNERS = 16
"""The most corners a grid may hold: past that the strokes are a texture, not shapes."""

_WAYS = ("out", "in")
_OWN, _OTHER = -1, -2
_NAMES = {_OWN: "=", _OTHER: "x"}


def _corners(a: Array, bg: int) -> list[tuple[int, int, int, int]]:
    """Each corner ``(y, x, dy, dx)``, ``(dy, dx)`` pointing out of its bend, in reading order."""
    padded = np.pad(a.astype(np.int16), 1, constant_values=-1)
    found = []
    for y, x in zip(*np.nonzero(a != bg), strict=True):
        y, x = int(y), int(x)
        c = int(a[y, x])
        box = padded[y : y + 3, x : x + 3] == c
        if int(box[0, 1]) + int(box[2, 1]) + int(box[1, 0]) + int(box[1, 2]) != 2:
            continue
        for dy, dx in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            # The arms lie opposite the way out: one along each axis, the cell between them open.
            if box[1 - dy, 1] and box[1, 1 - dx] and not box[1 - dy, 1 - dx]:
                found.append((y, x, dy, dx))
    return found


def _draw(a: Array, bg: int, way: str, colour: int) -> Array | None:
    """``a`` with every corner's diagonal drawn; ``None`` when none is drawn."""
    if int(a.max()) >= SENTINEL:
        return None
    found = _corners(a, bg)
    if not 0 < len(found) <= MAX_CORNERS:
        return None
    fg = sorted({int(v) for v in np.unique(a)} - {bg})
    h, w = a.shape
    out = a.copy()
    for y, x, dy, dx in found:
        own = int(a[y, x])
        if colour == _OTHER:
            others = [c for c in fg if c != own]
            if len(others) != 1:
                return None
            paint = others[0]
        else:
            paint = own if colour == _OWN else colour
        # Outward from beside the corner; inward from beyond the gap its arms enclose.
        if way == "in":
            dy, dx = -dy, -dx
            y, x = y + dy, x + dx
        y, x = y + dy, x + dx
        while 0 <= y < h and 0 <= x < w and int(a[y, x]) == bg:
            out[y, x] = paint
            y, x = y + dy, x + dx
    return None if np.array_equal(out, a) else out


_STEPS = WayColour("corners", CORNERS_COST, _draw, _WAYS, _NAMES)


def corners_op(way: str, colour: int = _OWN) -> Op:
    """The step ``corners{way;colour}`` (``colour`` -1: the corner's own, -2: the other colour)."""
    return _STEPS.op(way, colour)


def parse_corners(text: str) -> Op | None:
    """The ``corners`` step written as ``text``, or ``None`` when it is malformed."""
    return _STEPS.parse(text)


def fit(given: FitInput) -> list[Op]:
    """The ``corners`` steps that turn every demonstration input into its output."""
    return _STEPS.fit(given)


CORNERS = Fitter("corners{", {"corners": CORNERS_COST}, fit, parse_corners)
"""The fitter of ``corners{...}``: diagonal lines from the bends of strokes."""
