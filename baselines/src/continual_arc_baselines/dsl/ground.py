"""The demonstrations' background kept on a test input whose commonest colour is another.

Object steps cut a grid into objects against its background, its commonest colour. When every
demonstration has one background but the test input's objects are large enough to outnumber it
(a big rectangle on a small grid), the test input is cut against the wrong colour: the fitters
of `relating` and `perobject` then offer nothing, rightly, and a looser rule wins. This module
fits those fitters again under the demonstrations' own background and writes each step they
give wrapped as ``onbg(colour){step}``: the inner step run with the background held at that
colour, on any grid that holds it (one that does not makes the step not apply).

Only steps whose text names no colour role (``c0``, ``cz``: a colour by its rank in the grid)
are kept, since the test input's ranks are the very thing that moved.
"""

from __future__ import annotations

import re

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .perobject import fit_objcell, fit_objmap
from .relating import fit_relate

__all__ = ["FITTER", "ONBG_COST", "fit_onbg", "onbg_op", "parse_onbg"]

ONBG_COST = 0.25
"""What holding the background adds to the inner step's cost: one colour, read off the demonstrations."""

_ROLE = re.compile(r"(?<![a-z])c[0-9yz]")
"""A colour role token in a step's text (`colours.ROLES`)."""

_INNER_FITS = (fit_relate, fit_objcell, fit_objmap)
"""The fitters run again under the held background, in the order their steps are offered."""


def _held(ctx: Context, colour: int) -> Context | None:
    """A copy of ``ctx`` whose background is ``colour``, or ``None`` when its input lacks it."""
    if not (ctx.original == colour).any():
        return None
    held = Context(ctx.original)
    held.bg = colour
    return held


def onbg_op(colour: int, inner: Op) -> Op:
    """The step ``onbg(colour){inner}``: ``inner`` run with the background held at ``colour``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        held = _held(ctx, colour)
        return None if held is None else inner.fn(a, held)

    step: Prim = prim
    return Op(f"onbg({colour}){{{inner.text}}}", inner.cost + ONBG_COST, step, inner.shape)


def fit_onbg(given: FitInput) -> list[Op]:
    """The object steps fitted under the demonstrations' one background, when the test input's is another."""
    n = given.n
    if not given.keeps_size:
        return []
    bgs = sorted({c.bg for c in given.contexts[:n]})
    if len(bgs) != 1 or given.contexts[n].bg == bgs[0]:
        return []  # the test input is cut as the demonstrations were: the plain fitters serve
    test = _held(given.contexts[n], bgs[0])
    if test is None:
        return []
    held = FitInput(given.inputs, given.outputs, (*given.contexts[:n], test))
    found = [
        onbg_op(bgs[0], op)
        for fit in _INNER_FITS
        for op in fit(held)
        if _ROLE.search(op.text.partition("{")[2]) is None
    ]
    found.sort(key=lambda op: op.cost)  # stable: ties keep the fitters' order
    return one_per_answer(given, found)


def parse_onbg(text: str) -> Op | None:
    """The held-background step written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    colour = head.removeprefix("onbg(")
    if not sep or not colour.isdigit() or int(colour) >= SENTINEL or not body.endswith("}"):
        return None
    from .ops import lookup  # here, not at the top: ops imports this module

    inner = lookup(body[:-1])
    if inner is None or inner.text.startswith("onbg("):
        return None
    op = onbg_op(int(colour), inner)
    return op if op.text == text else None


FITTER = Fitter(
    "onbg(",
    {f"onbg({c})": ONBG_COST for c in range(SENTINEL)},
    fit_onbg,
    parse_onbg,
)
"""The fitter of object steps under the demonstrations' background."""
