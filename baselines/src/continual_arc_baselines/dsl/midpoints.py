"""Midpoints: a pair of like cells marks the cell halfway between them with a fitted stamp.

A *pair* is a colour with exactly two cells in the grid, apart (not touching, even diagonally),
whose midpoint is a cell (both coordinate sums even). ``midpoint{s}`` paints a 3 x 3 stamp ``s``
centred on every pair's midpoint: written row by row, a digit paints the background cell at that
place and ``.`` paints nothing (``.3.333.3.``: a green plus halfway between two blue dots). The
stamp is read from the demonstrations, written into the step's text, and must agree wherever two
demonstrations show it. A grid with no pair gives ``None``. The fitter offers a step only when it
reproduces every demonstration and changes the test input.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["FITTER", "MIDPOINT_COST", "fit_midpoint", "midpoint_op", "midpoints", "parse_midpoint"]

MIDPOINT_COST = 3.0
"""The base cost of a midpoint stamp: a fitted stamp of a few cells."""


def midpoints(a: Array, bg: int) -> list[tuple[int, int]]:
    """The midpoints of ``a``'s pairs, by colour."""
    found: list[tuple[int, int]] = []
    for colour in np.unique(a).tolist():
        if colour == bg:
            continue
        ys, xs = np.nonzero(a == colour)
        if len(ys) != 2:
            continue
        dy, dx = int(ys[1] - ys[0]), int(xs[1] - xs[0])
        if max(abs(dy), abs(dx)) < 2 or dy % 2 or dx % 2:
            continue
        found.append((int(ys[0]) + dy // 2, int(xs[0]) + dx // 2))
    return found


def _stamped(a: Array, bg: int, stamp: str) -> Array | None:
    """``a`` with ``stamp`` painted on the background around every pair's midpoint."""
    mids = midpoints(a, bg)
    if not mids:
        return None
    h, w = a.shape
    out = a.copy()
    for my, mx in mids:
        for k, ch in enumerate(stamp):
            y, x = my + k // 3 - 1, mx + k % 3 - 1
            if ch != "." and 0 <= y < h and 0 <= x < w and a[y, x] == bg:
                out[y, x] = int(ch)
    return out


def midpoint_op(stamp: str) -> Op:
    """The step ``midpoint{stamp}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return _stamped(a, bg_for(a, ctx), stamp)

    step: Prim = prim
    return Op(f"midpoint{{{stamp}}}", MIDPOINT_COST, step, "same")


def fit_midpoint(given: FitInput) -> list[Op]:
    """The midpoint stamp the demonstrations show, if it reproduces them and changes the test input."""
    n = given.n
    stamp = ["."] * 9
    if not given.keeps_size:
        return []
    for a, b, ctx in given.demos():
        mids = midpoints(a, ctx.bg)
        changed = a != b
        if not mids or not changed.any():
            return []
        h, w = a.shape
        covered = np.zeros(a.shape, dtype=bool)
        for my, mx in mids:
            for k in range(9):
                y, x = my + k // 3 - 1, mx + k % 3 - 1
                if not (0 <= y < h and 0 <= x < w):
                    continue
                covered[y, x] = True
                if changed[y, x]:
                    value = str(int(b[y, x]))
                    if stamp[k] not in (".", value):
                        return []  # two colours at one place of the stamp
                    stamp[k] = value
        if (changed & ~covered).any():
            return []
    op = midpoint_op("".join(stamp))
    test, ctx = given.inputs[n], given.contexts[n]
    answer = op(test, ctx)
    if answer is None or np.array_equal(answer, test) or not given.reproduced_by(op):
        return []
    return one_per_answer(given, [op])


def parse_midpoint(text: str) -> Op | None:
    """The midpoint stamp written as ``text``, or ``None`` when it is malformed."""
    stamp = text.removeprefix("midpoint{").removesuffix("}")
    if not (text.startswith("midpoint{") and text.endswith("}")) or len(stamp) != 9:
        return None
    if not all(ch == "." or ch.isdigit() for ch in stamp) or stamp == "." * 9:
        return None
    return midpoint_op(stamp)


FITTER = Fitter("midpoint{", {"midpoint": MIDPOINT_COST}, fit_midpoint, parse_midpoint)
"""The fitter of midpoint stamps."""
