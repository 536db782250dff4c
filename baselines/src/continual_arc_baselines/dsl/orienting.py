"""Orienting: one rule seen from whichever side each grid's marked edge stands.

A variation of a task turns its picture: the markers stand along the top of one demonstration
and down the right of the next, the cup a beam fans out of sits on the bottom edge here and on
the left there. A fitted step fixes one direction, so it fits none of them. Here each grid is
turned (and perhaps mirrored) into a canonical pose read from the grid itself, the fitters of
``wide`` fit their steps on the posed demonstrations, and each step found is wrapped: pose the
grid, take the step, pose it back.

The pose (`pose`): the edge with strictly the most cells off the background (the commonest
colour) is turned to the top; then the grid is mirrored left to right when its left column holds
more of them than its right, so a second marked edge stands on the right. Two neighbouring
edges marked alike are turned to the top and the right. A grid with no such edge or corner has
no pose and the step does not apply. The fitter runs only when the demonstrations keep
their shapes and the grids' poses differ (when they agree, the plain fitters see it all already).

The step is written ``orient{STEP}``, ``STEP`` the text of the wrapped fitted step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import Array, Context, background
from .local import local_ops, parse_local

__all__ = ["ORIENT_COST", "orient_fitter", "orient_op", "pose", "posed", "unposed"]

_PREFIX = "orient{"

ORIENT_COST = 2.0
"""The cost a pose adds to the step it wraps: one idea, the same rule seen from another side."""

Pose = tuple[int, bool]
"""Quarter turns counterclockwise, then whether to mirror left to right."""


def _marks(a: Array, bg: int) -> list[int]:
    """The cells off the background on the top, right, bottom and left edges of ``a``."""
    off = a != bg
    return [int(off[0].sum()), int(off[:, -1].sum()), int(off[-1].sum()), int(off[:, 0].sum())]


def pose(a: Array) -> Pose | None:
    """How ``a`` is turned into its canonical pose, or ``None`` when no edge is marked most."""
    marks = _marks(a, background(a))
    top = max(marks)
    if top == 0:
        return None
    most = [edge for edge in range(4) if marks[edge] == top]
    if len(most) == 2 and (most[1] - most[0]) % 4 in (1, 3):
        # Two neighbouring edges marked alike: turn their corner to the top right, unmirrored.
        first = most[1] if (most[1] - most[0]) % 4 == 3 else most[0]
        return first, False
    if len(most) > 1:
        return None
    turns = marks.index(top)  # a quarter turn counterclockwise brings the right edge to the top
    turned = np.rot90(a, turns)
    after = _marks(turned, background(a))
    return turns, after[3] > after[1]


def posed(a: Array, p: Pose) -> Array:
    """``a`` in pose ``p``."""
    turned = np.rot90(a, p[0])
    return np.ascontiguousarray(turned[:, ::-1] if p[1] else turned)


def unposed(a: Array, p: Pose) -> Array:
    """``a`` taken back out of pose ``p``."""
    back = a[:, ::-1] if p[1] else a
    return np.ascontiguousarray(np.rot90(back, -p[0]))


def orient_op(inner: Op) -> Op:
    """The step ``orient{inner}``: ``inner`` taken on the grid in its input's pose."""

    def prim(a: Array, ctx: Context) -> Array | None:
        p = pose(ctx.original)
        if p is None:
            return None
        inside = Context(posed(ctx.original, p))
        inside.bg = ctx.bg
        made = inner(posed(a, p), inside)
        return None if made is None else unposed(made, p)

    step: Prim = prim
    return Op(f"orient{{{inner.text}}}", inner.cost + ORIENT_COST, step, "same")


def orient_fitter(fitters: Sequence[Fitter]) -> Fitter:
    """The fitter of oriented steps: the local rules and ``fitters``, fitted on posed demonstrations.

    The catalogue that holds this fitter passes the fitters it wraps (``wide``'s), so this module
    needs no catalogue. Its parser reads back only what it can write: a local rule or a step of
    one of ``fitters``, never a fixed step nor another oriented one.
    """

    def fit(given: FitInput) -> list[Op]:
        if not given.keeps_size:
            return []
        poses = [pose(a) for a in given.inputs]
        if any(p is None for p in poses) or len(set(poses)) == 1:
            return []
        ins = tuple(posed(a, p) for a, p in zip(given.inputs, poses, strict=True) if p is not None)
        outs = tuple(posed(b, p) for b, p in zip(given.outputs, poses, strict=False) if p is not None)
        contexts = tuple(Context(a) for a in ins)
        for c, old in zip(contexts, given.contexts, strict=True):
            c.bg = old.bg
        inside = FitInput(ins, outs, contexts)
        inner = local_ops(ins[: inside.n], outs)
        for fitter in fitters:
            inner.extend(fitter.fit(inside))
        return changing_answers(given, (orient_op(op) for op in inner))

    def parse(text: str) -> Op | None:
        if not text.startswith(_PREFIX) or not text.endswith("}"):
            return None
        body = text.removeprefix(_PREFIX).removesuffix("}")
        if body.startswith("local("):
            inner = parse_local(body)
        else:
            inner = next((f.parse(body) for f in fitters if body.startswith(f.prefix)), None)
        return None if inner is None else orient_op(inner)

    return Fitter(_PREFIX, {"orient": ORIENT_COST}, fit, parse)
