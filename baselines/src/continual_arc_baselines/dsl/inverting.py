"""Inverting: a picture drawn in two colours with the colours exchanged, figure for ground.

``invert`` exchanges the two colours of a grid that holds exactly two. A colour map alone can
write an exchange only when roles name both colours alike in every pair; "the colour that is
not grey" is no role, so a task such as "grey becomes the other colour, the other colour becomes
black" needs the exchange first and a literal map (``5>0``) after it.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES"]


def _invert() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        held = np.unique(a)
        if len(held) != 2:
            return None
        low, high = held.tolist()
        return np.where(a == low, np.uint8(high), np.uint8(low)).astype(np.uint8)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("invert", (), 2, _invert, "exchange the two colours of a two-coloured grid", "same"),
)
"""The exchange of a two-coloured grid's colours."""
