"""Rays to a target: cells shoot straight lines that are drawn only when they reach a cell of one colour.

A scene often holds a *target* (a wall, a block, a bar of one colour) and loose cells around it;
every loose cell that sees the target along a row, a column (or a diagonal) draws a line up to
it, and those that see nothing, or see another loose cell first, draw nothing. ``drawing``'s
rays stop at any foreground cell and can ask only whether it is foreground, of the source's own
colour, or of another; the target's colour is the missing parameter.

``toward{k;dirs;colour}`` paints each background cell that has a foreground cell not of colour
``k`` nearest behind it and a cell of colour ``k`` nearest ahead of it, travelling in one of the
directions ``dirs`` (``+`` the four straight ones, ``x`` the diagonals, ``*`` all eight), in the
source's colour (``=``) or a fixed one. The three constants are fitted from the demonstrations
(`fit`) and written into the text, so a kept program runs with no demonstrations.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colours
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .rays import ray
from .steptext import braced, colour_text, parse_colour

__all__ = ["TOWARD", "TOWARD_COST", "parse_toward", "toward_op"]

TOWARD_COST = 2.5
"""The base cost of a ``toward`` step (three small constants: a target, directions, a colour)."""

_DIRS: dict[str, tuple[str, ...]] = {
    "+": ("down", "up", "right", "left"),
    "x": ("dr", "dl", "ur", "ul"),
    "*": ("down", "up", "right", "left", "dr", "dl", "ur", "ul"),
}
_OPPOSITE = {
    "down": "up",
    "up": "down",
    "right": "left",
    "left": "right",
    "dr": "ul",
    "ul": "dr",
    "dl": "ur",
    "ur": "dl",
}
_OWN = -1
_NAMES = {_OWN: "="}


def _toward(a: Array, bg: int, target: int, dirs: str, colour: int) -> Array | None:
    """``a`` with every ray that reaches colour ``target`` drawn; ``None`` when none does."""
    if int(a.max()) >= SENTINEL or not np.any(a == target) or target == bg:
        return None
    out = a.astype(np.int16)
    for direction in _DIRS[dirs]:
        behind = ray(a, bg, direction)
        ahead = ray(a, bg, _OPPOSITE[direction])
        # A background cell lies on such a ray when its nearest foreground cell one way is a
        # source and the other way is the target; a cell already painted keeps its first line.
        on = (out == bg) & (behind >= 0) & (behind != target) & (ahead == target)
        out = np.where(on, behind if colour == _OWN else np.int16(colour), out)
    made = out.astype(np.uint8)
    return None if np.array_equal(made, a) else made


def _text(target: int, dirs: str, colour: int) -> str:
    return f"toward{{{target};{dirs};{colour_text(colour, _NAMES)}}}"


def toward_op(target: int, dirs: str, colour: int = _OWN) -> Op:
    """The step ``toward{target;dirs;colour}`` (``colour`` -1: each line in its source's colour)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _toward(a, ctx.bg, target, dirs, colour)

    step: Prim = prim
    return Op(_text(target, dirs, colour), TOWARD_COST, step, "same")


def parse_toward(text: str) -> Op | None:
    """The ``toward`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "toward")
    if body is None:
        return None
    parts = body.split(";")
    if len(parts) != 3 or parts[1] not in _DIRS:
        return None
    target = parse_colour(parts[0])
    if target is None:
        return None
    paint = parse_colour(parts[2], _NAMES)
    if paint is None:
        return None
    op = toward_op(target, parts[1], paint)
    return op if op.text == text else None


def fit(given: FitInput) -> list[Op]:
    """The ``toward`` steps that turn every demonstration input into its output."""
    # Lines are drawn over the background only, and every pair draws some.
    painted = painted_colours(given)
    if painted is None:
        return []
    # A target is a colour every grid, the test's too, holds.
    common = set(range(SENTINEL))
    for a, ctx in zip(given.inputs, given.contexts, strict=True):
        common &= {int(v) for v in np.unique(a)} - {ctx.bg}
    colours = [_OWN, *sorted(painted)] if len(painted) == 1 else [_OWN]
    ops = [
        toward_op(target, dirs, colour) for target in sorted(common) for dirs in _DIRS for colour in colours
    ]
    return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))


TOWARD = Fitter("toward{", {"toward": TOWARD_COST}, fit, parse_toward)
"""The fitter of ``toward{...}``: lines from loose cells to the cells of a target colour."""
