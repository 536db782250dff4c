"""Pitch: stripes at the markers' spacing: lines repeated at the pitch two or more marker pixels set.

A few marker pixels stand on a background, at distinct positions along one axis. The scene asks
for a full line through each marker, the lines repeating at the markers' own spacing (and in
their colours, in turn) on to the grid's edge: two pixels three columns apart, red then blue,
make red and blue columns alternating every three columns from the first marker on.

``pitch{axis;reach}`` draws them. ``axis`` says which lines: ``v`` columns (markers spaced
along a row), ``h`` rows, ``long`` columns in a wide grid and rows in a tall one (the markers
are spaced along the longer side), ``ring`` square rings about the centre of the markers' box
(markers on a diagonal through it set the rings' spacing: concentric squares). ``reach`` says
where the repeat runs: ``on`` from the first marker to the far edge, ``both`` to both edges.
The colours are the markers' own, so nothing but these two words is fitted (`fit`); the step
applies only when the markers' positions along the axis are evenly spaced (at least two apart)
and each position holds one colour.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import background_paints
from .family import Op, Prim
from .grid import SENTINEL, Array, Context

__all__ = ["PITCH", "PITCH_COST", "parse_pitch", "pitch_op"]

PITCH_COST = 2.5
"""The base cost of a ``pitch`` step."""

_AXES = ("long", "v", "h", "ring")
_REACHES = ("on", "both")


def _distances(a: Array, bg: int, axis: str) -> npt.NDArray[np.int64] | None:
    """Each cell's position along ``axis``: its column, its row, or its ring about the centre."""
    h, w = a.shape
    rows, cols = np.indices((h, w))
    if axis == "long":
        if h == w:
            return None
        axis = "v" if w > h else "h"
    if axis == "v":
        return cols.astype(np.int64)
    if axis == "h":
        return rows.astype(np.int64)
    # Rings: the markers' box must have a centre cell, the rings' common centre.
    ys, xs = np.nonzero(a != bg)
    if ys.size == 0 or (ys.min() + ys.max()) % 2 or (xs.min() + xs.max()) % 2:
        return None
    cy, cx = (ys.min() + ys.max()) // 2, (xs.min() + xs.max()) // 2
    ring: npt.NDArray[np.int64] = np.maximum(abs(rows - cy), abs(cols - cx)).astype(np.int64)
    return ring


def _pitch(a: Array, bg: int, axis: str, reach: str) -> Array | None:
    """``a`` with its markers' lines repeated along ``axis``; ``None`` when not evenly spaced."""
    if int(a.max()) >= SENTINEL:
        return None
    at = _distances(a, bg, axis)
    if at is None:
        return None
    fg = a != bg
    places = np.unique(at[fg])
    if places.size < 2:
        return None
    colours: list[int] = []
    for place in places:
        seen = np.unique(a[fg & (at == place)])
        if seen.size != 1:  # one line, one colour
            return None
        colours.append(int(seen[0]))
    steps = np.diff(places)
    pitch = int(steps[0])
    if np.any(steps != pitch) or pitch < 2:  # adjacent lines would be a block, not stripes
        return None
    offset = at - int(places[0])
    on = offset % pitch == 0
    if reach == "on":
        on &= offset >= 0
    out = a.copy()
    index = (offset // pitch) % len(colours)
    out[on] = np.asarray(colours, dtype=a.dtype)[index[on]]
    return out


def pitch_op(axis: str, reach: str) -> Op:
    """The step ``pitch{axis;reach}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _pitch(a, ctx.bg, axis, reach)

    step: Prim = prim
    return Op(f"pitch{{{axis};{reach}}}", PITCH_COST, step, "same")


def parse_pitch(text: str) -> Op | None:
    """The ``pitch`` step written as ``text``, or ``None`` when it is malformed."""
    if not (text.startswith("pitch{") and text.endswith("}")):
        return None
    axis, _, reach = text[6:-1].partition(";")
    if axis not in _AXES or reach not in _REACHES:
        return None
    return pitch_op(axis, reach)


def fit(given: FitInput) -> list[Op]:
    """The ``pitch`` steps that turn every demonstration input into its output."""
    # Stripes are drawn over the background only.
    if background_paints(given) is None:
        return []
    ops = [pitch_op(axis, reach) for axis in _AXES for reach in _REACHES]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


PITCH = Fitter("pitch{", {"pitch": PITCH_COST}, fit, parse_pitch)
"""The fitter of ``pitch{...}``: lines repeated at the markers' spacing, in their colours."""
