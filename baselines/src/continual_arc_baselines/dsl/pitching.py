"""Pitch: stripes at the markers' spacing: lines repeated at the pitch two or more marker pixels set.

A few marker pixels stand on a background, at distinct positions along one axis. The scene asks
for a full line through each marker, the lines repeating at the markers' own spacing (and in
their colours, in turn) on to the grid's edge: two pixels three columns apart, red then blue,
make red and blue columns alternating every three columns from the first marker on.

``pitch{axis;reach}`` draws them. ``axis`` says which lines: ``v`` columns (markers spaced
along a row), ``h`` rows, ``long`` columns in a wide grid and rows in a tall one (the markers
are spaced along the longer side). ``reach`` says where the repeat runs: ``on`` from the first
marker to the far edge, ``both`` to both edges. The colours are the markers' own, so nothing
but these two words is fitted (`fit`); the step applies only when the markers' positions along
the axis are evenly spaced and each line position holds one colour.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op, Prim
from .grid import SENTINEL, Array, Context

__all__ = ["PITCH", "PITCH_COST", "parse_pitch", "pitch_op"]

PITCH_COST = 2.5
"""The base cost of a ``pitch`` step."""

_AXES = ("long", "v", "h")
_REACHES = ("on", "both")


def _columns(a: Array, bg: int, reach: str) -> Array | None:
    """``a`` with column stripes repeated at its markers' spacing; ``None`` when not evenly spaced."""
    fg = a != bg
    cols = np.flatnonzero(fg.any(axis=0))
    if cols.size < 2:
        return None
    colours: list[int] = []
    for c in cols:
        seen = np.unique(a[fg[:, c], c])
        if seen.size != 1:  # one line, one colour
            return None
        colours.append(int(seen[0]))
    steps = np.diff(cols)
    pitch = int(steps[0])
    if np.any(steps != pitch) or pitch < 2:  # adjacent lines would be a block, not stripes
        return None
    first = int(cols[0])
    start = first - (first // pitch) * pitch if reach == "both" else first
    out = a.copy()
    for line in range(start, a.shape[1], pitch):
        out[:, line] = colours[((line - first) // pitch) % len(colours)]
    return out


def _stripes(a: Array, bg: int, axis: str, reach: str) -> Array | None:
    """``a`` with its markers' stripes drawn along ``axis``; ``None`` when it has none."""
    if int(a.max()) >= SENTINEL:
        return None
    if axis == "long":
        if a.shape[0] == a.shape[1]:
            return None
        axis = "v" if a.shape[1] > a.shape[0] else "h"
    if axis == "v":
        return _columns(a, bg, reach)
    made = _columns(a.T, bg, reach)
    return None if made is None else np.ascontiguousarray(made.T)


def pitch_op(axis: str, reach: str) -> Op:
    """The step ``pitch{axis;reach}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _stripes(a, ctx.bg, axis, reach)

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
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        if a.shape != b.shape:
            return []
        ch = a != b
        # Stripes are drawn over the background only.
        if not ch.any() or np.any(a[ch] != ctx.bg):
            return []
    ops = [pitch_op(axis, reach) for axis in _AXES for reach in _REACHES]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


PITCH = Fitter("pitch{", {"pitch": PITCH_COST}, fit, parse_pitch)
"""The fitter of ``pitch{...}``: lines repeated at the markers' spacing, in their colours."""
