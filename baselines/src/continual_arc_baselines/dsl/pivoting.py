"""Pivoting: the grid's pattern reflected about the centre of a marker colour's cells.

A shape drawn beside a small marker (a 2x2 block, a dot, a bar) is copied as if the marker were a
mirror or a pivot: reflected left to right, up and down, both (four copies around it), or turned
half round. `symmetry` and `layers` complete symmetries about axes fitted to the whole grid's
pattern; here the axes pass through the centre of the marker's cells, so a shape with nothing
yet on the far side is copied there. The step is written ``pivot(axes){marker}``:

* ``axes`` (`AXES`): ``h`` reflects left to right, ``v`` up and down, ``hv`` both (and so the
  half turn too: four copies), ``r`` the half turn alone;
* ``marker``: the colour whose cells' box has the centre (a literal, or a role of
  `colours.ROLES` when no literal serves every demonstration).

Every cell that is neither background nor the marker is copied to its images; a copy paints only
background cells and is dropped off the grid. The fitter offers a step only when it reproduces
every demonstration and changes the test input; of those giving one answer, the cheapest.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["AXES", "FITTER", "PIVOT_COST", "fit_pivot", "parse_pivot", "pivot", "pivot_op"]

AXES = ("hv", "h", "v", "r")
"""The reflections about the marker's centre: both ways, left to right, up and down, half turn."""

PIVOT_COST = 4.0
"""The base cost of a pivot: a fitted marker colour and a choice of reflections."""

_IMAGES = {"h": ((1, -1),), "v": ((-1, 1),), "r": ((-1, -1),), "hv": ((1, -1), (-1, 1), (-1, -1))}
"""Per choice of axes, the images as (row sign, column sign) about the centre."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def pivot(a: Array, bg: int, marker: int, axes: str) -> Array | None:
    """``a`` with its pattern reflected about the centre of the ``marker`` cells' box."""
    own = a == marker
    if marker == bg or not own.any():
        return None
    ys, xs = np.nonzero(own)
    # Twice the centre: an image of y is (y0 + y1) - y, exact for boxes of either parity.
    cy, cx = int(ys.min() + ys.max()), int(xs.min() + xs.max())
    py, px = np.nonzero((a != bg) & ~own)
    if py.size == 0:
        return None
    out = a.copy()
    h, w = a.shape
    for sy, sx in _IMAGES[axes]:
        ty = py if sy > 0 else cy - py
        tx = px if sx > 0 else cx - px
        inside = (ty >= 0) & (ty < h) & (tx >= 0) & (tx < w)
        ty, tx, colours = ty[inside], tx[inside], a[py[inside], px[inside]]
        free = out[ty, tx] == bg
        out[ty[free], tx[free]] = colours[free]
    return out


def pivot_op(axes: str, marker: str) -> Op:
    """The step ``pivot(axes){marker}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        colour = resolve(marker, roles(ctx.original))
        if colour is None or int(a.max()) >= SENTINEL:
            return None
        return pivot(a, bg_for(a, ctx), colour, axes)

    step: Prim = prim
    return Op(f"pivot({axes}){{{marker}}}", PIVOT_COST + (marker[0] == "c") / 4, step, "same")


def _markers(given: FitInput) -> list[str]:
    """The colours no demonstration changes, each holds, and none has as background."""
    demos = list(zip(given.inputs[: given.n], given.outputs, given.contexts[: given.n], strict=True))
    steady = [
        str(c)
        for c in range(SENTINEL)
        if all(c != ctx.bg and (a == c).any() and not ((a == c) & (a != b)).any() for a, b, ctx in demos)
    ]
    if steady:
        return steady
    found = []
    for role in ROLES:
        colours = [roles(a).get(role) for a, _, _ in demos]
        if all(
            c is not None and c != ctx.bg and not ((a == c) & (a != b)).any()
            for c, (a, b, ctx) in zip(colours, demos, strict=True)
        ):
            found.append(role)
    return found


def fit_pivot(given: FitInput) -> list[Op]:
    """The pivots that reproduce every demonstration and change the test input, cheapest first."""
    n = given.n
    if not given.keeps_size:
        return []
    # A pivot only adds: every change paints a background cell.
    if any(
        ((a != b) & (a != ctx.bg)).any()
        for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False)
    ):
        return []
    if all(np.array_equal(a, b) for a, b in zip(given.inputs, given.outputs, strict=False)):
        return []
    test, ctx = given.inputs[n], given.contexts[n]
    found = []
    for marker in _markers(given):
        for axes in AXES:
            op = pivot_op(axes, marker)
            answer = op(test, ctx)
            if answer is None or np.array_equal(answer, test) or not given.reproduced_by(op):
                continue
            found.append(op)
    found.sort(key=lambda op: op.cost)
    return one_per_answer(given, found)


def parse_pivot(text: str) -> Op | None:
    """The pivot written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    axes = head.removeprefix("pivot(")
    marker = body.removesuffix("}")
    if not sep or axes not in AXES or not body.endswith("}") or marker not in (*ROLES, *_LITERALS):
        return None
    op = pivot_op(axes, marker)
    return op if op.text == text else None


FITTER = Fitter("pivot(", {f"pivot({axes})": PIVOT_COST for axes in AXES}, fit_pivot, parse_pivot)
"""The fitter of pivots."""
