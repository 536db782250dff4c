"""Quartering: four corner pieces put together into one box, and four corner marks painting quarters.

Two ways a grid's four corners decide its answer:

* ``assemble{}``: four L-shaped pieces lie scattered, each the corner of a box outline (two arms
  meeting at a bend, in the top-left, top-right, bottom-left or bottom-right of its own box).
  Put together, each in its own corner, they close into one box outline: its height is the
  top-left piece's plus the bottom-left's, which must equal the top-right's plus the
  bottom-right's (its width likewise). The rest is the background. A grid without exactly one
  piece for each corner, or whose pieces do not close, gives ``None``.
* ``quarters{}``: a picture inside a one-line frame, a cell of its own colour at each of the
  grid's four corners outside the frame, the rest of the strip outside the frame bare
  background. The picture (the frame and the strip taken off) keeps that background, and each
  of its other cells takes the colour of the corner mark of its quarter. The frame must be one
  colour and the picture's sides even.
"""

from __future__ import annotations

import numpy as np

from .family import on_colours
from .grid import Array
from .objects import objects
from .offering import offered_fitter

__all__ = ["ASSEMBLE", "QUARTERS", "assemble", "corner_of", "paint_quarters"]


def corner_of(piece: np.ndarray) -> int | None:
    """Which corner a piece's mask is (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right).

    ``None`` unless its cells fill exactly one row and one column of its box's edges, meeting at
    that corner, both arms at least two cells long.
    """
    h, w = piece.shape
    if h < 2 or w < 2:
        return None
    found = None
    for k, (y, x) in enumerate(((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))):
        arms = np.zeros_like(piece)
        arms[y, :] = True
        arms[:, x] = True
        if np.array_equal(piece, arms):
            if found is not None:
                return None
            found = k
    return found


def assemble(a: Array, bg: int) -> Array | None:
    """``a``'s four corner pieces put together into one box outline (see the module)."""
    objs = objects(a, bg, "8")
    if len(objs) != 4:
        return None
    pieces: dict[int, Array] = {}
    for i in range(len(objs)):
        box = objs.box(i)
        mask = objs.mask(i)[box]
        corner = corner_of(mask)
        if corner is None or corner in pieces:
            return None
        pieces[corner] = np.where(mask, a[box], bg)  # another piece may reach into its box
    (h0, w0), (h1, w1), (h2, w2), (h3, w3) = (pieces[k].shape for k in range(4))
    height, width = h0 + h2, w0 + w1
    if h1 + h3 != height or w2 + w3 != width:
        return None
    out = np.full((height, width), bg, dtype=np.uint8)
    for k, (y, x) in enumerate(((0, 0), (0, width - w1), (height - h2, 0), (height - h3, width - w3))):
        piece = pieces[k]
        window = out[y : y + piece.shape[0], x : x + piece.shape[1]]
        marks = piece != bg
        window[marks] = piece[marks]
    return out


def paint_quarters(a: Array, bg: int) -> Array | None:
    """``a``'s framed picture, its cells painted by the corner marks of their quarters (see the module).

    The picture's background is read off the bare strip outside the frame, not ``bg``: a framed
    picture is often mostly frame.
    """
    h, w = a.shape
    if h < 6 or w < 6 or (h - 4) % 2 or (w - 4) % 2:
        return None
    frame = [a[1, 1:-1], a[-2, 1:-1], a[1:-1, 1], a[1:-1, -2]]
    colour = int(frame[0][0])
    if not all((line == colour).all() for line in frame):
        return None
    marks = [int(a[0, 0]), int(a[0, -1]), int(a[-1, 0]), int(a[-1, -1])]
    if colour in marks:
        return None
    margins = np.concatenate((a[0, 2:-2], a[-1, 2:-2], a[2:-2, 0], a[2:-2, -1]))
    ground = int(margins[0])
    if not (margins == ground).all() or ground in marks:
        return None  # the strip outside the frame shows the picture's background, bare
    picture = a[2:-2, 2:-2]
    out = np.full(picture.shape, ground, dtype=np.uint8)
    ph, pw = picture.shape[0] // 2, picture.shape[1] // 2
    for k, (ys, xs) in enumerate(
        (
            (slice(0, ph), slice(0, pw)),
            (slice(0, ph), slice(pw, None)),
            (slice(ph, None), slice(0, pw)),
            (slice(ph, None), slice(pw, None)),
        )
    ):
        out[ys, xs][picture[ys, xs] != ground] = marks[k]
    return out


ASSEMBLE = offered_fitter("assemble", ("",), lambda _: on_colours(assemble), 2.5, "other")
"""Putting four corner pieces together, offered when it answers the demonstrations alone."""

QUARTERS = offered_fitter("quarters", ("",), lambda _: on_colours(paint_quarters), 2.5, "shrink")
"""Painting quarters by corner marks, offered when it answers the demonstrations alone."""
