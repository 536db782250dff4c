"""Extraction: crop to content, halves, parts between separators, one object chosen by a property."""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for, colour_counts, counts_without, ranked_colours
from .objects import CHOOSERS, MODES, choose, objects
from .parts import cells_or_quarters

__all__ = ["CORNERS", "FAMILIES", "PART_CHOICES", "window"]

CORNERS = ("tl", "tr", "bl", "br")
"""The corners a window may be anchored at."""

PART_CHOICES = ("first", "last", "max", "min", "odd", "many", "asym")
"""How ``part`` picks among the parts: by position, most or fewest foreground cells, the one
part unlike all the others, the part with most colours, or the one part that is not symmetric
left to right."""


def _crop() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        ys, xs = np.nonzero(a != bg_for(a, ctx))
        if len(ys) == 0:
            return None
        return a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]

    return prim


def _half(side: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if len(side) == 2:  # a quarter: the vertical half, then the horizontal one
            if h < 2 or w < 2:
                return None
            rows = a[: h // 2] if side[0] == "t" else a[(h + 1) // 2 :]
            return rows[:, : w // 2] if side[1] == "l" else rows[:, (w + 1) // 2 :]
        if side in ("top", "bottom"):
            if h < 2:
                return None
            return a[: h // 2] if side == "top" else a[(h + 1) // 2 :]
        if w < 2:
            return None
        return a[:, : w // 2] if side == "left" else a[:, (w + 1) // 2 :]

    return prim


def _part(which: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        parts = cells_or_quarters(a, bg)
        if parts is None:
            return None
        if which in ("first", "last"):
            return parts[0] if which == "first" else parts[-1]
        if which == "odd":
            keys = [p.tobytes() + bytes(p.shape) for p in parts]
            alone = [i for i, k in enumerate(keys) if keys.count(k) == 1]
            return parts[alone[0]] if len(alone) == 1 and len(parts) > 2 else None
        if which == "asym":
            lopsided = [i for i, p in enumerate(parts) if not np.array_equal(p, p[:, ::-1])]
            return parts[lopsided[0]] if len(lopsided) == 1 and len(parts) > 2 else None
        if which == "many":
            scores = [int(np.count_nonzero(colour_counts(p))) for p in parts]
        else:
            scores = [int(np.count_nonzero(p != bg)) for p in parts]
            if which == "min":
                scores = [-s for s in scores]
        best = max(scores)
        return parts[scores.index(best)] if scores.count(best) == 1 else None

    return prim


def window(corner: str, height: int, width: int) -> Prim:
    """The primitive ``window(corner,h,w)``: the h x w block at a corner of the grid.

    Its sizes are constants fitted from demonstrations whose outputs all have one shape, so it is
    not in the fixed list of primitives; the search adds it when the outputs call for it.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if height > h or width > w or (height, width) == (h, w):
            return None
        top = 0 if corner[0] == "t" else h - height
        left = 0 if corner[1] == "l" else w - width
        return a[top : top + height, left : left + width]

    return prim


def _swatch() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        counts = counts_without(a, bg_for(a, ctx))
        return np.full((1, 1), int(np.argmax(counts)), dtype=np.uint8) if counts.any() else None

    return prim


def _palette(axis: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        if axis.endswith("c"):  # by count, the commonest first
            colours = [c for c in ranked_colours(a) if c != bg]
        else:  # in order of first appearance, across or down
            order = a.T.ravel() if axis == "h" else a.ravel()
            _, first = np.unique(order, return_index=True)
            colours = [int(c) for c in order[np.sort(first)] if c != bg]
        if not colours:
            return None
        row = np.array([colours], dtype=np.uint8)
        return row if axis.startswith("h") else row.T

    return prim


def _pick(mode: str, prop: str, only: bool) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        i = choose(a, objs, prop)
        if i is None:
            return None
        box = objs.box(i)
        if not only:
            return a[box]
        return np.where(objs.labels[box] == i, a[box], np.uint8(bg)).astype(np.uint8)

    return prim


FAMILIES = (
    Family("crop", (), 1, _crop, "crop to the bounding box of the non-background cells", shape="shrink"),
    Family(
        "half",
        (("top", "bottom", "left", "right", *CORNERS),),
        2,
        _half,
        "one half (an odd middle line is dropped)",
        shape="shrink",
    ),
    Family("part", (PART_CHOICES,), 2, _part, "one of the parts between separator lines", shape="shrink"),
    Family("swatch", (), 2, _swatch, "one cell of the main foreground colour", shape="shrink"),
    Family(
        "palette",
        (("h", "v", "hc", "vc"),),
        2,
        _palette,
        "the foreground colours in order of first appearance, as a row (left to right) or column",
    ),
    Family(
        "pick",
        (MODES, CHOOSERS),
        2,
        lambda mode, prop: _pick(mode, prop, only=False),
        "the bounding box of the one object with a property",
        shape="shrink",
    ),
    Family(
        "cut",
        (MODES, CHOOSERS),
        3,
        lambda mode, prop: _pick(mode, prop, only=True),
        "the one object with a property, alone on the background, cropped",
        shape="shrink",
    ),
)
