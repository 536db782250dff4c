"""Stacking parts in a fitted order of colours: ``stack(how){8,4,2}``.

``overlay`` (`combining`) lays the parts of a split grid over each other in their own order.
Many tasks rank the colours instead (red always shows over blue, blue over green, whatever part
each is in). The order is fitted from the demonstrations: at every cell, the output's colour must
be one of the parts' foreground colours there (or the background where there is none), and it
outranks every other foreground colour there. The ranking is the topological order of those
"outranks" facts (ties: the lower colour first); colours it never met rank last, lowest first.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .family import Op, Prim
from .grid import Array, Context, bg_for
from .parts import SPLITS, split

__all__ = ["STACK_COST", "fit_stack", "parse_stack", "stack_op"]

STACK_COST = 2
"""The cost of ``stack(how){...}`` under the empty prior."""

_LAST = 100
_NONE = 1000


def _layers(a: Array, ctx: Context, how: str) -> tuple[Array, Array, int] | None:
    """The parts stacked on a first axis, which of their cells are foreground, and the grid's bg."""
    bg = bg_for(a, ctx)
    parts = split(a, bg, how)
    if parts is None or len(parts) < 2 or any(p.shape != parts[0].shape for p in parts):
        return None
    stacked = np.stack(parts)
    # Each part is read against its own background, as overlay does.
    fg = np.stack([p != bg_for(p, ctx) for p in parts])
    return stacked, fg, bg


def _rank_table(order: Sequence[int]) -> npt.NDArray[np.int16]:
    table = np.array([_LAST + c for c in range(256)], dtype=np.int16)
    for rank, colour in enumerate(order):
        table[colour] = rank
    return table


def _stack(how: str, order: tuple[int, ...]) -> Prim:
    table = _rank_table(order)

    def prim(a: Array, ctx: Context) -> Array | None:
        found = _layers(a, ctx, how)
        if found is None:
            return None
        stacked, fg, bg = found
        ranks = np.where(fg, table[stacked], np.int16(_NONE))
        top = np.argmin(ranks, axis=0)
        chosen = np.take_along_axis(stacked, top[None], axis=0)[0]
        return np.where(fg.any(axis=0), chosen, np.uint8(bg)).astype(np.uint8)

    return prim


def stack_op(how: str, order: tuple[int, ...]) -> Op:
    """The step ``stack(how){c,...}``: the parts laid so that earlier colours show on top."""
    text = f"stack({how}){{{','.join(map(str, order))}}}"
    return Op(text, STACK_COST + len(order) / 4, _stack(how, order), "shrink")


def _outranks(stacked: Array, fg: Array, bg: int, output: Array) -> set[tuple[int, int]] | None:
    """The facts ``(winner, loser)`` one demonstration shows, or ``None`` if it breaks the rule."""
    facts: set[tuple[int, int]] = set()
    for y, x in zip(*np.nonzero(np.ones(output.shape, dtype=bool)), strict=True):
        shown = {int(v) for v in stacked[fg[:, y, x], y, x]}
        want = int(output[y, x])
        if not shown:
            if want != bg:
                return None
            continue
        if want not in shown:
            return None
        facts.update((want, other) for other in shown if other != want)
    return facts


def _order(facts: set[tuple[int, int]]) -> tuple[int, ...] | None:
    colours = sorted({c for fact in facts for c in fact})
    order: list[int] = []
    left = set(facts)
    while colours:
        free = [c for c in colours if not any(loser == c for _, loser in left)]
        if not free:
            return None  # a cycle: no order explains every cell
        order.append(free[0])
        colours.remove(free[0])
        left = {f for f in left if f[0] != free[0]}
    return tuple(order)


def fit_stack(inputs: Sequence[Array], outputs: Sequence[Array], contexts: Sequence[Context]) -> list[Op]:
    """A ``stack`` step for each split whose parts, ranked by colour, give every output.

    Only orders of three colours or more: two are what ``overlay``'s two orders already cover.
    """
    ops = []
    for how in SPLITS:
        facts: set[tuple[int, int]] = set()
        for grid, output, ctx in zip(inputs, outputs, contexts, strict=False):
            found = _layers(grid, ctx, how)
            if found is None or found[0].shape[1:] != output.shape:
                break
            shown = _outranks(*found, output)
            if shown is None:
                break
            facts |= shown
        else:
            order = _order(facts)
            if order and len(order) > 2:
                ops.append(stack_op(how, order))
    return ops


def parse_stack(text: str) -> Op | None:
    """The stacking step written as ``text``, or ``None`` when it is malformed."""
    head, _, body = text.partition("){")
    how = head.removeprefix("stack(")
    colours = body.removesuffix("}").split(",")
    if how not in SPLITS or not all(c.isdigit() and int(c) < 10 for c in colours):
        return None
    order = tuple(int(c) for c in colours)
    if len(set(order)) != len(order):
        return None
    op = stack_op(how, order)
    return op if op.text == text else None
