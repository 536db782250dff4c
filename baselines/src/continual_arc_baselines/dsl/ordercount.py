"""Counts painted in a fixed order: the first N cells of an order the demonstrations reveal.

`counting`'s ``first`` layout paints the first N cells of a fixed-shape output in reading order,
and its ``table`` answers only numbers every demonstration shows twice over (Re-ARC's three
demonstrations never do). Many tasks paint a count's cells in another fixed order instead: every
other cell, a staircase, a spiral. Their outputs nest: the cells a count of N paints hold those
every smaller count paints. ``countin(KIND){paint,ground,HxW,order}`` reads the number ``KIND``
counts (`counting.KINDS`) and paints the first N cells of ``order`` (cell indices in reading order,
joined by ``.``) in ``paint`` on ``ground`` (a role, a literal, or ``k``: the colour counted).

The order is read from the demonstrations: each larger count's new cells follow the smaller
count's, in reading order among themselves. A test count above the largest shown, or below the
smallest, has no known order and makes the step not apply. An order that is reading order is
`counting`'s ``first`` layout and is not offered again.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter
from .colours import ROLES, resolve, roles
from .counting import COUNT_COST, KINDS, colour_token, number
from .family import Op
from .grid import Array, Context

__all__ = ["COUNTIN_COST", "FITTER", "countin_op", "fit_countin", "parse_countin"]

COUNTIN_COST = COUNT_COST + 1.0
"""The base cost of an ordered count: a count, and an order of cells fitted besides."""

_PER_TASK = 2
"""The most kinds of count offered: more would be coincidences of small numbers."""


def _colour(token: str, ctx: Context, counted: int) -> int | None:
    return counted if token == "k" else resolve(token, roles(ctx.original))


def _valid(token: str) -> bool:
    return token in ROLES or token == "k" or (token.isdigit() and int(token) < 10)


def countin_op(
    kind: str, paint: str, ground: str, shape: tuple[int, int], order: tuple[int, ...]
) -> Op | None:
    """The step painting the first N cells of ``order`` (N counted by ``kind``); ``None``: malformed."""
    h, w = shape
    if kind not in KINDS or not (_valid(paint) and _valid(ground) and ground != "k"):
        return None
    if not (0 < h <= 30 and 0 < w <= 30) or len(set(order)) != len(order) or not order:
        return None
    if any(not 0 <= i < h * w for i in order):
        return None
    cells = np.array(order, dtype=np.intp)
    text = f"countin({kind}){{{paint},{ground},{h}x{w},{'.'.join(map(str, order))}}}"

    def prim(a: Array, ctx: Context) -> Array | None:
        counted = number(kind, a, ctx)
        if counted is None or counted[0] > len(order):
            return None
        f, b = _colour(paint, ctx, counted[1]), _colour(ground, ctx, counted[1])
        if f is None or b is None:
            return None
        flat = np.full(h * w, b, dtype=np.uint8)
        flat[cells[: counted[0]]] = f
        return flat.reshape(h, w)

    return Op(text, COUNTIN_COST + 0.5 * (paint.isdigit() + ground.isdigit()), prim, "other")


def _painted(out: Array, count: int) -> tuple[int, int | None, frozenset[int]] | None:
    """The colour painting exactly ``count`` cells of ``out``, the one ground, and the cells painted."""
    values, counts = np.unique(out, return_counts=True)
    flat = out.ravel()
    if count == out.size:
        return (int(values[0]), None, frozenset(range(out.size))) if len(values) == 1 else None
    if count == 0 or len(values) != 2:
        return None  # an empty output tells neither colour; a third colour is no count
    hits = [int(v) for v, c in zip(values, counts, strict=True) if c == count]
    if len(hits) != 1:
        return None  # half painted: either colour could be the paint
    paint = hits[0]
    ground = int(values[0]) if int(values[1]) == paint else int(values[1])
    return paint, ground, frozenset(np.flatnonzero(flat == paint).tolist())


def _order(masks: list[tuple[int, frozenset[int]]]) -> tuple[int, ...] | None:
    """The cells in the order the counts reveal (``None`` when the masks do not nest)."""
    order: list[int] = []
    last: frozenset[int] = frozenset()
    for count, mask in sorted(masks, key=lambda m: m[0]):
        if not last <= mask:
            return None
        if count == len(last):
            if mask != last:
                return None
            continue
        order.extend(sorted(mask - last))
        last = mask
    return tuple(order)


def fit_countin(given: FitInput) -> list[Op]:
    """Every ordered count the demonstrations fix (at most two kinds), cheapest kinds first."""
    outputs, n = given.outputs, given.n
    shapes = {o.shape for o in outputs}
    if len(shapes) != 1 or outputs[0].size < 2 or outputs[0].size > 100:
        return []
    if all(a.shape == o.shape for a, o in zip(given.inputs, outputs, strict=False)):
        return []  # a grid kept in shape is painted, not counted
    shape = outputs[0].shape
    found: list[Op] = []
    for kind in KINDS:
        values = [number(kind, a, c) for a, c in zip(given.inputs, given.contexts, strict=True)]
        if any(v is None for v in values):
            continue
        counts = [v[0] for v in values if v is not None]
        shown = counts[:n]
        if len(set(shown)) < 2 or not min(shown) <= counts[n] <= max(shown) or max(shown) > outputs[0].size:
            continue
        read = [_painted(o, c) for o, c in zip(outputs, shown, strict=True)]
        if any(r is None for r in read):
            continue
        parts = [r for r in read if r is not None]
        order = _order([(c, r[2]) for c, r in zip(shown, parts, strict=True)])
        if order is None or order == tuple(range(len(order))):
            continue
        counted = [v[1] for v in values[:n] if v is not None]
        paint = colour_token([p[0] for p in parts], given.contexts[:n], counted)
        grounds = [(p[1], c) for p, c in zip(parts, given.contexts, strict=False) if p[1] is not None]
        ground = colour_token([g for g, _ in grounds], [c for _, c in grounds], None)
        if paint is None or ground is None:
            continue
        op = countin_op(kind, paint, ground, shape, order)
        if op is None or op(given.inputs[n], given.contexts[n]) is None or not given.reproduced_by(op):
            continue
        found.append(op)
        if len(found) == _PER_TASK:
            break
    return found


def parse_countin(text: str) -> Op | None:
    """The ordered count written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    kind = head.removeprefix("countin(")
    parts = body.removesuffix("}").split(",")
    if not (text.startswith("countin(") and body.endswith("}")) or len(parts) != 4:
        return None
    h, _, w = parts[2].partition("x")
    cells = parts[3].split(".")
    if not (h.isdigit() and w.isdigit() and all(c.isdigit() for c in cells)):
        return None
    op = countin_op(kind, parts[0], parts[1], (int(h), int(w)), tuple(int(c) for c in cells))
    return op if op is not None and op.text == text else None


FITTER = Fitter("countin(", {f"countin({k})": COUNTIN_COST for k in KINDS}, fit_countin, parse_countin)
"""The fitter of ordered counts."""
