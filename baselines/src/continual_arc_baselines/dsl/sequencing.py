"""Sequencing: the scattered cells of a grid read off in order and laid out in a small grid.

Some grids strew single cells of many colours over a background and ask for their colours in
order: left to right (each cell in a column of its own) or top to bottom (each in a row of its
own), written into a small grid row by row, or row by row turning back at every row end (a
snake), or column by column; the places left over keep the background.

``seq(order,layout){shape}`` does it: ``order`` (`ORDERS`) is ``x`` (by column) or ``y`` (by row),
``layout`` (`LAYOUTS`) is ``rows``, ``snake``, ``cols`` or ``csnake`` (columns, turning back), and
``shape`` is the output's size ``HxW``, or ``1xn`` / ``nx1`` for a line as long as the count of
cells. Two cells sharing the column (or row) they are ordered by leave their order in doubt, and
more cells than the shape holds do not fit: either way the step does not apply. The fitter reads
the shape from the demonstrations' outputs and keeps each order and layout that reproduces
them, one per answer.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, on_colours
from .grid import Array
from .steptext import braced

__all__ = ["FITTER", "LAYOUTS", "ORDERS", "SEQ_COST", "fit_seq", "parse_seq", "seq_op", "sequenced"]

SEQ_COST = 3.0
"""The base cost of a sequencing step: an order, a layout and a shape."""

ORDERS = ("x", "y")
"""How the cells are ordered: by column (left to right), or by row (top to bottom)."""

LAYOUTS = ("rows", "snake", "cols", "csnake")
"""How the ordered colours fill the output: by rows, by rows turning back, by columns, by columns
turning back."""


def _places(h: int, w: int, layout: str) -> list[tuple[int, int]]:
    """The output's cells in the order ``layout`` fills them."""
    if layout in ("cols", "csnake"):
        return [(y, x) for x, y in _places(w, h, "rows" if layout == "cols" else "snake")]
    places: list[tuple[int, int]] = []
    for y in range(h):
        xs = range(w) if layout == "rows" or y % 2 == 0 else range(w - 1, -1, -1)
        places.extend((y, x) for x in xs)
    return places


def sequenced(a: Array, bg: int, order: str, layout: str, shape: str) -> Array | None:
    """``a``'s foreground cells in ``order`` laid out as ``layout`` in ``shape`` (see the module)."""
    ys, xs = np.nonzero(a != bg)
    if len(ys) == 0:
        return None
    key = xs if order == "x" else ys
    if len(np.unique(key)) != len(key):
        return None  # two cells at one place of the order: which comes first is a guess
    colours = a[ys, xs][np.argsort(key, kind="stable")].tolist()
    n = len(colours)
    if shape == "1xn":
        h, w = 1, n
    elif shape == "nx1":
        h, w = n, 1
    else:
        h, w = (int(v) for v in shape.split("x"))
    if n > h * w:
        return None
    out = np.full((h, w), bg, dtype=np.uint8)
    for (y, x), colour in zip(_places(h, w, layout), colours, strict=False):
        out[y, x] = colour
    return out


def seq_op(order: str, layout: str, shape: str) -> Op:
    """The step ``seq(order,layout){shape}``."""
    step = on_colours(lambda a, bg: sequenced(a, bg, order, layout, shape))
    return Op(f"seq({order},{layout}){{{shape}}}", SEQ_COST, step, "other")


def _shape(given: FitInput) -> str | None:
    """The output shape the demonstrations show: one fixed size, or a line as long as the count."""
    shapes = {b.shape for b in given.outputs}
    if len(shapes) == 1:
        h, w = shapes.pop()
        return f"{h}x{w}"
    if all(b.shape[0] == 1 for b in given.outputs):
        return "1xn"
    if all(b.shape[1] == 1 for b in given.outputs):
        return "nx1"
    return None


def fit_seq(given: FitInput) -> list[Op]:
    """Each order and layout that reproduces the demonstrations, in the shape their outputs show."""
    shape = _shape(given)
    if shape is None:
        return []
    if any(a.shape == b.shape for a, b in zip(given.inputs, given.outputs, strict=False)):
        return []  # a grid that keeps its size is not read off into a small one
    ops = [seq_op(order, layout, shape) for order in ORDERS for layout in LAYOUTS]
    return changing_answers(given, ops)


def parse_seq(text: str) -> Op | None:
    """The sequencing step written as ``text``, or ``None`` when it is not one."""
    head, _, rest = text.partition("){")
    if not head.startswith("seq("):
        return None
    shape = braced("s{" + rest, "s")
    args = head.removeprefix("seq(").split(",")
    if shape is None or len(args) != 2 or args[0] not in ORDERS or args[1] not in LAYOUTS:
        return None
    if shape not in ("1xn", "nx1"):
        sides = shape.split("x")
        if len(sides) != 2 or not all(s.isdigit() and 0 < int(s) <= 30 for s in sides):
            return None
    return seq_op(args[0], args[1], shape)


FITTER = Fitter("seq(", {f"seq({o},{k})": SEQ_COST for o in ORDERS for k in LAYOUTS}, fit_seq, parse_seq)
"""The fitter of sequencing steps."""
