"""Bouncing lines: diagonal rays that reflect off walls (the border, or foreground) on one axis.

A diagonal line that meets a wall running along one axis goes on mirrored, like a ball off a
cushion: a zigzag up a narrow grid, a line that glances off a bar and heads back. ``drawing``'s
rays stop at the first obstacle; reflection is the missing rule.

``bounce{src;way;axis;colour}`` traces, from each source cell, a diagonal ray over background
cells. Where the next diagonal cell is blocked (off the grid or foreground), the cell beside it
along one axis is a wall and the one along the other axis is free, the ray flips its step on the
wall's axis and goes on; any other block ends it. ``axis`` says what a wall is: the border's
sides beyond the next column (``h``) or row (``v``), or any foreground cell (``f``, in which case
the border ends the ray).
Sources are the lone cells (``p``, no foreground among their eight neighbours), shooting toward
``way``, or the tips of objects (``t``, ``way`` ``*``), each shooting the diagonal way it juts
(foreground behind it, none beside it). Lines take their source's colour (``=``) or a fixed one.
The constants are fitted from the demonstrations (`fit`) and written into the text.
"""

from __future__ import annotations

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .drawn import painted_colours
from .family import Op, Prim
from .grid import SENTINEL, Array, Context
from .steptext import braced, colour_text, parse_colour

__all__ = ["BOUNCE", "BOUNCE_COST", "bounce_op", "parse_bounce"]

BOUNCE_COST = 2.5
"""The base cost of a ``bounce`` step."""

MAX_SOURCES = 8
"""The most sources a grid may hold: a bouncing line is a single stroke, not a texture."""

_WAYS: dict[str, tuple[int, int]] = {"ul": (-1, -1), "ur": (-1, 1), "dl": (1, -1), "dr": (1, 1)}
_SOURCES = ("p", "t")
_AXES = ("h", "v", "f")
_OWN = -1
_NAMES = {_OWN: "="}


def _sources(a: Array, bg: int, src: str, way: str) -> list[tuple[int, int, int, int]] | None:
    """Each source cell with the step it shoots: ``(y, x, dy, dx)``; ``None`` when too many."""
    fg = np.pad(a != bg, 1)
    found = []
    for y, x in zip(*np.nonzero(a != bg), strict=True):
        y, x = int(y), int(x)
        around = fg[y : y + 3, x : x + 3]
        if src == "p":
            if int(around.sum()) == 1:
                found.append((y, x, *_WAYS[way]))
            continue
        for dy, dx in _WAYS.values():
            # A tip: foreground one diagonal step back, none one step back along either axis,
            # none ahead (the end of a diagonal stroke, not its middle).
            back, ahead = around[1 - dy, 1 - dx], around[1 + dy, 1 + dx]
            if back and not ahead and not around[1 - dy, 1] and not around[1, 1 - dx]:
                found.append((y, x, dy, dx))
    return found if 0 < len(found) <= MAX_SOURCES else None


def _bounce(a: Array, bg: int, src: str, way: str, axis: str, colour: int) -> Array | None:
    """``a`` with every source's bouncing ray drawn; ``None`` when none draws anything."""
    if int(a.max()) >= SENTINEL:
        return None
    sources = _sources(a, bg, src, way)
    if sources is None:
        return None
    h, w = int(a.shape[0]), int(a.shape[1])

    def inside(y: int, x: int) -> bool:
        return 0 <= y < h and 0 <= x < w

    def free(y: int, x: int) -> bool:
        return inside(y, x) and int(a[y, x]) == bg

    def wall(y: int, x: int) -> bool:
        # What reflects: the border's sides on the axis (``h``, ``v``), or foreground (``f``).
        if axis == "f":
            return inside(y, x) and int(a[y, x]) != bg
        return not inside(y, x)

    out = a.copy()
    for y, x, dy, dx in sources:
        paint = int(a[y, x]) if colour == _OWN else colour
        if not free(y + dy, x + dx):
            continue  # a ray leaves its source the way it points, or not at all
        for _ in range(h * w):
            if not free(y + dy, x + dx):
                # A wall beside the ray and an opening along the other axis: reflect.
                if axis != "v" and wall(y, x + dx) and free(y + dy, x):
                    dx = -dx
                elif axis != "h" and wall(y + dy, x) and free(y, x + dx):
                    dy = -dy
                else:
                    break
                if not free(y + dy, x + dx):
                    break
            y, x = y + dy, x + dx
            out[y, x] = paint
    return None if np.array_equal(out, a) else out


def _text(src: str, way: str, axis: str, colour: int) -> str:
    return f"bounce{{{src};{way};{axis};{colour_text(colour, _NAMES)}}}"


def bounce_op(src: str, way: str, axis: str, colour: int = _OWN) -> Op:
    """The step ``bounce{src;way;axis;colour}`` (``colour`` -1: each line in its source's colour)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _bounce(a, ctx.bg, src, way, axis, colour)

    step: Prim = prim
    return Op(_text(src, way, axis, colour), BOUNCE_COST, step, "same")


def parse_bounce(text: str) -> Op | None:
    """The ``bounce`` step written as ``text``, or ``None`` when it is malformed."""
    body = braced(text, "bounce")
    if body is None:
        return None
    parts = body.split(";")
    if len(parts) != 4 or parts[0] not in _SOURCES or parts[2] not in _AXES:
        return None
    src, way, axis, colour = parts
    if way not in (_WAYS if src == "p" else ("*",)):
        return None
    paint = parse_colour(colour, _NAMES)
    if paint is None:
        return None
    op = bounce_op(src, way, axis, paint)
    return op if op.text == text else None


def _maps(given: FitInput, op: Op) -> bool:
    """Whether ``op`` gives every demonstration output up to one colour map (the search fits it)."""
    pairs: dict[int, int] = {}
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        made = op(a, ctx)
        if made is None:
            return False
        codes = np.unique(made.astype(np.int16) * 16 + b)
        for code in codes.tolist():
            if pairs.setdefault(code // 16, code % 16) != code % 16:
                return False
    return True


def fit(given: FitInput) -> list[Op]:
    """The ``bounce`` steps that give every demonstration output (up to a colour map)."""
    # Lines are drawn over the background: the input's other cells keep their colours.
    painted = painted_colours(given)
    if painted is None:
        return []
    colours = [_OWN, *sorted(painted)] if len(painted) <= 2 else [_OWN]
    ops = [
        bounce_op(src, way, axis, colour)
        for src in _SOURCES
        for way in (_WAYS if src == "p" else ("*",))
        for axis in _AXES
        for colour in colours
    ]
    return one_per_answer(given, (op for op in ops if _maps(given, op)))


BOUNCE = Fitter("bounce{", {"bounce": BOUNCE_COST}, fit, parse_bounce)
"""The fitter of ``bounce{...}``: diagonal lines that reflect off walls on one axis."""
