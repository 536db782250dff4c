"""Piercing from a region's rim: a border marker whose line starts on a region of its own colour.

`piercing`'s ``pierce`` takes a lone border cell for a marker only when the cell inward of it is
not of its colour, so that the edge of a region touching the border is no marker. Some tasks set
a marker right against a region of its own colour (the line then runs through that region as a
gap of background from its first cell on). ``pierce(rim)`` draws the same lines, the inward cell
unchecked: a lone border cell between two background cells along the border is a marker whatever
lies inward of it. It is tried after ``pierce``, so where both reproduce the demonstrations the
stricter reading answers.
"""

from __future__ import annotations

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .piercing import pierce

__all__ = ["FAMILIES", "PIERCE_RIM_COST"]

PIERCE_RIM_COST = 2.0
"""As ``pierce``: one more reading of the same lines."""


def _pierce_rim(which: str) -> Prim:
    """The step ``pierce(rim)``: every lone border cell shoots its line, the inward cell unchecked."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return pierce(a, bg_for(a, ctx), inward=False)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "pierce",
        (("rim",),),
        PIERCE_RIM_COST,
        _pierce_rim,
        "shoot a line across the grid from every lone border cell, even one against its colour",
        "same",
    ),
)
"""The rim-piercing family, for the ``next`` catalogue."""
