"""Geometry: the eight rotations and reflections of the square."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES", "TRANSFORMS", "one_turn"]

TRANSFORMS: dict[str, Callable[[Array], Array]] = {
    "rot90": lambda a: np.rot90(a, -1),
    "rot180": lambda a: np.rot90(a, 2),
    "rot270": lambda a: np.rot90(a, 1),
    "flip_h": lambda a: a[:, ::-1],
    "flip_v": lambda a: a[::-1, :],
    "transpose": lambda a: a.T,
    "antitranspose": lambda a: np.rot90(a, 2).T,
}
"""Each non-identity symmetry of the square by name (rotations are clockwise)."""


def one_turn(a: Array, make: Callable[[Array], Array | None]) -> Array | None:
    """What ``make`` answers on the one quarter turn of ``a`` it applies to, turned back.

    For a step written for one edge (a key along the top, a bar out of the left edge) that
    holds on whichever edge the grid shows it: ``None`` unless exactly one of the four turns
    (counter-clockwise, none first) gives an answer.
    """
    found = []
    for turns in range(4):
        made = make(np.rot90(a, turns))
        if made is not None:
            found.append(np.ascontiguousarray(np.rot90(made, -turns)))
    return found[0] if len(found) == 1 else None


def _maker(name: str) -> Prim:
    transform = TRANSFORMS[name]

    def prim(grid: Array, ctx: Context) -> Array:
        return np.ascontiguousarray(transform(grid))

    return prim


FAMILIES = tuple(
    Family(
        name,
        (),
        2,
        lambda name=name: _maker(name),
        f"the {name} symmetry of the grid",
        "same" if name in ("rot180", "flip_h", "flip_v") else "square",
        last=True,
    )
    for name in TRANSFORMS
)
