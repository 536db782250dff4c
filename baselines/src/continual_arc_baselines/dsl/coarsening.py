"""Coarsening: a shape drawn in big square blocks under scattered noise, read back one cell a block.

Some grids draw a shape at a large scale (each of its cells a ``k x k`` block of one colour) and
strew specks of a second colour over everything, the shape included. The answer is the shape at
its own small scale, drawn in the specks' colour (or its own) on the background.

``coarse{p}`` needs exactly two colours besides the background: the *shape's*, the one with the
larger 4-connected piece, and the *specks'*. It crops the shape's bounding box and takes the
largest block side ``k`` (at least 2, dividing both sides, less than the larger) at which every
block either holds no cell of the shape's colour or holds no background (specks may sit on the
shape). Each block of the shape becomes one cell painted ``p`` (`PAINTS`: ``n`` the specks'
colour, ``s`` the shape's own); the others are background. No such ``k`` makes it not apply.
"""

from __future__ import annotations

import numpy as np

from .family import Prim, on_colours
from .grid import Array
from .objects import objects
from .offering import offered_fitter

__all__ = ["FITTER", "PAINTS", "coarse"]

PAINTS = ("n", "s")
"""What the shape's cells are painted: the specks' colour, or the shape's own."""


def coarse(a: Array, bg: int, paint: str) -> Array | None:
    """``a``'s blocky shape read one cell a block (see the module)."""
    colours = [c for c in np.unique(a).tolist() if c != bg]
    if len(colours) != 2:
        return None
    pieces = objects(a, bg, "4")
    largest = {
        c: max((int(s) for s, k in zip(pieces.sizes, pieces.colours, strict=True) if k == c), default=0)
        for c in colours
    }
    if largest[colours[0]] == largest[colours[1]]:
        return None
    shape = max(colours, key=lambda c: largest[c])
    specks = colours[0] if shape == colours[1] else colours[1]
    ys, xs = np.nonzero(a == shape)
    box = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = box.shape
    for k in range(min(h, w), 1, -1):
        if h % k or w % k or k == max(h, w):
            continue
        blocks = box.reshape(h // k, k, w // k, k)
        has_shape = (blocks == shape).any(axis=(1, 3))
        has_ground = (blocks == bg).any(axis=(1, 3))
        if (has_shape & has_ground).any():
            continue
        out = np.full(has_shape.shape, bg, dtype=np.uint8)
        out[has_shape] = specks if paint == "n" else shape
        return out
    return None


def _coarse(paint: str) -> Prim:
    return on_colours(lambda a, bg: coarse(a, bg, paint))


FITTER = offered_fitter("coarse", PAINTS, _coarse, 3.0, "shrink")
"""Reading a noisy blocky shape small, offered when it answers the demonstrations alone."""
