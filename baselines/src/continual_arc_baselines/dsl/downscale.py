"""Rescaling by marks: each k x k block becomes one m x m block, its foreground colour if it has any.

`sizing`'s ``down`` needs uniform blocks and ``vote`` keeps each block's commonest value, which
is the background wherever a block holds one mark. Grids that scatter single marks on a coarse
lattice (a mark in some cells of every other row and column) shrink instead by keeping the mark:
each k x k block gives its commonest colour other than the background, or the background when it
has none (`marks`; two marks tied keep the lower colour). Such a grid is often redrawn at another
scale at once, each mark a solid m x m block: ``rescale{k,m}`` does both in one step, which the
search could not afford as two. ``k`` and ``m`` are fitted from the ratio of the outputs' sides to
the inputs' (``m / k``, the same for every demonstration, the smallest ``k`` that reproduces them
all), so the step is offered only when it makes every demonstration's output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .catalogue import FitInput, Fitter
from .family import Op, Prim
from .grid import Array, Context, bg_for

__all__ = ["FITTER", "RESCALE_COST", "marks", "parse_rescale", "rescale_op"]

RESCALE_COST = 2.5
"""The base cost of ``rescale{k,m}``: above ``up``'s 2, as its factors are fitted."""

_MAX_FACTOR = 5


def marks(a: Array, k: int, bg: int) -> Array | None:
    """One cell per ``k x k`` block of ``a``: its commonest non-``bg`` colour, else ``bg``."""
    h, w = a.shape
    if h % k or w % k:
        return None
    if k == 1:
        return a
    blocks = a.reshape(h // k, k, w // k, k).transpose(0, 2, 1, 3).reshape(-1, k * k).astype(np.intp)
    which = np.repeat(np.arange(len(blocks)), k * k) * 256 + blocks.ravel()
    counts = np.bincount(which, minlength=len(blocks) * 256).reshape(-1, 256)
    counts[:, bg] = 0
    best = np.argmax(counts, axis=1)
    out: Array = np.where(counts.max(axis=1) > 0, best, bg).astype(np.uint8).reshape(h // k, w // k)
    return out


def _prim(k: int, m: int) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        small = marks(a, k, bg_for(a, ctx))
        if small is None:
            return None
        return np.repeat(np.repeat(small, m, axis=0), m, axis=1)

    return prim


def rescale_op(k: int, m: int) -> Op:
    """The step ``rescale{k,m}``."""
    shape = "grow" if m >= k else "shrink"
    return Op(f"rescale{{{k},{m}}}", RESCALE_COST, _prim(k, m), shape)


def parse_rescale(text: str) -> Op | None:
    """The step a ``rescale{k,m}`` text names, or ``None`` when it names none."""
    k, _, m = text.removeprefix("rescale{").removesuffix("}").partition(",")
    if not (k.isdigit() and m.isdigit()):
        return None
    if not (2 <= int(k) <= _MAX_FACTOR and 1 <= int(m) <= _MAX_FACTOR) or int(k) == int(m):
        return None
    op = rescale_op(int(k), int(m))
    return op if op.text == text else None


def fit_rescale(given: FitInput) -> list[Op]:
    """The one rescaling that reproduces every demonstration (the smallest ``k``), if any."""
    ratios = set()
    for a, out in zip(given.inputs, given.outputs, strict=False):
        ry, rx = Fraction(out.shape[0], a.shape[0]), Fraction(out.shape[1], a.shape[1])
        if ry != rx:
            return []
        ratios.add(ry)
    if len(ratios) != 1:
        return []
    ratio = ratios.pop()
    # k = 1 is ``up``, and k == m the identity: neither is this step's to offer.
    for k in range(2, _MAX_FACTOR + 1):
        m = ratio * k
        if m.denominator != 1 or not 1 <= m <= _MAX_FACTOR or m == k:
            continue
        op = rescale_op(k, int(m))
        if given.reproduced_by(op):
            return [op]
    return []


FITTER = Fitter("rescale{", {"rescale": RESCALE_COST}, fit_rescale, parse_rescale)
"""The fitter of mark-keeping rescalings."""
