"""Spotting the difference: of many copies of one panel, the one copy that differs, its faults marked.

Some grids repeat one panel many times between separator lines, one copy spoiled in a few cells;
the answer is the panel as it should be, each cell where the spoiled copy differs painted one
colour. ``spot{c}`` cuts the grid at its separators (`parts.separator_parts`); the panels must
all have one shape, at least three of them, all but one the same: that one is the spoiled copy,
and the cells where it differs from the others take colour ``c``. The fitter reads ``c`` from the
demonstrations' outputs and keeps the step only if it reproduces them.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, on_colours
from .grid import SENTINEL, Array
from .parts import separator_parts
from .steptext import braced

__all__ = ["FITTER", "SPOT_COST", "fit_spot", "parse_spot", "spoiled", "spot_op"]

SPOT_COST = 3.0
"""The base cost of spotting the difference: one fitted colour."""


def spoiled(a: Array, bg: int) -> tuple[Array, np.ndarray] | None:
    """The panel most copies show, and where the one other copy differs from it; ``None`` if not so."""
    parts = separator_parts(a, bg)
    if parts is None or len(parts) < 3 or len({p.shape for p in parts}) != 1:
        return None
    first = parts[0]
    same = [np.array_equal(first, p) for p in parts]
    if sum(same) == len(parts) - 1:
        odd = same.index(False)
    elif sum(same) == 1 and all(np.array_equal(parts[1], p) for p in parts[2:]):
        odd = 0
    else:
        return None
    good = parts[1] if odd == 0 else first
    return good, good != parts[odd]


def spot_op(colour: int) -> Op:
    """The step ``spot{colour}``."""

    def marked(a: Array, bg: int) -> Array | None:
        found = spoiled(a, bg)
        if found is None:
            return None
        good, faults = found
        out = good.copy()
        out[faults] = colour
        return out

    return Op(f"spot{{{colour}}}", SPOT_COST, on_colours(marked), "shrink")


def fit_spot(given: FitInput) -> list[Op]:
    """The mark colour the demonstrations show, if spotting with it reproduces them."""
    colours = set()
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        found = spoiled(a, ctx.bg)
        if found is None or found[0].shape != b.shape:
            return []
        colours.update(np.unique(b[found[1]]).tolist())
    if len(colours) != 1:
        return []
    return changing_answers(given, [spot_op(colours.pop())])


def parse_spot(text: str) -> Op | None:
    """The step written as ``text``, or ``None`` when it is not one."""
    body = braced(text, "spot")
    if body is None or not body.isdigit() or int(body) >= SENTINEL:
        return None
    return spot_op(int(body))


FITTER = Fitter("spot{", {"spot": SPOT_COST}, fit_spot, parse_spot)
"""The fitter of spotted differences."""
