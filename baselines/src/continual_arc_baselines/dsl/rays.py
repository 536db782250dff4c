"""Rays: for each cell, the colour of the nearest foreground cell in a direction.

Line extension, connecting and gravity-like painting all reduce to this one question, answered
with NumPy accumulations (orthogonal directions) or a short propagation loop (diagonals).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .grid import Array, Mask, key_of

__all__ = ["DIRECTIONS", "ray"]

Rays = npt.NDArray[np.int16]
_CACHE: dict[tuple[bytes, int, str], Rays] = {}
_CACHE_LIMIT = 8192

DIRECTIONS = {
    "down": (1, 0),
    "up": (-1, 0),
    "right": (0, 1),
    "left": (0, -1),
    "dr": (1, 1),
    "dl": (1, -1),
    "ur": (-1, 1),
    "ul": (-1, -1),
}
"""Each direction a ray may travel, as (row step, column step)."""


def _from_above(a: Array, fg: Mask) -> Rays:
    h, w = a.shape
    idx = np.where(fg, np.arange(h)[:, None], -1)
    last = np.maximum.accumulate(idx, axis=0)
    values = a[np.clip(last, 0, None), np.arange(w)[None, :]].astype(np.int16)
    return np.where(last >= 0, values, np.int16(-1))


def _diagonal(a: Array, fg: Mask, dy: int, dx: int) -> Rays:
    if dy < 0:
        return _diagonal(a[::-1], fg[::-1], 1, dx)[::-1]
    h, w = a.shape
    ys, xs = np.indices((h, w))
    # Shear the grid so each diagonal becomes a column, then look upwards as for "down".
    cols = xs - ys + h - 1 if dx > 0 else xs + ys
    sheared = np.zeros((h, w + h - 1), dtype=a.dtype)
    mask = np.zeros((h, w + h - 1), dtype=bool)
    sheared[ys, cols] = a
    mask[ys, cols] = fg
    out: Rays = _from_above(sheared, mask)[ys, cols]
    return out


def ray(a: Array, bg: int, direction: str) -> Rays:
    """For each cell, the colour of the nearest foreground cell a ray travelling ``direction`` came from.

    A foreground cell (any value but ``bg``) is its own nearest; -1 where no ray arrives. Cached,
    since line extension and connecting ask for the same rays of the same grid.
    """
    key = (key_of(a), bg, direction)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = _ray(a, a != bg, direction)
    return found


def _ray(a: Array, fg: Mask, direction: str) -> Rays:
    dy, dx = DIRECTIONS[direction]
    if dy and dx:
        return _diagonal(a, fg, dy, dx)
    if direction == "down":
        return _from_above(a, fg)
    if direction == "up":
        return _from_above(a[::-1], fg[::-1])[::-1]
    if direction == "right":
        return _from_above(a.T, fg.T).T
    return _from_above(a[:, ::-1].T, fg[:, ::-1].T).T[:, ::-1]
