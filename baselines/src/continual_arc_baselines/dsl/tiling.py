"""Repetition: the smallest repeating tile, repeated lines, periodic completion, cells of a layout.

The last summarises the parts between separators as one cell each (their main colour).
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, Mask, bg_for, colour_counts, counts_without
from .parts import runs, separator_layout, separator_lines

__all__ = ["FAMILIES", "period"]


def period(a: Array, known: Mask | None = None) -> int:
    """The smallest row period of ``a`` (rows ``y`` and ``y + p`` agree wherever both are known)."""
    h = a.shape[0]
    same = a[:, None, :] == a[None, :, :]
    if known is not None:
        same |= ~known[:, None, :] | ~known[None, :, :]
    # agree[y, z]: rows y and z agree; period p needs every pair (y, y + p) to agree.
    agree = same.all(axis=2)
    for p in range(1, h):
        if bool(agree.diagonal(p).all()):
            return p
    return int(h)


def _tile(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        py = period(a) if "v" in axes else a.shape[0]
        px = period(a.T) if "h" in axes else a.shape[1]
        if (py, px) == a.shape:
            return None
        return a[:py, :px]

    return prim


def _dedup() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        rows = np.concatenate(([True], np.any(a[1:] != a[:-1], axis=1)))
        cols = np.concatenate(([True], np.any(a[:, 1:] != a[:, :-1], axis=0)))
        if rows.all() and cols.all():
            return None
        return a[rows][:, cols]

    return prim


def _complete(a: Array, hole: int) -> Array | None:
    known = a != hole
    py, px = period(a, known), period(a.T, known.T)
    h, w = a.shape
    if (py, px) == (h, w):
        return None
    ny, nx = -(-h // py), -(-w // px)
    pad = ((0, ny * py - h), (0, nx * px - w))
    cells = np.pad(a.astype(np.int16), pad, constant_values=-1).reshape(ny, py, nx, px)
    seen = np.pad(known, pad).reshape(ny, py, nx, px)
    low = np.where(seen, cells, 99).min(axis=(0, 2))
    high = np.where(seen, cells, -1).max(axis=(0, 2))
    if np.any(low != high):
        return None
    tile = np.tile(high, (ny, nx))[:h, :w]
    return np.where(known, a, tile).astype(np.uint8)


def _tilefill() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        counts = colour_counts(a)
        # The holes are one colour; the rarest colours are tried first.
        for hole in sorted(np.flatnonzero(counts).tolist(), key=lambda c: (counts[c], c)):
            done = _complete(a, hole)
            if done is not None:
                return done
        return None

    return prim


def _cells() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        layout = separator_layout(a, bg)
        if layout is None:
            return None
        out = np.full((len(layout), len(layout[0])), bg, dtype=np.uint8)
        for r, row in enumerate(layout):
            for c, part in enumerate(row):
                counts = counts_without(part, bg)
                if counts.any():
                    out[r, c] = int(np.argmax(counts))
        return out

    return prim


def _partfill() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        rows, cols = separator_lines(a, bg)
        if rows is None or cols is None:
            return None
        out = a.copy()
        for r0, r1 in runs(rows):
            for c0, c1 in runs(cols):
                counts = counts_without(a[r0:r1, c0:c1], bg)
                if counts.any():
                    out[r0:r1, c0:c1] = int(np.argmax(counts))
        return None if np.array_equal(out, a) else out

    return prim


FAMILIES = (
    Family(
        "period",
        (("hv", "h", "v"),),
        2,
        _tile,
        "the smallest tile whose repetition makes the grid (across, down, or both)",
        shape="shrink",
    ),
    Family(
        "dedup", (), 2, _dedup, "remove each row or column that repeats the one before it", shape="shrink"
    ),
    Family("tilefill", (), 2, _tilefill, "fill the cells of one colour so the grid repeats a tile", "same"),
    Family("partfill", (), 2, _partfill, "fill each part between separators with its main colour", "same"),
    Family("cells", (), 2, _cells, "one cell per part between separators: its main colour", shape="shrink"),
)
