"""Links: a band of colour across the gap between two objects that face each other.

Two blocks side by side (or one above the other) with only background between them are often
joined by a bridge as wide as the sides they share, or narrower by a cell at each edge. The
fixed ``bridge`` and ``connect`` steps join cells of one colour along single lines; here the
band spans two objects of any colours, over the stretch their sides share.

``link{inset;colour}`` finds every pair of objects (cells of one colour, 8-connected) whose
rows overlap while their columns do not (or the reverse), with only background in the gap
between them over the shared rows (columns) narrowed by ``inset`` at each edge, and paints
that rectangle ``colour``. Both constants are fitted from the demonstrations (`fit`).
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colour
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .objects import label
from .steptext import braced, parse_colour

__all__ = ["LINK", "LINK_COST", "MAX_OBJECTS", "link_op", "parse_link"]

LINK_COST = 2.5
"""The base cost of a ``link`` step."""

MAX_OBJECTS = 8
"""The most objects a grid may hold: links join a few blocks, not the specks of a texture."""

_INSETS = (0, 1)

Box = tuple[int, int, int, int]


def _boxes(a: Array, bg: int) -> list[Box] | None:
    """Each object's bounding box ``(top, bottom, left, right)``, or ``None`` when too many."""
    labels = label(a, a != bg, True, True)
    n = int(labels.max()) + 1
    if not 1 < n <= MAX_OBJECTS:
        return None
    boxes = []
    for i in range(n):
        ys, xs = np.nonzero(labels == i)
        boxes.append((int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())))
    return boxes


def _gap(p: Box, q: Box, inset: int) -> Box | None:
    """The band between two boxes over the rows (or columns) they share, or ``None``."""
    for across in (False, True):
        # across=False: side by side (shared rows, a gap of columns); True: one above the other.
        (p0, p1, p2, p3), (q0, q1, q2, q3) = (
            (p, q) if not across else ((p[2], p[3], p[0], p[1]), (q[2], q[3], q[0], q[1]))
        )
        lo, hi = max(p0, q0) + inset, min(p1, q1) - inset
        if lo > hi:
            continue
        left, right = (p3 + 1, q2 - 1) if p3 < q2 else (q3 + 1, p2 - 1)
        if left > right:
            continue
        return (lo, hi, left, right) if not across else (left, right, lo, hi)
    return None


def _link(a: Array, bg: int, inset: int, colour: int) -> Array | None:
    """``a`` with every facing pair of objects joined; ``None`` when none is."""
    if int(a.max()) >= SENTINEL:
        return None
    boxes = _boxes(a, bg)
    if boxes is None:
        return None
    out = a.copy()
    for i, p in enumerate(boxes):
        for q in boxes[i + 1 :]:
            gap = _gap(p, q, inset)
            if gap is None:
                continue
            top, bottom, left, right = gap
            # Only an open gap is bridged: anything standing in it blocks the link.
            if np.all(a[top : bottom + 1, left : right + 1] == bg):
                out[top : bottom + 1, left : right + 1] = colour
    return None if np.array_equal(out, a) else out


def link_op(inset: int, colour: int) -> Op:
    """The step ``link{inset;colour}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _link(a, ctx.bg, inset, colour)

    step: Prim = prim
    return Op(f"link{{{inset};{colour}}}", LINK_COST, step, "same")


def parse_link(text: str) -> Op | None:
    """The ``link`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "link")
    if body is None:
        return None
    inset, _, colour = body.partition(";")
    if not (inset.isdigit() and int(inset) in _INSETS):
        return None
    paint = parse_colour(colour)
    if paint is None:
        return None
    op = link_op(int(inset), paint)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``link`` steps that turn every demonstration input into its output."""
    # Links are painted over the background only, in one colour, in every pair.
    colour = painted_colour(given)
    if colour is None:
        return []
    ops = [link_op(inset, colour) for inset in _INSETS]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


LINK = Fitter("link{", {"link": LINK_COST}, fit, parse_link)
"""The fitter of ``link{...}``: bands across the gaps between facing objects."""
