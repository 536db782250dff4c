"""Dashed lines: cells shoot rays to the border that alternate two colours.

A ray need not be solid: tasks draw lines that alternate the source's colour with a fixed one
(``2525...``), or dotted lines that skip every other cell. ``drawing`` paints every cell of a
ray in one colour; the period of two is the missing parameter.

``dash{way;odd;even}`` traces, from each foreground cell of a sparse grid, a ray toward
``way`` over background cells up to the first foreground cell or the border, and paints the
cells at odd distances from the source with ``odd`` and those at even distances with ``even``:
each the source's colour (``=``), a fixed colour, or nothing (``.``). The three constants are
fitted from the demonstrations (`fit`) and written into the text.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import background_paints
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .steptext import braced, colour_text, parse_colour

__all__ = ["DASH", "DASH_COST", "MAX_SOURCES", "dash_op", "parse_dash"]

DASH_COST = 2.5
"""The base cost of a ``dash`` step."""

MAX_SOURCES = 30
"""The most foreground cells a grid may hold for rays to be traced from them."""

_WAYS: dict[str, tuple[int, int]] = {
    "u": (-1, 0),
    "d": (1, 0),
    "l": (0, -1),
    "r": (0, 1),
    "ul": (-1, -1),
    "ur": (-1, 1),
    "dl": (1, -1),
    "dr": (1, 1),
}
_OWN, _SKIP = -1, -2
_NAMES = {_OWN: "=", _SKIP: "."}


def _dash(a: Array, bg: int, way: str, odd: int, even: int) -> Array | None:
    """``a`` with every cell's dashed ray drawn; ``None`` when none is drawn."""
    if int(a.max()) >= SENTINEL:
        return None
    # Every foreground cell shoots; one with foreground just ahead draws nothing (a bar's
    # front cell draws its line, the cells behind it do not).
    cells = [(int(y), int(x)) for y, x in zip(*np.nonzero(a != bg), strict=True)]
    if not 0 < len(cells) <= MAX_SOURCES:
        return None
    dy, dx = _WAYS[way]
    h, w = a.shape
    out = a.copy()
    for y0, x0 in cells:
        own = int(a[y0, x0])
        y, x, step = y0 + dy, x0 + dx, 1
        while 0 <= y < h and 0 <= x < w and int(a[y, x]) == bg:
            paint = odd if step % 2 else even
            if paint != _SKIP:
                out[y, x] = own if paint == _OWN else paint
            y, x, step = y + dy, x + dx, step + 1
    return None if np.array_equal(out, a) else out


def dash_op(way: str, odd: int, even: int) -> Op:
    """The step ``dash{way;odd;even}`` (-1: the source's colour, -2: nothing)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _dash(a, ctx.bg, way, odd, even)

    step: Prim = prim
    return Op(
        f"dash{{{way};{colour_text(odd, _NAMES)};{colour_text(even, _NAMES)}}}", DASH_COST, step, "same"
    )


def parse_dash(text: str) -> Op | None:
    """The ``dash`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "dash")
    if body is None:
        return None
    parts = body.split(";")
    if len(parts) != 3 or parts[0] not in _WAYS:
        return None
    odd, even = parse_colour(parts[1], _NAMES), parse_colour(parts[2], _NAMES)
    if odd is None or even is None:
        return None
    op = dash_op(parts[0], odd, even)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``dash`` steps that turn every demonstration input into its output.

    Only patterns that truly alternate: a solid line (both the same) is ``drawing``'s.
    """
    # Lines are drawn over the background only, and every pair draws some.
    paints = background_paints(given)
    if paints is None:
        return []
    # A fixed colour is painted in every pair (the sources' own colours vary).
    fixed = set(range(SENTINEL)).intersection(*paints)
    if len(fixed) > 2:
        return []
    choices = [_OWN, _SKIP, *sorted(fixed)]
    ops = [
        dash_op(way, odd, even)
        for way in _WAYS
        for odd in choices
        for even in choices
        if odd != even and odd != _SKIP
    ]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


DASH = Fitter("dash{", {"dash": DASH_COST}, fit, parse_dash)
"""The fitter of ``dash{...}``: rays that alternate two colours, from the cells of a sparse grid."""
