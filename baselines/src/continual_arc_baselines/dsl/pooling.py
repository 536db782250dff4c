"""Pooling into a layout: one cell per part of an n x n cut, or per block of a grid of blocks.

``vote`` (`sizing`) scales down by a factor, each block's commonest value; ``cells``
(`tiling`) needs separator lines. Some tasks scatter one mark in each part of an
unmarked n x n layout whose parts need not be equal (a 13-wide box cut in two), and ask for the
marks: ``pool(n)`` gives each part its commonest colour other than the background, or the
background when it has none. Parts are cut as `numpy.array_split` cuts: the first ones
one row (column) longer when the side does not divide. ``objgrid`` reads a layout drawn as solid
blocks among noise instead: one cell per block, in its colour, rows and columns as they lie.
``blockgrid`` (`ALL_FAMILIES`, under measurement) reads the same layout with no colour set aside as
background: when one block is drawn in the grid's commonest colour, ``objgrid`` loses it (and the
row it sits in) to the background.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, Array, bg_for, counts_without
from .objects import objects

__all__ = ["ALL_FAMILIES", "FAMILIES", "LARGE", "layout", "pool"]

LARGE = 0.25
"""The least share of the largest block's cells a block needs to count in a layout."""


def pool(a: Array, n: int, bg: int) -> Array | None:
    """One cell per part of an ``n`` x ``n`` cut of ``a``: its commonest non-background colour."""
    h, w = a.shape
    if h < n or w < n or (h == n and w == n):
        return None
    out = np.full((n, n), bg, dtype=np.uint8)
    for r, band in enumerate(np.array_split(a, n, axis=0)):
        for c, part in enumerate(np.array_split(band, n, axis=1)):
            counts = counts_without(part, bg)
            if counts.any():
                out[r, c] = int(np.argmax(counts))
    return out


def layout(a: Array, bg: int) -> Array | None:
    """One cell per block (a solid single-colour rectangle), placed as the blocks are laid out.

    A block is a rectangle at least 2 x 2 that holds at least `LARGE` of the largest one's
    cells; anything else is noise. Blocks whose row spans overlap the first one's of a row form
    that row, left to right; every row must hold as many blocks.
    """
    objs = objects(a, bg, "4")
    if len(objs) < 2:
        return None
    heights, widths = objs.bottoms - objs.tops, objs.rights - objs.lefts
    solid = (heights * widths == objs.sizes) & (heights > 1) & (widths > 1)
    keep = np.flatnonzero(solid & (objs.sizes >= LARGE * objs.sizes[solid].max(initial=0)))
    rows: list[list[int]] = []
    for i in sorted(keep.tolist(), key=lambda i: (int(objs.tops[i]), int(objs.lefts[i]))):
        head = rows[-1][0] if rows else None
        if head is not None and objs.tops[i] < objs.bottoms[head] and objs.bottoms[i] > objs.tops[head]:
            rows[-1].append(i)
        else:
            rows.append([i])
    if len({len(row) for row in rows}) != 1 or len(keep) < 2:
        return None
    ordered = [sorted(row, key=lambda i: int(objs.lefts[i])) for row in rows]
    return np.array([[objs.colours[i] for i in row] for row in ordered], dtype=np.uint8)


def _layout() -> Prim:
    return lambda a, ctx: layout(a, bg_for(a, ctx))


def _layout_all() -> Prim:
    # A background no cell holds: every colour's solid blocks count, the commonest's too.
    return lambda a, ctx: None if int(a.max()) >= SENTINEL else layout(a, SENTINEL)


def _pool(k: str) -> Prim:
    n = int(k)
    return lambda a, ctx: pool(a, n, bg_for(a, ctx))


FAMILIES = (
    Family(
        "pool",
        (("2", "3"),),
        2,
        _pool,
        "cut into n x n near-equal parts: each part's commonest non-background colour",
        shape="shrink",
    ),
    Family(
        "objgrid",
        (),
        2,
        _layout,
        "one cell per solid block, in its colour, laid out as the blocks are",
        shape="shrink",
    ),
)

ALL_FAMILIES = (
    Family(
        "blockgrid",
        (),
        4,
        _layout_all,
        "one cell per solid block of any colour, background's too, laid out as the blocks are",
        shape="shrink",
    ),
)
"""The block layout with no background set aside: searched only in ``next``."""
