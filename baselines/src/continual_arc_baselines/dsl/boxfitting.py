"""Box fitting: a small template, scaled up, completed inside the box that four corner marks frame.

Some grids mark a box with four cells of one colour at its corners, hold a few blocks of a
picture inside it, and show the whole picture small somewhere outside it: the answer is the box
with the picture completed, the template scaled up (each cell a ``ky x kx`` block, any two
factors that fit the box) and placed so that it covers every block already inside.

``boxfit{}`` finds the one colour with exactly four cells at the corners of a rectangle, takes the
other cells outside that box (two or more) as the template, cropped to their bounding box, and
tries every scale and every place that puts the first cell inside the box at the top-left of a
template block of its own colour. A placement fits when it lies in the box, every cell inside
(but the corners) falls on a block of its colour, and every block is either wholly there or
wholly missing. Exactly one placement must fit (a second leaves the answer in doubt), else the
step does not apply; the answer is the box with the scaled template painted in.
"""

from __future__ import annotations

import numpy as np

from .family import on_colours
from .grid import Array
from .offering import offered_fitter

__all__ = ["FITTER", "box_fit", "corner_box"]

Box = tuple[int, int, int, int]


def corner_box(a: Array, bg: int) -> tuple[int, Box] | None:
    """The colour and box (top, left, bottom, right, inclusive) of the one set of four corner marks."""
    found = None
    for colour in np.unique(a).tolist():
        if colour == bg:
            continue
        ys, xs = np.nonzero(a == colour)
        if len(ys) != 4:
            continue
        y0, y1, x0, x1 = int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())
        if (
            y1 - y0 < 2
            or x1 - x0 < 2
            or sorted(zip(ys.tolist(), xs.tolist(), strict=True))
            != [
                (y0, x0),
                (y0, x1),
                (y1, x0),
                (y1, x1),
            ]
        ):
            continue
        if found is not None:
            return None
        found = (int(colour), (y0, x0, y1, x1))
    return found


def _fits(given: Array, tpl: Array, bg: int, ky: int, kx: int, oy: int, ox: int) -> bool:
    """Whether the template scaled by ``ky x kx`` at ``(oy, ox)`` covers ``given`` in whole blocks."""
    h, w = given.shape
    th, tw = tpl.shape
    if oy < 0 or ox < 0 or oy + th * ky > h or ox + tw * kx > w:
        return False
    scaled = np.full(given.shape, bg, dtype=np.uint8)
    scaled[oy : oy + th * ky, ox : ox + tw * kx] = np.kron(tpl, np.ones((ky, kx), dtype=np.uint8))
    present = given != bg
    if not np.array_equal(scaled[present], given[present]):
        return False
    window = present[oy : oy + th * ky, ox : ox + tw * kx]
    blocks = window.reshape(th, ky, tw, kx).sum(axis=(1, 3))
    return bool(np.isin(blocks, (0, ky * kx)).all())


def box_fit(a: Array, bg: int) -> Array | None:
    """The marked box with the scaled template completed in it (see the module)."""
    found = corner_box(a, bg)
    if found is None:
        return None
    mark, (y0, x0, y1, x1) = found
    outside = (a != bg) & (a != mark)
    outside[y0 : y1 + 1, x0 : x1 + 1] = False
    ys, xs = np.nonzero(outside)
    if len(ys) < 2:
        return None  # a template of one cell says nothing of its scale
    tpl = np.where(outside, a, bg)[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    box = a[y0 : y1 + 1, x0 : x1 + 1].copy()
    given = box.copy()
    for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        given[y, x] = bg
    gys, gxs = np.nonzero(given != bg)
    if len(gys) == 0:
        return None
    gy, gx = int(gys[0]), int(gxs[0])
    tys, txs = np.nonzero(tpl == given[gy, gx])
    # The first cell inside, in reading order, is the top-left cell of its block: the block is
    # wholly there, so no cell of it comes earlier. That fixes the place for each scale.
    placements = set()
    th, tw = tpl.shape
    for ky in range(1, given.shape[0] // th + 1):
        for kx in range(1, given.shape[1] // tw + 1):
            for ty, tx in zip(tys.tolist(), txs.tolist(), strict=True):
                oy, ox = gy - ty * ky, gx - tx * kx
                if _fits(given, tpl, bg, ky, kx, oy, ox):
                    placements.add((ky, kx, oy, ox))
    if len(placements) != 1:
        return None
    ky, kx, oy, ox = placements.pop()
    scaled = np.kron(tpl, np.ones((ky, kx), dtype=np.uint8))
    window = box[oy : oy + scaled.shape[0], ox : ox + scaled.shape[1]]
    window[scaled != bg] = scaled[scaled != bg]
    return box


FITTER = offered_fitter("boxfit", ("",), lambda _: on_colours(box_fit), 3.0, "shrink")
"""Completing a template inside a marked box, offered when it answers the demonstrations alone."""
