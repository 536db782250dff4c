"""Beams: a shape with one marked cell is an arrow, and shoots a line the way it points.

A shape of one colour with a single cell of another (a triangle with a dot at its base, a cup
with a dot at its bottom) reads as an arrow: the line from the mark through the shape's middle
gives a direction. Tasks draw a line that way from the shape to the border. ``drawing``'s rays
take their directions from a fitted table, the same for every object of a key; here each
object's own shape chooses it.

``beam{way;colour}`` finds every object (8-connected cells of any colour) made of two colours,
the rarer one its mark, and the direction from the mark's centre to the centre of the other
cells, when that is straight or diagonal. With a single marked cell it draws from the mark that
way (``to``) or the opposite one (``from``), passing over the object's own cells and painting
background cells, up to the first cell of anything else or the border. With ``fan`` (a straight
direction) it draws instead the two diagonals flanking it, each from the end of the object's
front on its side (a cup's rim shooting outward). Lines take the mark's colour (``m``), the
body's (``b``) or a fixed one. Both constants are fitted from the demonstrations (`fit`).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .drawn import WayColour
from .family import Op
from .grid import SENTINEL, Array
from .objects import label

__all__ = ["BEAM", "BEAM_COST", "MAX_OBJECTS", "SLANT", "beam_op", "parse_beam"]

BEAM_COST = 2.5
"""The base cost of a ``beam`` step."""

MAX_OBJECTS = 12
"""The most objects a grid may hold: a beam is drawn from a few arrows, not from a texture."""

SLANT = 0.25
"""How far from a straight or diagonal line the mark-to-middle direction may stray (as a share)."""

_WAYS = ("to", "from", "fan")
_MARK, _BODY = -1, -2
_NAMES = {_MARK: "m", _BODY: "b"}


def _direction(dy: float, dx: float) -> tuple[int, int] | None:
    """The straight or diagonal step nearest ``(dy, dx)``, or ``None`` when it is neither."""
    big = max(abs(dy), abs(dx))
    if big < 0.1:
        return None  # the mark sits at the middle: no way is pointed
    sy, sx = int(np.sign(dy)), int(np.sign(dx))
    if min(abs(dy), abs(dx)) <= SLANT * big:
        return (sy, 0) if abs(dy) > abs(dx) else (0, sx)
    if abs(abs(dy) - abs(dx)) <= SLANT * big:
        return sy, sx
    return None


def _fan(out: Array, a: Array, bg: int, own: np.ndarray, step: tuple[int, int], paint: int) -> None:
    """Paint, into ``out``, the two diagonals that flank a straight ``step`` from the arrow's front.

    Each leaves the front cell furthest to its side (the ends of a cup's rim) and runs over the
    background up to anything else or the border.
    """
    dy, dx = step
    if dy and dx:
        return
    h, w = a.shape
    ys, xs = np.nonzero(own)
    reach = ys * dy + xs * dx
    front = reach == reach.max()
    py, px = dx, dy  # a step across the pointing direction
    for sign in (1, -1):
        side = (ys * py + xs * px) * sign
        at = int(np.flatnonzero(front & (side == side[front].max()))[0])
        sy, sx = dy + sign * py, dx + sign * px
        y, x = int(ys[at]) + sy, int(xs[at]) + sx
        while 0 <= y < h and 0 <= x < w and int(a[y, x]) == bg:
            out[y, x] = paint
            y, x = y + sy, x + sx


def _beam(a: Array, bg: int, way: str, colour: int) -> Array | None:
    """``a`` with every arrow's beam drawn; ``None`` when none is drawn."""
    if int(a.max()) >= SENTINEL:
        return None
    labels = label(a, a != bg, True, False)
    n = int(labels.max()) + 1
    if not 0 < n <= MAX_OBJECTS:
        return None
    h, w = a.shape
    out = a.copy()
    for i in range(n):
        own = labels == i
        values, counts = np.unique(a[own], return_counts=True)
        if len(values) != 2 or int(counts.min()) == int(counts.max()):
            continue
        mark, body = (
            (int(values[0]), int(values[1])) if counts[0] < counts[1] else (int(values[1]), int(values[0]))
        )
        marks = np.nonzero(own & (a == mark))
        if way != "fan" and len(marks[0]) != 1:
            continue  # a straight beam leaves from a single marked cell
        ys, xs = np.nonzero(own & (a == body))
        step = _direction(float(ys.mean() - marks[0].mean()), float(xs.mean() - marks[1].mean()))
        if step is None:
            continue
        paint = mark if colour == _MARK else body if colour == _BODY else colour
        if way == "fan":
            _fan(out, a, bg, own, step, paint)
            continue
        dy, dx = step if way == "to" else (-step[0], -step[1])
        y, x = int(marks[0][0]) + dy, int(marks[1][0]) + dx
        # Over the arrow's own cells, then over the background up to anything else.
        while 0 <= y < h and 0 <= x < w and (own[y, x] or int(a[y, x]) == bg):
            if not own[y, x]:
                out[y, x] = paint
            y, x = y + dy, x + dx
    return None if np.array_equal(out, a) else out


_STEPS = WayColour("beam", BEAM_COST, _beam, _WAYS, _NAMES)


def beam_op(way: str, colour: int = _MARK) -> Op:
    """The step ``beam{way;colour}`` (``colour`` -1: the mark's, -2: the body's)."""
    return _STEPS.op(way, colour)


def parse_beam(text: str) -> Op | None:
    """The ``beam`` step written as ``text``, or ``None`` when it is malformed."""
    return _STEPS.parse(text)


def fit(given: FitInput) -> list[Op]:
    """The ``beam`` steps that turn every demonstration input into its output."""
    return _STEPS.fit(given)


BEAM = Fitter("beam{", {"beam": BEAM_COST}, fit, parse_beam)
"""The fitter of ``beam{...}``: lines shot by marked shapes the way they point."""
