"""Bouncing mirrors: a grid reflected back and forth about its edge lines, the seams drawn once.

`sizing`'s ``mirror`` concatenates a grid with its mirror image, so the line at the seam shows
twice. A pattern that bounces (a zigzag, a wave, a palindrome) reflects about its last row,
which then shows once: the grid, its upside-down copy less the shared row, the grid again less
its first row, and so on. ``bounce(v){m}`` carries this on to ``m * (h - 1) + 1`` rows (``m``
copies of the grid's ``h - 1`` steps); ``bounce(v2)`` grows upwards, ``bounce(h)`` and
``bounce(h2)`` across, ``bounce(hv)`` both ways. ``m`` is fitted: the one number that turns every
demonstration's side into its output's, and the step is offered only when it reproduces them.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import Array, Context

__all__ = ["BOUNCES", "BOUNCE_COST", "FITTER", "bounce", "bounce_op", "parse_bounce"]

BOUNCES = ("v", "v2", "h", "h2", "hv")
"""Which way the grid grows: down, up, right, left, or right and down."""

BOUNCE_COST = 2.5
"""The base cost of ``bounce(way){m}``: above ``mirror``'s 2, as its length is fitted."""

_MAX_TIMES = 16


def _bounce_rows(a: Array, times: int) -> Array:
    """``a`` reflected downwards about its last row until it has ``times * (h - 1) + 1`` rows."""
    h = a.shape[0]
    # Row i of the result is row p(i) of ``a``, p bouncing 0, 1, ..., h-1, h-2, ..., 0, 1, ...
    i = np.arange(times * (h - 1) + 1)
    phase = i % (2 * (h - 1))
    index = np.where(phase < h, phase, 2 * (h - 1) - phase)
    out: Array = a[index]
    return out


def bounce(a: Array, way: str, times: int) -> Array | None:
    """``a`` bounced ``way`` to ``times`` of its steps (see the module); ``None`` if too thin."""
    if times < 2:
        return None
    if way in ("v", "v2", "hv") and a.shape[0] < 2:
        return None
    if way in ("h", "h2", "hv") and a.shape[1] < 2:
        return None
    if way == "v":
        return _bounce_rows(a, times)
    if way == "v2":
        return _bounce_rows(a[::-1], times)[::-1]
    if way == "h":
        return _bounce_rows(a.T, times).T
    if way == "h2":
        return _bounce_rows(a[:, ::-1].T, times).T[:, ::-1]
    return _bounce_rows(_bounce_rows(a.T, times).T, times)


def _prim(way: str, times: int) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return bounce(a, way, times)

    return prim


def bounce_op(way: str, times: int) -> Op:
    """The step ``bounce(way){times}``."""
    return Op(f"bounce({way}){{{times}}}", BOUNCE_COST, _prim(way, times), "grow")


def parse_bounce(text: str) -> Op | None:
    """The step a ``bounce(way){m}`` text names, or ``None`` when it names none."""
    head, _, body = text.partition("){")
    way = head.removeprefix("bounce(")
    times = body.removesuffix("}")
    if way not in BOUNCES or not times.isdigit() or not 2 <= int(times) <= _MAX_TIMES:
        return None
    op = bounce_op(way, int(times))
    return op if op.text == text else None


def _times(side: int, out: int) -> int | None:
    """The ``m`` with ``out == m * (side - 1) + 1``, if there is one of at least 2."""
    if side < 2 or (out - 1) % (side - 1):
        return None
    m = (out - 1) // (side - 1)
    return m if 2 <= m <= _MAX_TIMES else None


def fit_bounce(given: FitInput) -> list[Op]:
    """The bounces that reproduce every demonstration, at most one per way of growing."""
    found = []
    for way in BOUNCES:
        ms: set[int | None] = set()
        for a, out in zip(given.inputs, given.outputs, strict=False):
            (h, w), (oh, ow) = a.shape, out.shape
            if way in ("v", "v2"):
                ms.add(_times(h, oh) if w == ow else None)
            elif way in ("h", "h2"):
                ms.add(_times(w, ow) if h == oh else None)
            else:
                m = _times(h, oh)
                ms.add(m if m == _times(w, ow) else None)
        times = ms.pop()
        if ms or times is None:
            continue
        op = bounce_op(way, times)
        if given.reproduced_by(op):
            found.append(op)
    return found


FITTER = Fitter("bounce(", {f"bounce({way})": BOUNCE_COST for way in BOUNCES}, fit_bounce, parse_bounce)
"""The fitter of bouncing mirrors."""
