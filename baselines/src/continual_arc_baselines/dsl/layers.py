"""Layers: put what a program made back over (or under) its input, or over its own mirror images.

Many tasks keep the input and add to it: lines from some objects, an outline around others. A
step that works on part of the grid (keep the objects with holes, then outline them) loses the
rest; ``restore`` lays the result over the input again, ``under`` lays the input over it. The
mirror overlays make a grid symmetric by filling its background from its own reflections.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .family import Family, Prim
from .grid import TRUE, Array, Context, bg_for

__all__ = ["FAMILIES", "OVERLAYS"]

OVERLAYS: dict[str, tuple[Callable[[Array], Array], ...]] = {
    "h": (lambda a: a[:, ::-1],),
    "v": (lambda a: a[::-1],),
    "hv": (lambda a: a[:, ::-1], lambda a: a[::-1], lambda a: a[::-1, ::-1]),
    "rot": (lambda a: np.rot90(a, 1), lambda a: np.rot90(a, 2), lambda a: np.rot90(a, 3)),
    "d": (lambda a: a.T, lambda a: np.rot90(a, 2).T),
}
"""The reflections each mirror overlay lays under the grid: left-right, up-down, both, the
quarter turns, the two diagonals."""


def _restore(over: bool) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        original = ctx.original
        if a.shape != original.shape or a is original:
            return None
        if over:
            out = np.where(a == bg_for(a, ctx), original, a)
        else:
            out = np.where(original != ctx.bg, original, a)
        return out.astype(np.uint8)

    return prim


def _mirrored(kind: str, mark: bool = False) -> Prim:
    transforms = OVERLAYS[kind]

    def prim(a: Array, ctx: Context) -> Array | None:
        if kind in ("rot", "d") and a.shape[0] != a.shape[1]:
            return None
        bg = bg_for(a, ctx)
        out = a
        for t in transforms:
            out = np.where(out == bg, t(out), out)
        if mark:  # the filled cells as a label, for a colour map to name
            out = np.where((out != a), np.uint8(TRUE), a)
        return out.astype(np.uint8)

    return prim


FAMILIES = (
    Family("restore", (), 1, lambda: _restore(True), "lay the grid over the program's input", "same"),
    Family("under", (), 1, lambda: _restore(False), "lay the program's input over the grid", "same"),
    Family(
        "mirrorfill",
        (tuple(OVERLAYS),),
        2,
        _mirrored,
        "fill the background from the grid's own reflections",
        "same",
    ),
    Family(
        "mirrormark",
        (tuple(OVERLAYS),),
        2,
        lambda kind: _mirrored(kind, mark=True),
        "label the background cells the grid's reflections would fill",
        "same",
    ),
)
