"""Solids: the largest solid rectangle, stripes restored along their own axis, rings reversed.

Two clean-ups a person names at once:

* ``solid(which)`` and ``keepsolid``: the largest axis-aligned rectangle, at least 2 x 2, whose cells are all
  one colour: of the background (``bg``: "the biggest empty room") or of any one other colour
  (``fg``: "the solid block among the noise"). ``solid`` labels its cells `TRUE`, so the search's
  colour map names their new colour; ``keepsolid`` keeps the ``fg`` one alone on the background. A rectangle
  one cell thin is a line, not a room, so it never counts; when two rectangles tie for the
  largest the step does not apply (which one is meant is a guess).
* ``restripe``: a striped grid with noise, each row (or column) taking its commonest colour; the
  stripes' axis is the one whose restoring changes fewer cells, so one step serves a task whose
  pairs stripe either way (``stripes(h)`` and ``stripes(v)`` each fix the axis);
* ``onion``: a grid of concentric one-colour rings (a cell's ring is its distance to the nearest
  edge) with the rings' colours in reverse order, outside in.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, TRUE, Array, Context, bg_for

__all__ = ["FAMILIES", "WHICH", "largest_rectangle"]

WHICH = ("bg", "fg")
"""Whose rectangle: the background's, or any one other colour's."""

Box = tuple[int, int, int, int]
"""A rectangle as (top, left, height, width)."""


def largest_rectangle(a: Array, bg: int, which: str) -> Box | None:
    """The one largest solid rectangle (both sides >= 2) of ``which`` colours; ``None`` on a tie or none."""
    h, w = a.shape
    if h < 2 or w < 2:
        return None
    wanted = a == bg if which == "bg" else (a != bg) & (a < SENTINEL)
    # A rectangle at least 2 x 2 holds a 2 x 2 block: most grids have none and stop here.
    same_up = a[1:] == a[:-1]
    same_left = a[:, 1:] == a[:, :-1]
    blocks = same_up[:, 1:] & same_up[:, :-1] & same_left[1:] & wanted[1:, 1:]
    if not blocks.any():
        return None
    # heights[r, c]: how many cells of (r, c)'s colour run upward from it, itself included.
    heights = np.ones((h, w), dtype=np.int32)
    for r in range(1, h):
        heights[r] = np.where(same_up[r - 1], heights[r - 1] + 1, 1)
    # Only heights some wanted column reaches (noise keeps them low, so the tensor below small).
    hs = np.arange(2, int(heights[wanted].max()) + 1, dtype=np.int32)
    # tall[r, k, c]: the column of (r, c)'s colour ending at row r is at least hs[k] high.
    tall = (heights[:, None, :] >= hs[None, :, None]) & wanted[:, None, :]
    # A run of tall cells along a row, all one colour, starts where the colour or tallness breaks.
    joined = np.zeros((h, 1, w), dtype=bool)
    joined[:, 0, 1:] = same_left
    before = np.zeros_like(tall)
    before[:, :, 1:] = tall[:, :, :-1]
    start = tall & ~(joined & before)
    index = np.arange(w, dtype=np.int32)
    first = np.maximum.accumulate(np.where(start, index, -1), axis=2)
    widths = np.where(tall, index - first + 1, 0)
    area = np.where(widths >= 2, widths * hs[None, :, None], 0)
    top = int(area.max())
    if top == 0:
        return None
    # Each (row, height, end column) is one distinct rectangle: the largest must be alone.
    ends = np.argwhere(area == top)
    if len(ends) != 1:
        return None
    end_row, k, end_col = (int(v) for v in ends[0])
    height, width = int(hs[k]), int(widths[end_row, k, end_col])
    return end_row - height + 1, end_col - width + 1, height, width


def _solid(which: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        box = largest_rectangle(a, bg_for(a, ctx), which)
        if box is None:
            return None
        top, left, height, width = box
        out = a.copy()
        out[top : top + height, left : left + width] = TRUE
        return out

    return prim


def _keepsolid() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        box = largest_rectangle(a, bg, "fg")
        if box is None:
            return None
        top, left, height, width = box
        out = np.full_like(a, bg)
        out[top : top + height, left : left + width] = a[top : top + height, left : left + width]
        return None if np.array_equal(out, a) else out

    return prim


def _restripe() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        made = []
        for b in (a, a.T):
            counts = np.stack([np.bincount(row, minlength=256) for row in b])
            # Each line takes its commonest value (the lower one on a tie).
            fill = np.argmax(counts, axis=1).astype(np.uint8)
            made.append(np.repeat(fill[:, None], b.shape[1], axis=1))
        rows, cols = made[0], np.ascontiguousarray(made[1].T)
        changed_rows, changed_cols = int((rows != a).sum()), int((cols != a).sum())
        if changed_rows == changed_cols:
            return None  # no axis stands out: not a striped grid
        out = rows if changed_rows < changed_cols else cols
        return None if np.array_equal(out, a) else out

    return prim


def _onion() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        ys, xs = np.indices((h, w))
        depth = np.minimum(np.minimum(ys, h - 1 - ys), np.minimum(xs, w - 1 - xs))
        layers = int(depth.max()) + 1
        if layers < 2:
            return None
        # Each ring must be one colour: the colour of its top-left corner cell (d, d).
        ring = a[np.arange(layers), np.arange(layers)]
        if not np.array_equal(a, ring[depth]):
            return None
        out = ring[::-1][depth].astype(np.uint8)
        return None if np.array_equal(out, a) else out

    return prim


FAMILIES: tuple[Family, ...] = (
    Family("solid", (WHICH,), 2.5, _solid, "label the largest one-colour rectangle (2 x 2 or more)", "same"),
    Family("keepsolid", (), 2.5, _keepsolid, "keep only the largest solid non-background block", "same"),
    Family("restripe", (), 2.5, _restripe, "restore noisy stripes along whichever axis they run", "same"),
    Family("onion", (), 2.5, _onion, "reverse the colours of a grid's concentric rings", "same"),
)
"""The largest solid rectangle, stripes restored along their own axis, and rings reversed."""
