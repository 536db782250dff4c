"""Combining parts that share one colour but not their most frequent one.

`combining` reads every part against the grid's background, which is right when that colour
is each part's background. Re-ARC draws each half's foreground at its own density: one half may be
mostly foreground, so the grid's most frequent colour is a foreground colour there (7 on 8 beside
8 on 5). What the parts do share is their background, the one colour all of them hold.
``logicbg`` reads the parts against that colour and keeps it where the mask is false, so only the
mask's colour is left for the fitted map.
"""

from __future__ import annotations

import numpy as np

from .combining import LOGIC, combine
from .family import Family, Prim
from .grid import TRUE, Array, Context, bg_for
from .parts import SPLITS, split

__all__ = ["FAMILIES", "HOWS"]


HOWS = (*SPLITS, "hv")
"""How ``logicbg`` cuts: as `parts.split` does, or ``hv``: into the halves (left and right,
else top and bottom) that share exactly one colour, as Re-ARC turns a task's pairs every way."""


def _parts(a: Array, ctx: Context, how: str) -> tuple[list[Array], int] | None:
    """The parts, of one shape, and the one colour they all hold."""
    for way in ("h", "v") if how == "hv" else (how,):
        parts = split(a, bg_for(a, ctx), way)
        if parts is None or any(p.shape != parts[0].shape for p in parts):
            continue
        shared = _shared(parts)
        if shared is not None:
            return parts, shared
    return None


def _shared(parts: list[Array]) -> int | None:
    """The one colour every part holds, if exactly one is."""
    common = set(np.unique(parts[0]).tolist())
    for p in parts[1:]:
        common &= set(np.unique(p).tolist())
    return common.pop() if len(common) == 1 else None


def _logic_shared(how: str, op: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _parts(a, ctx, how)
        if found is None:
            return None
        parts, bg = found
        mask = combine(op, [p != bg for p in parts])
        return None if mask is None else np.where(mask, np.uint8(TRUE), np.uint8(bg)).astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "logicbg",
        (HOWS, LOGIC),
        2.5,
        _logic_shared,
        "a logical operation on the parts against the one colour they all hold, which stays",
        shape="shrink",
    ),
)
