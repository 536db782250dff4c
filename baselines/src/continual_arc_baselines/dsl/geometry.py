"""Geometry: the eight rotations and reflections of the square."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .family import Family, Prim
from .grid import Array, Context

__all__ = ["FAMILIES", "TRANSFORMS"]

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
