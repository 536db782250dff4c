"""Mending: the broken lines of a one-colour drawing are made whole, the mends in a new colour.

A drawing of one colour (every foreground cell has it) spans a box. The box's four sides are
*lines* of the drawing, and so is every other row or column of the box at least half of whose
cells in the box are the drawing's colour; ``mend{p}`` paints every background cell of every line
``p``, so a dashed rectangle with a bar across it comes out whole, its gaps marked. An inner row
holding little more than the two ends of the side walls is no line, and stays as it is. ``p`` is
a literal colour, or a role (`colours.ROLES`) when no literal names it in every demonstration. A
grid whose foreground holds two colours, or with no gap in any line, gives ``None``. The fitter
offers a step only when it reproduces every demonstration and changes the test input.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .colours import ROLES
from .drawn import paint_step, painted_tokens
from .family import Op
from .grid import SENTINEL, Array, Mask

__all__ = ["FITTER", "MEND_COST", "fit_mend", "mend_op", "mended", "parse_mend"]

MEND_COST = 3.0
"""The base cost of a mend: one fitted colour."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def mended(a: Array, bg: int) -> Mask | None:
    """The background cells a mend paints on ``a`` (``None`` when ``a`` is no one-colour drawing)."""
    fg = a != bg
    if not fg.any() or len(np.unique(a[fg])) != 1:
        return None
    ys, xs = np.nonzero(fg)
    top, bottom, left, right = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    box = fg[top:bottom, left:right]
    h, w = box.shape
    if h < 3 or w < 3:
        return None
    # The box's own border is always a line (an outline's broken side); an inner row or column
    # is one when at least half of it is drawn.
    rows = 2 * box.sum(axis=1) >= w
    cols = 2 * box.sum(axis=0) >= h
    rows[[0, -1]] = True
    cols[[0, -1]] = True
    cells = np.zeros(a.shape, dtype=bool)
    cells[top:bottom, left:right] = (rows[:, None] | cols[None, :]) & ~box
    return cells


def mend_op(colour: str) -> Op:
    """The step ``mend{colour}``."""
    return paint_step(f"mend{{{colour}}}", MEND_COST + (colour[0] == "c") / 4, colour, mended)


def fit_mend(given: FitInput) -> list[Op]:
    """The mends that reproduce every demonstration and change the test input."""
    return changing_answers(given, [mend_op(token) for token in painted_tokens(given) or ()])


def parse_mend(text: str) -> Op | None:
    """The mend written as ``text``, or ``None`` when it is malformed."""
    colour = text.removeprefix("mend{").removesuffix("}")
    if not (text.startswith("mend{") and text.endswith("}")) or colour not in (*ROLES, *_LITERALS):
        return None
    return mend_op(colour)


FITTER = Fitter("mend{", {"mend": MEND_COST}, fit_mend, parse_mend)
"""The fitter of mends."""
