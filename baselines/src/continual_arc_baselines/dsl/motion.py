"""Objects that move as wholes, and objects counted.

``fall`` slides every object (multicolour, 8-connected) in one direction until it meets the border
or an object that has already come to rest, nearest the wall first, as a stack of blocks would.
``tally`` writes one cell per object, in reading order (``tallysize``: the largest first), each in
its object's main colour: the row a task of counting or ranking objects asks for (a colour map or
a rotation finishes it).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import MODES, objects

__all__ = ["FAMILIES", "MAX_MOVERS", "slide"]

MAX_MOVERS = 30
"""The most objects ``fall`` moves; a grid of more is noise, not a stack."""

_STEPS = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1)}


def slide(
    out: Array,
    ys: npt.NDArray[np.intp],
    xs: npt.NDArray[np.intp],
    colours: Array,
    step: tuple[int, int],
    bg: int,
) -> None:
    """Paints ``colours`` at cells ``(ys, xs)`` of ``out`` moved by ``step`` as far as they go.

    They go on until one more step would leave the grid or cover a cell of ``out`` that is not
    ``bg`` (something already at rest), so objects placed nearest the wall first stack.
    """
    h, w = out.shape
    dy, dx = step
    far = 0
    while True:
        ny, nx = ys + (far + 1) * dy, xs + (far + 1) * dx
        if ny.min() < 0 or nx.min() < 0 or ny.max() >= h or nx.max() >= w or np.any(out[ny, nx] != bg):
            break
        far += 1
    out[ys + far * dy, xs + far * dx] = colours


def _fall(direction: str) -> Prim:
    dy, dx = _STEPS[direction]

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, "m8")
        if not 0 < len(objs) <= MAX_MOVERS:
            return None
        nearest = {"down": -objs.bottoms, "up": objs.tops, "right": -objs.rights, "left": objs.lefts}
        out = np.full_like(a, bg)
        for i in np.argsort(nearest[direction], kind="stable").tolist():
            ys, xs = np.nonzero(objs.labels == i)
            slide(out, ys, xs, a[ys, xs], (dy, dx), bg)
        return None if np.array_equal(out, a) else out

    return prim


def _tally(mode: str, by_size: bool = False) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        objs = objects(a, bg_for(a, ctx), mode)
        if not 0 < len(objs) <= 30:
            return None
        colours = objs.colours
        if by_size:  # the largest first; equal sizes in reading order
            colours = colours[np.argsort(-objs.sizes, kind="stable")]
        return colours.astype(np.uint8).reshape(1, -1)

    return prim


FAMILIES = (
    Family("fall", (tuple(_STEPS),), 2, _fall, "slide every object to a side until it rests", "same"),
    Family("tally", (MODES,), 2, _tally, "one cell per object, in its colour, in reading order"),
    Family(
        "tallysize",
        (MODES,),
        2,
        lambda mode: _tally(mode, by_size=True),
        "one cell per object, in its colour, the largest first",
    ),
)
