"""Striping: every k-th column (or row) has its shapes recoloured, whatever colours they had.

A grid of scattered colours (or one band of a plain colour) turns every third column's coloured
cells to magenta, counting from the left; or every other column counting from the right. The
cell rules of `local` key each cell by its own colour, so they fit when the shapes share a colour
(ARC) and fail when a variation scatters many colours (Re-ARC); here the column's place decides
alone. The step is written ``stripe{AkE.P>X}``:

* ``A``: ``c`` columns or ``r`` rows;
* ``k``: the period, 2 to `MAX_PERIOD`;
* ``E``: the edge it counts from: ``s`` the start (left or top), ``e`` the end (right or bottom);
* ``P``: the phase, the first striped line's distance from that edge (under ``k``);
* ``X``: the colour the striped lines' cells turn.

Every cell of a striped line that is not the background (the input's commonest colour) turns
``X``; every other cell keeps its colour. The fitter offers a step only when it turns every
demonstration into its output and changes the test input; the shortest period first.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask, background

__all__ = ["FITTER", "MAX_PERIOD", "STRIPE_COST", "fit_stripe", "parse_stripe", "stripe", "stripe_op"]

MAX_PERIOD = 5
"""The longest period fitted: longer ones are rarely a rule and often a coincidence."""

STRIPE_COST = 4.0
"""The base cost of a stripe: an axis, a period, an edge, a phase and a colour fitted."""


def _lines(shape: tuple[int, int], axis: str, period: int, end: bool, phase: int) -> Mask:
    """The cells of ``shape`` on the striped lines."""
    size = shape[1] if axis == "c" else shape[0]
    index = np.arange(size)
    if end:
        index = size - 1 - index
    on = index % period == phase
    return np.broadcast_to(on[None, :] if axis == "c" else on[:, None], shape)


def stripe(a: Array, axis: str, period: int, end: bool, phase: int, colour: int) -> Array | None:
    """``a`` with the non-background cells of every ``period``-th line recoloured ``colour``."""
    if int(a.max()) >= SENTINEL:
        return None
    paint = _lines(a.shape, axis, period, end, phase) & (a != background(a))
    return np.where(paint, np.uint8(colour), a).astype(np.uint8)


def stripe_op(axis: str, period: int, end: bool, phase: int, colour: int) -> Op:
    """The step ``stripe{AkE.P>X}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return stripe(a, axis, period, end, phase, colour)

    step: Prim = prim
    edge = "e" if end else "s"
    return Op(f"stripe{{{axis}{period}{edge}.{phase}>{colour}}}", STRIPE_COST, step, "same")


def _colour(given: FitInput) -> int | None:
    """The one colour every changed cell of every demonstration turns, if there is one."""
    turned: set[int] = set()
    for a, b in zip(given.inputs[: given.n], given.outputs, strict=True):
        if a.shape != b.shape:
            return None
        turned.update(np.unique(b[a != b]).tolist())
    return turned.pop() if len(turned) == 1 else None


def fit_stripe(given: FitInput) -> list[Op]:
    """The stripes that reproduce every demonstration and change the test input."""
    colour = _colour(given)
    if colour is None:
        return []
    ops = (
        stripe_op(axis, period, end, phase, colour)
        for period in range(2, MAX_PERIOD + 1)
        for axis in ("c", "r")
        for end in (False, True)
        for phase in range(period)
    )
    return changing_answers(given, ops)


def parse_stripe(text: str) -> Op | None:
    """The stripe written as ``text``, or ``None`` when it is malformed."""
    if not text.startswith("stripe{") or not text.endswith("}"):
        return None
    body = text.removeprefix("stripe{").removesuffix("}")
    head, _, colour = body.partition(">")
    lines, _, phase = head.partition(".")
    if len(lines) != 3 or lines[0] not in "cr" or lines[2] not in "se":
        return None
    if not (lines[1].isdigit() and phase.isdigit() and colour.isdigit()):
        return None
    period = int(lines[1])
    if not 2 <= period <= MAX_PERIOD or int(phase) >= period or int(colour) >= SENTINEL:
        return None
    op = stripe_op(lines[0], period, lines[2] == "e", int(phase), int(colour))
    return op if op.text == text else None


FITTER = Fitter("stripe{", {"stripe": STRIPE_COST}, fit_stripe, parse_stripe)
"""The fitter of stripes."""
