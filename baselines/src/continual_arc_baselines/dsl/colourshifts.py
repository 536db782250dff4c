"""Colour shifts: every colour's cells move together by a vector of their own, fitted per colour.

Some tasks move things by what colour they are: every red object two columns left, every orange
one two rows up, every blue one a column right. ``cshift{c:dy,dx;...}`` moves all the cells of
each colour ``c`` by ``(dy, dx)`` (what leaves the grid is cut off; the background fills what
they leave, and a later colour in the table covers an earlier one where they land together).
The table is read from the demonstrations: for each colour of an input, the one shift of at most
`REACH` cells a side that turns the colour's cells in the input into exactly its cells in the
output (none of them leaving the grid); every demonstration must agree on it. A colour whose
cells all leave the grid, or that the table lacks (the test input's colours must all be in it),
makes the step not apply. Every colour must move: when one stays put, the others most likely
move toward or away from it (an anchor), which a vector per colour only describes by chance, so
the fitter gives nothing. The fitter offers a step only when it reproduces every demonstration
and changes the test input.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, on_colours
from .grid import Array, Mask

__all__ = ["CSHIFT_COST", "FITTER", "REACH", "cshift_op", "fit_cshift", "parse_cshift", "shifted"]

CSHIFT_COST = 3.0
"""The base cost of a colour-shift table: a few fitted vectors."""

REACH = 4
"""The longest shift, in cells along either axis, the fitter tries for a colour."""

Table = tuple[tuple[int, int, int], ...]
"""A colour-shift table: ``(colour, dy, dx)`` entries in increasing order of colour."""


def shifted(mask: Mask, dy: int, dx: int) -> Mask:
    """``mask`` moved by ``(dy, dx)``; what leaves the grid is cut off."""
    h, w = mask.shape
    out = np.zeros_like(mask)
    ys, xs = np.nonzero(mask)
    ny, nx = ys + dy, xs + dx
    inside = (ny >= 0) & (ny < h) & (nx >= 0) & (nx < w)
    out[ny[inside], nx[inside]] = True
    return out


def _moved(a: Array, bg: int, table: Table) -> Array | None:
    """``a`` with every colour's cells moved by its vector in ``table``."""
    vectors = {colour: (dy, dx) for colour, dy, dx in table}
    present = [c for c in np.unique(a).tolist() if c != bg]
    if not present or any(c not in vectors for c in present):
        return None
    out = np.full_like(a, bg)
    for colour in present:
        mask = shifted(a == colour, *vectors[colour])
        if not mask.any():
            return None
        out[mask] = colour
    return out


def cshift_op(table: Table) -> Op:
    """The step ``cshift{c:dy,dx;...}``."""
    step = on_colours(lambda a, bg: _moved(a, bg, table))
    text = ";".join(f"{c}:{dy},{dx}" for c, dy, dx in table)
    return Op(f"cshift{{{text}}}", CSHIFT_COST, step, "same")


def _vector(before: Mask, after: Mask) -> tuple[int, int] | None:
    """The shift of at most `REACH` cells a side that turns ``before`` into ``after``, all kept in the grid.

    Only one shift can: the one that carries the first row and column ``before`` holds onto those
    ``after`` holds, so that one alone is checked.
    """
    if not before.any() or int(before.sum()) != int(after.sum()):
        return None
    ys, xs = np.nonzero(before)
    ys_after, xs_after = np.nonzero(after)
    dy, dx = int(ys_after.min() - ys.min()), int(xs_after.min() - xs.min())
    if max(abs(dy), abs(dx)) > REACH or not np.array_equal(shifted(before, dy, dx), after):
        return None
    return dy, dx


def fit_cshift(given: FitInput) -> list[Op]:
    """The colour-shift table the demonstrations show, if it reproduces them and changes the test input."""
    vectors: dict[int, tuple[int, int]] = {}
    for a, b, ctx in zip(given.inputs[: given.n], given.outputs, given.contexts[: given.n], strict=True):
        if a.shape != b.shape:
            return []
        for colour in np.unique(a).tolist():
            if colour == ctx.bg:
                continue
            found = _vector(a == colour, b == colour)
            if found is None or vectors.setdefault(colour, found) != found:
                return []
    if not vectors or (0, 0) in vectors.values():
        return []  # a colour that stays put: the others likely move relative to it, not by colour
    table = tuple((c, dy, dx) for c, (dy, dx) in sorted(vectors.items()))
    return changing_answers(given, [cshift_op(table)])


def parse_cshift(text: str) -> Op | None:
    """The colour-shift table written as ``text``, or ``None`` when it is malformed."""
    if not (text.startswith("cshift{") and text.endswith("}")):
        return None
    entries: list[tuple[int, int, int]] = []
    try:
        for entry in text.removeprefix("cshift{").removesuffix("}").split(";"):
            colour, vector = entry.split(":")
            dy, dx = vector.split(",")
            entries.append((int(colour), int(dy), int(dx)))
    except ValueError:
        return None
    if not entries or any(not 0 <= c <= 9 for c, _, _ in entries):
        return None
    return cshift_op(tuple(sorted(entries)))


FITTER = Fitter("cshift{", {"cshift": CSHIFT_COST}, fit_cshift, parse_cshift)
"""The fitter of colour-shift tables."""
