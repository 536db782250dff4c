"""Spilling: an outline container with a gap fills up, and what it holds pours out of the gap.

A *container* is a one-colour 4-connected shape lying exactly on its bounding box's border (at
least 3 x 3, nothing of it inside), whose border is whole except for one run of background cells
on one side, away from the corners: its *gap*. The step ``spill(kind){paint}`` paints the
container's inside background and its gap with ``paint`` and pours a stream out of the gap:

* ``beam``: straight out, as wide as the gap, on to the grid's edge;
* ``fan``: the beam and two diagonals from the gap's ends, spreading away from it (water spraying
  from a nozzle);
* ``drop``: only the cells where the beam would meet the grid's edge (a mark on the edge each
  cup faces), the inside and the gap left alone; the cup may be two cells deep, a U with nothing
  inside, and a beam that meets another cell first marks nothing.

A stream stops at the first cell that is not background. ``paint`` is a literal colour, or a role
(`colours.ROLES`) when no literal names it in every demonstration. A grid with no container gives
``None``. The fitter offers a step only when it reproduces every demonstration and changes the
test input.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .colours import ROLES
from .drawn import paint_step, painted_tokens
from .family import Op
from .grid import SENTINEL, Array, Mask
from .objects import objects

__all__ = ["FITTER", "KINDS", "SPILL_COST", "fit_spill", "parse_spill", "spill_op", "spilled"]

KINDS = ("beam", "fan", "drop")
"""The streams a gap pours: a straight beam, the beam and two spreading diagonals, or one drop
where the beam would meet the grid's edge."""

SPILL_COST = 3.0
"""The base cost of a spill: one fitted colour and a choice of stream."""

_LITERALS = tuple(str(c) for c in range(SENTINEL))


def _gap(own: Mask, box_bg: Mask, least: int) -> tuple[int, int, int, int, int] | None:
    """The gap of a container's box: ``(side, start, stop, dy, dx)``, or ``None`` if it has none.

    ``own`` and ``box_bg`` are the container's cells and the background cells, over its box. The
    side is 0 top, 1 bottom, 2 left, 3 right; ``start``/``stop`` bound the gap along that side;
    ``(dy, dx)`` points out of the box, whose sides are ``least`` cells or more.
    """
    h, w = own.shape
    if h < least or w < least or own[1:-1, 1:-1].any():
        return None
    sides = (
        (own[0], box_bg[0]),
        (own[-1], box_bg[-1]),
        (own[:, 0], box_bg[:, 0]),
        (own[:, -1], box_bg[:, -1]),
    )
    outs = ((-1, 0), (1, 0), (0, -1), (0, 1))
    found = None
    for side, (mine, empty) in enumerate(sides):
        if mine.all():
            continue
        holes = np.flatnonzero(~mine)
        start, stop = int(holes[0]), int(holes[-1]) + 1
        # One side open, along one run of background that leaves both corners standing.
        if found is not None or start == 0 or stop == len(mine) or stop - start != len(holes):
            return None
        if not empty[start:stop].all():
            return None
        found = (side, start, stop, *outs[side])
    return found


def _stream(a: Array, bg: int, paint: Mask, y: int, x: int, dy: int, dx: int, drop: bool = False) -> None:
    """Mark the background cells from ``(y, x)`` on in one direction, up to the first other cell.

    With ``drop`` only the last of them is marked, and only when it lies on the grid's edge.
    """
    h, w = a.shape
    last = None
    while 0 <= y < h and 0 <= x < w and a[y, x] == bg:
        if not drop:
            paint[y, x] = True
        last = (y, x)
        y, x = y + dy, x + dx
    if drop and last is not None and not (0 <= y < h and 0 <= x < w):
        paint[last] = True


def spilled(a: Array, bg: int, kind: str) -> Mask | None:
    """The cells a spill paints on ``a`` (``None`` when ``a`` holds no container)."""
    objs = objects(a, bg, "4")
    paint = np.zeros(a.shape, dtype=bool)
    found = False
    drop = kind == "drop"
    # A drop's cup may be two cells deep with nothing inside (a U); a vessel that fills needs room.
    least, smallest = (2, 5) if drop else (3, 7)
    for i in range(len(objs)):
        ys, xs = objs.box(i)
        if objs.sizes[i] < smallest or objs.ncolours[i] != 1:
            continue
        own = objs.labels[ys, xs] == i
        gap = _gap(own, a[ys, xs] == bg, least)
        if gap is None:
            continue
        found = True
        top, left = ys.start, xs.start
        if not drop:
            inner = paint[ys, xs][1:-1, 1:-1]
            inner |= a[ys, xs][1:-1, 1:-1] == bg
        side, start, stop, dy, dx = gap
        bottom, right = ys.stop - 1, xs.stop - 1
        if side < 2:  # a gap in the top or bottom row: ``start``/``stop`` are columns
            row = top if side == 0 else bottom
            cells = [(row, left + k) for k in range(start, stop)]
            ends = ((cells[0], (dy, -1)), (cells[-1], (dy, 1)))
        else:
            col = left if side == 2 else right
            cells = [(top + k, col) for k in range(start, stop)]
            ends = ((cells[0], (-1, dx)), (cells[-1], (1, dx)))
        for y, x in cells:
            _stream(a, bg, paint, y, x, dy, dx, drop)
        if kind == "fan":
            for (y, x), (ey, ex) in ends:
                _stream(a, bg, paint, y + ey, x + ex, ey, ex)
    return paint if found else None


def spill_op(kind: str, colour: str) -> Op:
    """The step ``spill(kind){colour}``."""
    cost = SPILL_COST + (colour[0] == "c") / 4
    return paint_step(f"spill({kind}){{{colour}}}", cost, colour, lambda a, bg: spilled(a, bg, kind))


def fit_spill(given: FitInput) -> list[Op]:
    """The spills that reproduce every demonstration and change the test input, cheapest first."""
    # One new colour, painted over background only.
    tokens = painted_tokens(given) or []
    return changing_answers(given, [spill_op(kind, token) for kind in KINDS for token in tokens])


def parse_spill(text: str) -> Op | None:
    """The spill written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    kind = head.removeprefix("spill(")
    colour = body.removesuffix("}")
    if not (sep and body.endswith("}") and head.startswith("spill(")) or kind not in KINDS:
        return None
    if colour not in (*ROLES, *_LITERALS):
        return None
    op = spill_op(kind, colour)
    return op if op.text == text else None


FITTER = Fitter("spill(", {f"spill({kind})": SPILL_COST for kind in KINDS}, fit_spill, parse_spill)
"""The fitter of spills."""
