"""Gathering pieces at their anchors: every object laid over the others, aligned on a marker cell.

Some grids scatter pieces that each hold one cell of a marker colour (the same colour in every
piece), and ask for the pieces put together: each one moved so its marker lands on one common
cell, all of them overlaid, and the result cropped to what they cover. ``gather`` finds the
marker itself: the one colour of which every multicolour object (8-connected) holds exactly one
cell, with at least two objects; the pieces must not disagree where they overlap (a cell two
pieces paint must get one colour), else the step does not apply.

``jigsaw`` puts two pieces together instead by their outlines: the grid's two objects (one
colour each, 8-connected), one moved against the other so that together they fill a rectangle
exactly, with no cell covered twice; the rectangle is the answer. There must be one such way.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import objects

__all__ = ["FAMILIES", "gather", "jigsaw"]


def gather(a: Array, bg: int) -> Array | None:
    """The pieces of ``a`` overlaid on their common marker, cropped (see the module)."""
    objs = objects(a, bg, "m8")
    n = len(objs)
    if n < 2:
        return None
    labels = objs.labels
    anchors = []
    for colour in range(10):
        if colour == bg:
            continue
        on = labels[(a == colour) & (labels >= 0)]
        if len(on) == n and np.array_equal(np.sort(on), np.arange(n)):
            anchors.append(colour)
    if len(anchors) != 1:
        return None
    anchor = anchors[0]
    # Every piece's cells as offsets from its marker.
    ys, xs = np.nonzero(labels >= 0)
    owner = labels[ys, xs]
    ay, ax = np.zeros(n, dtype=np.intp), np.zeros(n, dtype=np.intp)
    my, mx = np.nonzero((a == anchor) & (labels >= 0))
    ay[labels[my, mx]], ax[labels[my, mx]] = my, mx
    dy, dx = ys - ay[owner], xs - ax[owner]
    top, left = int(dy.min()), int(dx.min())
    h, w = int(dy.max()) - top + 1, int(dx.max()) - left + 1
    out = np.full((h, w), bg, dtype=np.uint8)
    painted = np.zeros((h, w), dtype=bool)
    values = a[ys, xs]
    py, px = dy - top, dx - left
    for y, x, v in zip(py.tolist(), px.tolist(), values.tolist(), strict=True):
        if painted[y, x] and out[y, x] != v:
            return None  # two pieces disagree: they do not fit together this way
        out[y, x] = v
        painted[y, x] = True
    return out


def jigsaw(a: Array, bg: int) -> Array | None:
    """The rectangle the two pieces of ``a`` fill when fitted together (see the module)."""
    objs = objects(a, bg, "8")
    if len(objs) != 2:
        return None
    first, second = (np.where(objs.labels[objs.box(i)] == i, a[objs.box(i)], np.uint8(bg)) for i in (0, 1))
    (h1, w1), (h2, w2) = first.shape, second.shape
    cells = int(objs.sizes[0] + objs.sizes[1])
    found: list[Array] = []
    # Offsets of the second piece's box from the first's, wherever the boxes touch or overlap.
    for dy in range(-h2, h1 + 1):
        for dx in range(-w2, w1 + 1):
            top, left = min(0, dy), min(0, dx)
            h, w = max(h1, dy + h2) - top, max(w1, dx + w2) - left
            if h * w != cells:
                continue
            out = np.full((h, w), bg, dtype=np.uint8)
            out[-top : -top + h1, -left : -left + w1] = first
            window = out[dy - top : dy - top + h2, dx - left : dx - left + w2]
            if ((window != bg) & (second != bg)).any():
                continue
            window[second != bg] = second[second != bg]
            if (out != bg).all():
                found.append(out)
    return found[0] if len(found) == 1 else None


def _jigsaw() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return jigsaw(a, bg_for(a, ctx))

    return prim


def _gather() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return gather(a, bg_for(a, ctx))

    return prim


FAMILIES = (
    Family(
        "gather", (), 3, _gather, "overlay every piece aligned on its marker cell, cropped", shape="shrink"
    ),
    Family("jigsaw", (), 3, _jigsaw, "the rectangle two pieces fill when fitted together", shape="shrink"),
)
"""Gathering pieces at their anchors, or fitting two together."""
