"""Size: scale up and down, tile, mirror-concatenate, and the self-similar (fractal) tiling."""

from __future__ import annotations

import itertools
import math

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for, colour_counts, counts_without

__all__ = ["FAMILIES", "MIRRORS"]

MIRRORS = ("h", "h2", "v", "v2", "hv", "rot")
"""Mirror-concatenations: the grid then its left-right mirror (``h``), the mirror first (``h2``),
the same downwards (``v``, ``v2``), four mirrored quadrants (``hv``), four rotated quadrants (``rot``)."""


def _up(k: str) -> Prim:
    n = int(k)

    def prim(a: Array, ctx: Context) -> Array:
        return np.repeat(np.repeat(a, n, axis=0), n, axis=1)

    return prim


def _blocks(a: Array, n: int) -> Array | None:
    h, w = a.shape
    if h % n or w % n:
        return None
    small = a[::n, ::n]
    if not np.array_equal(np.repeat(np.repeat(small, n, axis=0), n, axis=1), a):
        return None
    return small


def _down(k: str) -> Prim:
    n = int(k)
    return lambda a, ctx: _blocks(a, n)


def _run_gcd(a: Array) -> int:
    """The gcd of the lengths of the runs of equal consecutive rows."""
    change = np.flatnonzero(np.any(a[1:] != a[:-1], axis=1)) + 1
    bounds = [0, *change.tolist(), a.shape[0]]
    return math.gcd(*(b - s for s, b in itertools.pairwise(bounds)))


def _vote(k: str) -> Prim:
    n = int(k)

    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if h % n or w % n or (h == n and w == n):
            return None
        blocks = a.reshape(h // n, n, w // n, n).transpose(0, 2, 1, 3).reshape(-1, n * n)
        which = np.repeat(np.arange(len(blocks)), n * n) * 256 + blocks.ravel()
        counts = np.bincount(which, minlength=len(blocks) * 256).reshape(-1, 256)
        # The most frequent value of each block; a tie goes to the lower value.
        out: Array = np.argmax(counts, axis=1).astype(np.uint8).reshape(h // n, w // n)
        return out

    return prim


def _shrink() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        ky, kx = _run_gcd(a), _run_gcd(a.T)
        if ky * kx == 1:
            return None
        return a[::ky, ::kx]

    return prim


def _tile(shape: str) -> Prim:
    r, c = (int(n) for n in shape.split("x"))
    return lambda a, ctx: np.tile(a, (r, c))


def _mirror(kind: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if kind == "h":
            return np.hstack([a, a[:, ::-1]])
        if kind == "h2":
            return np.hstack([a[:, ::-1], a])
        if kind == "v":
            return np.vstack([a, a[::-1]])
        if kind == "v2":
            return np.vstack([a[::-1], a])
        if kind == "hv":
            top = np.hstack([a, a[:, ::-1]])
            return np.vstack([top, top[::-1]])
        if a.shape[0] != a.shape[1]:
            return None
        top = np.hstack([a, np.rot90(a, -1)])
        return np.vstack([top, np.rot90(top, 2)])

    return prim


def _fractal(kind: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        mask = a != bg if kind == "fg" else a == bg
        if not mask.any():
            return None
        big = np.kron(mask.astype(np.uint8), a)
        return np.where(np.kron(mask, np.ones_like(mask)), big, np.uint8(bg)).astype(np.uint8)

    return prim


def _upn() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        n = int(np.count_nonzero(colour_counts(a))) - 1
        if n < 2:
            return None
        return np.repeat(np.repeat(a, n, axis=0), n, axis=1)

    return prim


def _count() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        counts = counts_without(a, bg)
        n = int(counts.sum())
        if not 0 < n <= 30:
            return None
        return np.full((1, n), int(np.argmax(counts)), dtype=np.uint8)

    return prim


FAMILIES = (
    Family("shrink", (), 1, _shrink, "undo a scaling: one cell per uniform block", shape="shrink"),
    Family("up", (("2", "3", "4"),), 2, _up, "scale up by a factor", shape="grow"),
    Family(
        "down",
        (("2", "3"),),
        2,
        _down,
        "scale down by a factor (the grid must be uniform blocks)",
        shape="shrink",
    ),
    Family(
        "vote",
        (("2", "3"),),
        2,
        _vote,
        "scale down by a factor: each block's most frequent value",
        shape="shrink",
    ),
    Family("upn", (), 3, _upn, "scale up by the number of foreground colours", shape="grow"),
    Family("count", (), 2, _count, "a row of the main foreground colour, one cell per foreground cell"),
    Family(
        "tile",
        (("1x2", "1x3", "2x1", "3x1", "2x2", "3x3", "2x3", "3x2"),),
        2,
        _tile,
        "repeat the grid (rows)x(columns) times",
        shape="grow",
    ),
    Family("mirror", (MIRRORS,), 2, _mirror, "concatenate the grid with its mirror images", shape="grow"),
    Family(
        "fractal",
        (("fg", "bg"),),
        3,
        _fractal,
        "replace each foreground (or background) cell by a copy of the grid, others by background",
        shape="grow",
    ),
)
