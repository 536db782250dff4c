"""The shape of a primitive family: a name, the values each argument may take, a cost and a maker.

A family such as ``pick(mode, prop)`` stands for one primitive per combination of its arguments'
values; `expand` lists them in a fixed order, which is the order the search tries them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from continual_arc.grids import MAX_SIDE

from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["Family", "Op", "Prim", "expand", "on_colours"]

Prim = Callable[[Array, Context], Array | None]
"""A primitive: ``(grid, context) -> grid``, or ``None`` when it does not apply."""


def on_colours(step: Callable[[Array, int], Array | None]) -> Prim:
    """The primitive that answers ``step(grid, background)`` for a grid of colours, ``None`` on labels.

    Labels (`grid.SENTINEL` and up) are a fitted map's to name; a step that reads colours
    (which cells are background, which colours pair) does not apply to them.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return step(a, bg_for(a, ctx))

    return prim


@dataclass(frozen=True)
class Family:
    """A family of primitives that differ only in their arguments.

    Attributes:
        name: the name used in program text.
        domains: for each argument, the values it may take (as they are written in text).
        cost: the search cost of one application of any member.
        make: builds the primitive for one choice of argument values.
        summary: what the family does, in a line.
        shape: ``"same"`` if the output always has the input's shape, ``"square"`` if it does
            when the input is square (quarter turns, transposes), ``"grow"`` if it is never
            smaller on either side, ``"shrink"`` if it is never larger, ``"other"`` otherwise.
        last: the search puts no primitive after this one (a rotation or reflection commutes
            with nearly every other primitive, so it only needs trying at the end).
    """

    name: str
    domains: tuple[tuple[str, ...], ...]
    cost: float
    make: Callable[..., Prim]
    summary: str
    shape: str = "other"
    last: bool = False


@dataclass(frozen=True, eq=False)
class Op:
    """One primitive with its arguments bound.

    Attributes:
        text: its canonical text, ``name`` or ``name(a,b)``.
        cost: its search cost.
        fn: the bound primitive.
        shape: its family's shape behaviour (see `Family`).
        last: whether the search puts nothing after it (see `Family`).
    """

    text: str
    cost: float
    fn: Prim
    shape: str = "other"
    last: bool = False

    def __call__(self, grid: Array, ctx: Context) -> Array | None:
        """Apply the primitive; ``None`` also when the result is empty or larger than 30 x 30."""
        out = self.fn(grid, ctx)
        if out is None or not (0 < out.shape[0] <= MAX_SIDE and 0 < out.shape[1] <= MAX_SIDE):
            return None
        return out


def expand(family: Family) -> list[Op]:
    """Every member of a family, in the order of its argument domains."""
    if not family.domains:
        return [Op(family.name, family.cost, family.make(), family.shape, family.last)]
    return [
        Op(f"{family.name}({','.join(args)})", family.cost, family.make(*args), family.shape, family.last)
        for args in itertools.product(*family.domains)
    ]
