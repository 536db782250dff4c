"""Replicating: as many copies of the grid as it has cells of a kind, laid out in reading order.

Some tasks answer a small pattern with a canvas of copies of it, one copy for each of its coloured
cells, placed left to right and top to bottom in a row of as many copies as it has background
cells, the rest of the canvas left blank. `sizing`'s tilings repeat a grid a fixed number of times;
here both numbers are counts read off each input, so every grid has its own canvas.

``replicate{n;m;form}`` names one such canvas: ``n`` is the number of copies and ``m`` the number
of copies to a row, each one of ``fg`` (the grid's foreground cells), ``bg`` (its background
cells) or ``col`` (its foreground colours); ``form`` is ``sq`` (a canvas ``m`` copies tall as well
as wide) or ``fit`` (just enough rows of copies). The background is colour 0 where the grid has
it, else its commonest colour. All three constants are fitted from the demonstrations
(`fit_replicate`).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op
from .grid import Array, Context, background

__all__ = ["COUNTS", "FITTER", "FORMS", "REPLICATE_COST", "fit_replicate", "parse_replicate", "replicate_op"]

REPLICATE_COST = 1.5
"""The base cost of a replication: fitted and strict (every cell of a large canvas), so early."""

COUNTS = ("fg", "bg", "col")
"""What a number of copies may count: foreground cells, background cells, foreground colours."""

FORMS = ("sq", "fit")
"""The canvas: square in copies, or just tall enough for them."""

MAX_SIDE = 30
"""The largest side an ARC grid allows."""


def _count(a: Array, bg: int, what: str) -> int:
    """How many of ``what`` the grid ``a`` holds, its background being ``bg``."""
    fg = a != bg
    if what == "fg":
        return int(fg.sum())
    if what == "bg":
        return int(a.size - fg.sum())
    return len(np.unique(a[fg]))


def replicate(a: Array, n: str, m: str, form: str) -> Array | None:
    """The canvas of copies of ``a`` the constants name, or ``None`` if empty or too large."""
    bg = 0 if bool((a == 0).any()) else background(a)
    copies, across = _count(a, bg, n), _count(a, bg, m)
    if copies < 1 or across < 1:
        return None
    rows = across if form == "sq" else -(-copies // across)
    h, w = a.shape
    if copies > rows * across or rows * h > MAX_SIDE or across * w > MAX_SIDE:
        return None
    out = np.full((rows * h, across * w), bg, dtype=a.dtype)
    for k in range(copies):
        r, c = divmod(k, across)
        out[r * h : (r + 1) * h, c * w : (c + 1) * w] = a
    return out


def replicate_op(n: str, m: str, form: str) -> Op:
    """The step laying ``n`` copies of the grid, ``m`` to a row, on a canvas of the given form."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return replicate(a, n, m, form)

    return Op(f"replicate{{{n};{m};{form}}}", REPLICATE_COST, prim, "grow")


def parse_replicate(text: str) -> Op | None:
    """The step a ``replicate{...}`` text names, or ``None`` when it names none."""
    parts = text.removeprefix("replicate{").removesuffix("}").split(";")
    if len(parts) != 3 or parts[0] not in COUNTS or parts[1] not in COUNTS or parts[2] not in FORMS:
        return None
    if parts[0] == parts[1]:  # the fitter never writes one count for both
        return None
    op = replicate_op(*parts)
    return op if op.text == text else None


def fit_replicate(given: FitInput) -> list[Op]:
    """The replications that turn every demonstration's grid into its canvas of copies."""
    for a, b in zip(given.inputs, given.outputs, strict=False):
        # A canvas of whole copies, larger than the grid: anything else is no replication.
        if b.shape == a.shape or b.shape[0] % a.shape[0] or b.shape[1] % a.shape[1]:
            return []
    ops = [replicate_op(n, m, form) for n in COUNTS for m in COUNTS if m != n for form in FORMS]
    return changing_answers(given, ops)


FITTER = Fitter("replicate{", {"replicate": REPLICATE_COST}, fit_replicate, parse_replicate)
"""The fitter of counted replications, searched in ``wide`` (the default)."""
