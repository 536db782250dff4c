"""Crossing joins: pairs of same-coloured cells joined along rows and columns, one axis on top.

Two cells of one colour on a row (or a column) with only background between them are joined
by a line of their colour; the fixed ``connect(hv)`` does this, but it paints the rows first
and keeps the first colour a cell gets, so where a vertical and a horizontal join cross the
horizontal one wins. Tasks draw such crossings with one axis consistently over the other.

``overjoin{top}`` joins every pair along both axes, reading the rays from the input (so one
line does not stop another), and where a row join crosses a column join the ``top`` axis's
colour (``v`` columns, ``h`` rows) is kept. It returns ``None`` when no two joins cross: only
where they cross does it differ from ``connect``, so it may cost less than that without pre-empting it.
A fitter (``top`` fitted from the demonstrations), so it costs the search nothing elsewhere.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import background_paints
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for
from .rays import ray

__all__ = ["OVERJOIN", "OVERJOIN_COST", "overjoin_op", "parse_overjoin"]

OVERJOIN_COST = 1.5
"""The base cost of an ``overjoin`` step: below ``connect`` (2) and the fixed steps that mimic a
crossing by chance, since it applies only where joins cross."""

_AXES = {"h": ("left", "right"), "v": ("up", "down")}


def _joins(a: Array, bg: int, axis: str) -> Array:
    """Per cell, the colour of the join along ``axis`` through it, or -1 where there is none."""
    one, other = _AXES[axis]
    r1, r2 = ray(a, bg, one), ray(a, bg, other)
    return np.where((a == bg) & (r1 >= 0) & (r1 == r2), r1, -1)


def _overjoin(a: Array, bg: int, top: str) -> Array | None:
    """``a`` with its joins drawn, ``top``'s on top; ``None`` when no two joins cross."""
    if int(a.max()) >= SENTINEL:
        return None
    upper, lower = _joins(a, bg, top), _joins(a, bg, "h" if top == "v" else "v")
    # Without a crossing this is `connect`'s work.
    if not np.any((upper >= 0) & (lower >= 0)):
        return None
    line = np.where(upper >= 0, upper, lower)
    return np.where(line >= 0, line, a).astype(np.uint8)


def overjoin_op(top: str) -> Op:
    """The step ``overjoin{top}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _overjoin(a, bg_for(a, ctx), top)

    step: Prim = prim
    return Op(f"overjoin{{{top}}}", OVERJOIN_COST, step, "same")


def parse_overjoin(text: str) -> Op | None:
    """The ``overjoin`` step written as ``text``, or ``None`` when it is malformed."""
    top = text[9:-1] if text.startswith("overjoin{") and text.endswith("}") else ""
    return overjoin_op(top) if top in _AXES else None


def fit(given: FitInput) -> list[Op]:
    """The ``overjoin`` steps that turn every demonstration input into its output."""
    if background_paints(given) is None:
        return []
    ops = [overjoin_op(top) for top in ("v", "h")]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


OVERJOIN = Fitter("overjoin{", {"overjoin": OVERJOIN_COST}, fit, parse_overjoin)
"""The fitter of ``overjoin{...}``: joins along both axes, one drawn over the other."""
