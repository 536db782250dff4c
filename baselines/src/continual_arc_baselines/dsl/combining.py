"""Combining parts: a cell-wise logical operation on the masks of two or more parts, or an overlay."""

from __future__ import annotations

from functools import reduce

import numpy as np

from .family import Family, Prim
from .grid import FALSE, TRUE, Array, Context, Mask, bg_for
from .parts import SPLITS, split

__all__ = ["FAMILIES", "LOGIC", "combine"]


LOGIC = ("and", "or", "xor", "nor", "anb", "bna")
"""Cell-wise operations on foreground masks (``anb``: in the first part but not the second)."""


def _same_shape_parts(a: Array, ctx: Context, how: str) -> tuple[list[Array], list[int], int] | None:
    """The parts, each one's own background, and the grid's."""
    bg = bg_for(a, ctx)
    parts = split(a, bg, how)
    if parts is None or any(p.shape != parts[0].shape for p in parts):
        return None
    # Each part is read against its own background: Re-ARC often gives the halves different ones.
    return parts, [bg_for(p, ctx) for p in parts], bg


def combine(op: str, masks: list[Mask]) -> Mask | None:
    """The cell-wise operation ``op`` (one of `LOGIC`) on the masks; ``None`` when it needs two."""
    if op == "and":
        return reduce(np.logical_and, masks)
    if op == "or":
        return reduce(np.logical_or, masks)
    if op == "nor":
        return ~reduce(np.logical_or, masks)
    if op == "xor":
        return np.asarray(np.sum(masks, axis=0) % 2 == 1)
    if len(masks) != 2:
        return None
    first, second = masks if op == "anb" else masks[::-1]
    return first & ~second


def _logic(how: str, op: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _same_shape_parts(a, ctx, how)
        if found is None:
            return None
        parts, bgs, _ = found
        mask = combine(op, [p != b for p, b in zip(parts, bgs, strict=True)])
        if mask is None:
            return None
        return np.where(mask, np.uint8(TRUE), np.uint8(FALSE)).astype(np.uint8)

    return prim


def _overlay(how: str, order: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        found = _same_shape_parts(a, ctx, how)
        if found is None:
            return None
        parts, bgs, bg = found
        out = np.full(parts[0].shape, bg, dtype=np.uint8)
        pairs = list(zip(parts, bgs, strict=True))
        for p, b in pairs if order == "fwd" else pairs[::-1]:
            out = np.where(p != b, p, out)
        return out.astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "logic",
        (SPLITS, LOGIC),
        2,
        _logic,
        "a logical operation on the foreground of the parts",
        shape="shrink",
    ),
    Family(
        "overlay",
        (SPLITS, ("fwd", "rev")),
        2,
        _overlay,
        "overlay the parts, later (or earlier) on top",
        shape="shrink",
    ),
)
