"""Line analogies: a row begun in other colours is finished the way a complete row goes.

A task shows one complete row (say ``33233233``) and rows that only begin (``884.....``, or end):
each begun row follows the complete one under a recolouring (3 to 8, 2 to 4), so it is finished as
``88488488``. ``analogy(h)`` finishes every *begun* row (some foreground, some background) by the
first *complete* row (no background) whose cells where the begun row is drawn map onto it by one
colour for each colour, a map that covers every colour the complete row holds; ``analogy(v)``
does the same for columns, ``analogy(hv)`` rows and then columns (a task may draw either way).
``None`` when no line is finished.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["ANALOGY_COST", "FAMILIES", "finish_rows"]

ANALOGY_COST = 3
"""The cost of a line analogy."""


def _recolouring(source: Array, target: Array) -> dict[int, int] | None:
    """The map sending ``source``'s colours to ``target``'s cell by cell, if it is one map."""
    seen: dict[int, int] = {}
    for s, t in zip(source.tolist(), target.tolist(), strict=True):
        if seen.setdefault(s, t) != t:
            return None
    return seen


def finish_rows(a: Array, bg: int) -> Array | None:
    """``a`` with every begun row finished like a complete row, or ``None`` when none is."""
    free = a == bg
    complete = [int(y) for y in np.flatnonzero(~free.any(axis=1))]
    if not complete:
        return None
    out = a.copy()
    for y in range(a.shape[0]):
        drawn = ~free[y]
        if not drawn.any() or drawn.all():
            continue
        for e in complete:
            model = a[e]
            mapping = _recolouring(model[drawn], a[y, drawn])
            if mapping is None or not set(np.unique(model).tolist()) <= set(mapping):
                continue
            out[y, ~drawn] = [mapping[int(v)] for v in model[~drawn]]
            break
    if np.array_equal(out, a):
        return None
    return out


def _columns(a: Array, bg: int) -> Array | None:
    done = finish_rows(np.ascontiguousarray(a.T), bg)
    return None if done is None else np.ascontiguousarray(done.T)


def _analogy(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        if axes == "h":
            return finish_rows(a, bg)
        if axes == "v":
            return _columns(a, bg)
        rows = finish_rows(a, bg)
        both = _columns(a if rows is None else rows, bg)
        return rows if both is None else both

    return prim


FAMILIES = (
    Family(
        "analogy",
        (("h", "v", "hv"),),
        ANALOGY_COST,
        _analogy,
        "finish each begun row (or column) like a complete one, recoloured",
        "same",
    ),
)
"""The line-analogy family."""
