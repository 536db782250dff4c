"""Echoing: a shape repeated again and again along the step its marker shows, in the marker's colour.

Some tasks set one shape on a plain background with a few cells of another colour beside it: those
cells are part of the shape's next copy, one step away. The answer carries on: copies of the shape,
in the marker's colour, at one step, two steps and so on until they leave the grid. `trailing`'s
``trail`` repeats a motif fitted from the demonstrations; here the motif is the shape itself and the
step is read off each grid, so every grid echoes its own shape its own way.

``echo{way}`` finds the step: the grid must hold, besides its background, exactly two colours; the
commoner is the shape, the other the marker. A step is a move of the shape that covers every marker
cell and keeps clear of the shape; ``way`` is ``d`` (diagonal moves only) or ``a`` (any move); the
shortest such move is the step, and a tie makes the step not apply. Copies paint only background
cells. The constant is fitted from the demonstrations (`fit_echo`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["ECHO_COST", "FITTER", "MAX_MARKS", "WAYS", "echo", "fit_echo", "parse_echo"]

ECHO_COST = 1.5
"""The base cost of an echo: fitted and strict, so it comes early."""

WAYS = ("d", "a")
"""Which moves may be the step: diagonal ones only, or any."""

Cells = npt.NDArray[np.intp]
"""Cells as rows of (row, column), as `numpy.argwhere` gives them."""

MAX_MARKS = 8
"""The most marker cells: more is a second shape, not a hint of the next copy."""


def _step(shape: Cells, marks: Cells, diagonal: bool) -> tuple[int, int] | None:
    """The shortest move of ``shape`` (cells as rows) covering ``marks`` and clear of itself."""
    cells = {(int(r), int(c)) for r, c in shape}
    first = (int(marks[0][0]), int(marks[0][1]))
    best: list[tuple[int, int]] = []
    best_len = 0
    for r, c in shape:
        dy, dx = first[0] - int(r), first[1] - int(c)
        if diagonal and abs(dy) != abs(dx):
            continue
        moved = {(y + dy, x + dx) for y, x in cells}
        if moved & cells or any((int(y), int(x)) not in moved for y, x in marks):
            continue
        length = max(abs(dy), abs(dx))
        if not best or length < best_len:
            best, best_len = [(dy, dx)], length
        elif length == best_len:
            best.append((dy, dx))
    return best[0] if len(best) == 1 else None


def echo(a: Array, bg: int, diagonal: bool) -> Array | None:
    """The grid with its shape echoed along the step its marker shows, or ``None``."""
    colours, counts = np.unique(a[a != bg], return_counts=True)
    if len(colours) != 2 or counts[0] == counts[1] or int(colours.max()) >= SENTINEL:
        return None
    # The commoner colour is the shape; the rarer one marks its next copy.
    shape_colour, mark_colour = colours[np.argsort(-counts, kind="stable")]
    shape, marks = np.argwhere(a == shape_colour), np.argwhere(a == mark_colour)
    if len(marks) > MAX_MARKS:
        return None
    step = _step(shape, marks, diagonal)
    if step is None:
        return None
    out = a.copy()
    h, w = a.shape
    for k in range(1, h + w + 1):
        rows, cols = shape[:, 0] + k * step[0], shape[:, 1] + k * step[1]
        inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
        if not inside.any():
            break
        rows, cols = rows[inside], cols[inside]
        free = a[rows, cols] == bg
        out[rows[free], cols[free]] = mark_colour
    return out


def echo_op(way: str) -> Op:
    """The step echoing the shape along its marker's step (diagonal only when ``way`` is ``d``)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return echo(a, bg_for(a, ctx), way == "d")

    return Op(f"echo{{{way}}}", ECHO_COST, prim, "same")


def parse_echo(text: str) -> Op | None:
    """The step an ``echo{...}`` text names, or ``None`` when it names none."""
    way = text.removeprefix("echo{").removesuffix("}")
    if way not in WAYS:
        return None
    op = echo_op(way)
    return op if op.text == text else None


def fit_echo(given: FitInput) -> list[Op]:
    """The echoes that turn every demonstration's grid into its output (the narrower first)."""
    if not given.keeps_size:
        return []
    return changing_answers(given, [echo_op(way) for way in WAYS])


FITTER = Fitter("echo{", {"echo": ECHO_COST}, fit_echo, parse_echo)
"""The fitter of echoed shapes, searched in ``wide`` (the default)."""
