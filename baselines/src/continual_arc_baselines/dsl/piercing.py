"""Piercing: a lone marker on the border shoots a line across the grid, punching through its colour.

Some grids set single cells on the border, each the start of a line that runs straight across to
the far side over whatever lies there: across background and regions of other colours the line
is drawn in the marker's colour, and across a region of the marker's own colour it shows as a
gap of background, so the line stays visible everywhere. ``pierce`` draws those lines. `extend`
shoots rays from every foreground cell and `edgelines` joins pairs of border cells that face each
other; neither reads through a region of the line's own colour as a gap.

A *marker* is a border cell, not at a corner, of a colour other than the background, whose two
neighbours along the border are background and whose neighbour inward is not of its colour (the
edge of a region that touches the border is no marker). Lines are read from the grid as given
and drawn columns first, then rows. A grid with no marker, or smaller than 3 x 3, gives ``None``.

``pierce(rim)`` (`RIM_FAMILIES`, still under measurement) leaves the inward cell unchecked: some
tasks set a marker right against a region of its own colour, and its line then runs through that
region as a gap from its first cell on. It is tried after ``pierce``, so where both reproduce the
demonstrations the stricter reading answers.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for

__all__ = ["FAMILIES", "RIM_FAMILIES", "markers", "pierce"]


Marker = tuple[str, int, int, int]
"""A border marker: its line's axis (``v`` a column, ``h`` a row), the line's index, the marker's
place along the line (the first or last cell) and its colour."""


def markers(a: Array, bg: int, inward: bool = True) -> list[Marker]:
    """The border markers of ``a`` (see `Marker`), top and bottom rows first, then left and right.

    With ``inward`` false a marker may face a region of its own colour (it starts on that region's edge).
    """
    h, w = a.shape
    found: list[Marker] = []
    sides = (
        ("v", a[0], a[1], 0),
        ("v", a[-1], a[-2], h - 1),
        ("h", a[:, 0], a[:, 1], 0),
        ("h", a[:, -1], a[:, -2], w - 1),
    )
    for axis, line, inner, place in sides:
        for k in range(1, len(line) - 1):
            colour = int(line[k])
            if colour == bg or line[k - 1] != bg or line[k + 1] != bg or (inward and inner[k] == colour):
                continue
            found.append((axis, k, place, colour))
    return found


def pierce(a: Array, bg: int, inward: bool = True) -> Array | None:
    """``a`` with every border marker's line drawn across it (see the module's docstring and `markers`)."""
    h, w = a.shape
    if h < 3 or w < 3:
        return None
    found = markers(a, bg, inward)
    if not found:
        return None
    out = a.copy()
    for axis, k, _, colour in sorted(found, key=lambda m: m[0] == "h"):
        line = a[:, k] if axis == "v" else a[k]
        drawn = np.where(line == colour, bg, colour).astype(a.dtype)
        if axis == "v":
            out[:, k] = drawn
        else:
            out[k] = drawn
    for axis, k, place, colour in found:  # each marker stays as it was
        if axis == "v":
            out[place, k] = colour
        else:
            out[k, place] = colour
    return None if np.array_equal(out, a) else out


def _pierce(inward: bool) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return pierce(a, bg_for(a, ctx), inward)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "pierce",
        (),
        2,
        lambda: _pierce(True),
        "shoot a line across the grid from every lone border marker",
        "same",
    ),
)
"""The piercing family."""

RIM_FAMILIES: tuple[Family, ...] = (
    Family(
        "pierce",
        (("rim",),),
        2,
        lambda _: _pierce(False),
        "shoot a line across the grid from every lone border cell, even one against its colour",
        "same",
    ),
)
"""``pierce(rim)``: every lone border cell shoots its line, the inward cell unchecked (``next`` only)."""
