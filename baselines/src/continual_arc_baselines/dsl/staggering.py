"""Staggering: every other line of a figure pushed one cell along, as bricks are laid.

A figure drawn in whole lines (rows of a repeating motif, two bars of colour) comes out
staggered: counting from the figure's first line (its box's top row, or its left column), every
second line is rolled cyclically by one cell along the whole grid, what leaves one end coming back
at the other. ``stagger(axis,which,dir)`` rolls rows (``r``) or columns (``c``), the figure's
``first``, third, ... lines or its ``second``, fourth, ... lines, forward (``+``: rows right, columns
down) or back (``-``). Lines are counted from the figure's box, not the grid's edge, so the same step
staggers a figure wherever it sits. A grid with no foreground, or that the step leaves as it is,
gives ``None``.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim, on_colours
from .grid import Array

__all__ = ["AXES", "DIRS", "FAMILIES", "STAGGER_COST", "WHICH", "stagger"]

AXES = ("r", "c")
"""Which lines are rolled: rows (along themselves, left-right) or columns (up-down)."""

WHICH = ("first", "second")
"""Which alternate lines move, counted from the figure's first line."""

DIRS = ("+", "-")
"""The roll's direction: rows right or columns down (``+``), or the other way."""

STAGGER_COST = 5.0
"""Dear, so the search tries it after the everyday steps: it applies to nearly every grid, and a
cheap step that always applies spends the budget other tasks need (a Re-ARC task found at 1,791
of 1,800 applications was lost at cost 2 and 3)."""


def stagger(a: Array, bg: int, axis: str, which: str, step: int) -> Array | None:
    """``a`` with every other line of its figure rolled by ``step`` (see the module), or ``None``."""
    view = a if axis == "r" else a.T
    lines = np.nonzero((view != bg).any(axis=1))[0]
    if lines.size == 0:
        return None
    first = int(lines[0]) + (0 if which == "first" else 1)
    last = int(lines[-1]) + 1
    out = view.copy()
    out[first:last:2] = np.roll(view[first:last:2], step, axis=1)
    if np.array_equal(out, view):
        return None
    return out if axis == "r" else out.T.copy()


def _stagger(axis: str, which: str, direction: str) -> Prim:
    step = 1 if direction == "+" else -1
    return on_colours(lambda a, bg: stagger(a, bg, axis, which, step))


FAMILIES = (
    Family(
        "stagger",
        (AXES, WHICH, DIRS),
        STAGGER_COST,
        _stagger,
        "every other line of the figure rolled one cell along, counted from its first line",
        "same",
    ),
)
"""The staggering family (in ``wide``, the default)."""
