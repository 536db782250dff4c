"""Spanned boxes: the rectangle four same-coloured corner pixels mark out, filled inside.

Four lone pixels of one colour at the corners of a rectangle mark out a box; tasks fill the
background strictly inside it (the rows and columns between the corners, not the corners' own
lines). Several boxes may stand in one grid, each marked by its own four pixels.

A *marker* is a single-cell object (no 8-neighbour of its own colour). Each marker takes the
nearest marker of its colour to its right on its row and the nearest below on its column; when
the fourth corner is a marker of that colour too, the box's inside is filled. ``spanned{colour}``
paints the inside's background cells in a fixed colour, or in the corners' colour (``=``); the
constant is fitted from the demonstrations (`fit`).

The same concept without markers: ``boxin{colour}`` paints the background inside each
8-connected object's bounding box (a box spans a shape's diagonal steps) in a fitted colour;
``hull`` paints it in the object's own colour. A fitter, not a family, so that it costs the
search nothing where it does not fit.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colour, painted_colours
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask
from .objects import objects

__all__ = [
    "BOXIN",
    "BOXIN_COST",
    "SPANNED",
    "SPANNED_COST",
    "boxin_op",
    "parse_boxin",
    "parse_spanned",
    "spanned_op",
]

SPANNED_COST = 3.0
"""The base cost of a ``spanned`` step."""

BOXIN_COST = 2.5
"""The base cost of a ``boxin`` step."""


def _markers(a: Array, bg: int) -> Mask:
    """A mask of the cells with no 8-neighbour of their own colour (lone pixels), background aside."""
    h, w = a.shape
    pad = np.full((h + 2, w + 2), -1, dtype=np.int16)
    pad[1:-1, 1:-1] = a
    lone: Mask = a != bg
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                lone &= pad[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w] != a
    return lone


def _spanned(a: Array, bg: int, colour: int) -> Array | None:
    """``a`` with every marked box's inside filled; ``None`` when no box is marked."""
    if int(a.max()) >= SENTINEL or min(a.shape) < 3:
        return None
    lone = _markers(a, bg)
    out = a.copy()
    found = False
    for r, c in zip(*np.nonzero(lone), strict=True):
        k = a[r, c]
        right = np.flatnonzero(lone[r, c + 1 :] & (a[r, c + 1 :] == k))
        below = np.flatnonzero(lone[r + 1 :, c] & (a[r + 1 :, c] == k))
        if right.size == 0 or below.size == 0:
            continue
        r2, c2 = r + 1 + int(below[0]), c + 1 + int(right[0])
        if not (lone[r2, c2] and a[r2, c2] == k) or r2 - r < 2 or c2 - c < 2:
            continue
        inside = out[r + 1 : r2, c + 1 : c2]
        inside[a[r + 1 : r2, c + 1 : c2] == bg] = k if colour < 0 else colour
        found = True
    return out if found and not np.array_equal(out, a) else None


def spanned_op(colour: int) -> Op:
    """The step ``spanned{colour}``; a negative colour means the corners' own (``=``)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _spanned(a, ctx.bg, colour)

    step: Prim = prim
    return Op(f"spanned{{{'=' if colour < 0 else colour}}}", SPANNED_COST, step, "same")


def parse_spanned(text: str) -> Op | None:
    """The ``spanned`` step written as ``text``, or ``None`` when it is malformed."""
    if not (text.startswith("spanned{") and text.endswith("}")):
        return None
    word = text[8:-1]
    if word == "=":
        return spanned_op(-1)
    if not (word.isdigit() and int(word) < SENTINEL):
        return None
    op = spanned_op(int(word))
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``spanned`` steps that turn every demonstration input into its output."""
    # Boxes are filled over the background only.
    painted = painted_colours(given)
    if painted is None:
        return []
    ops = [spanned_op(-1)]
    if len(painted) == 1:
        ops.append(spanned_op(min(painted)))
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


SPANNED = Fitter("spanned{", {"spanned": SPANNED_COST}, fit, parse_spanned)
"""The fitter of ``spanned{...}``: boxes marked by four corner pixels, filled inside."""


def _boxin(a: Array, bg: int, colour: int) -> Array | None:
    """``a`` with the background in each 8-connected object's box painted; ``None`` when none is."""
    if int(a.max()) >= SENTINEL:
        return None
    objs = objects(a, bg, "8")  # a box spans a shape's diagonal steps too
    if not 0 < len(objs) <= 30:  # boxes of a few objects, not of a texture's specks
        return None
    inside = np.zeros(a.shape, dtype=bool)
    for i in range(len(objs)):
        inside[objs.box(i)] = True
    inside &= a == bg
    if not inside.any():
        return None
    out = a.copy()
    out[inside] = colour
    return out


def boxin_op(colour: int) -> Op:
    """The step ``boxin{colour}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _boxin(a, ctx.bg, colour)

    step: Prim = prim
    return Op(f"boxin{{{colour}}}", BOXIN_COST, step, "same")


def parse_boxin(text: str) -> Op | None:
    """The ``boxin`` step written as ``text``, or ``None`` when it is malformed."""
    if not (text.startswith("boxin{") and text.endswith("}")):
        return None
    word = text[6:-1]
    if not (word.isdigit() and int(word) < SENTINEL):
        return None
    op = boxin_op(int(word))
    return op if op.text == text else None


def fit_boxin(given: FitInput) -> list[Op]:
    """The ``boxin`` step that turns every demonstration input into its output, if one does."""
    colour = painted_colour(given)
    if colour is None:
        return []
    op = boxin_op(colour)
    return [op] if given.reproduced_by(op) else []


BOXIN = Fitter("boxin{", {"boxin": BOXIN_COST}, fit_boxin, parse_boxin)
"""The fitter of ``boxin{...}``: each object's box filled in a fitted colour."""
