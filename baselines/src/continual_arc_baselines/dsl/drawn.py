"""What the fitters of steps that draw on the background read from the demonstrations.

Many fitted steps draw lines or bands onto the empty part of a grid (``beam``, ``corners``,
``dash``, ``elbow``, ``link``, ``spans``, ``toward``, ``axes``, ``bounce``, ``turn``). Their fitters
all begin with the same gate (every demonstration keeps its size, changes some cell, and changes
only background cells) and read their candidate colours from what the outputs paint there. The
gate is kept here so that every such step reads the demonstrations the same way.

Four of them (``beam``, ``corners``, ``axes``, ``spans``) are moreover one kind of step,
``name{way;colour}``: a way to draw from a short list, and a colour that is a role (the mark's, the
object's own, ...) or a fixed one. `WayColour` holds their text, parser and fitter once; each
module gives its drawing, ways and role names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .catalogue import FitInput, one_per_answer
from .colours import ROLES, resolve, roles
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask, bg_for
from .steptext import braced, colour_text, parse_colour

__all__ = [
    "Draw",
    "WayColour",
    "background_paints",
    "paint_step",
    "painted_colour",
    "painted_colours",
    "painted_tokens",
]

Draw = Callable[[Array, int, str, int], Array | None]
"""A drawing: the grid, its background, the way and the colour (or role) to draw in."""


def background_paints(given: FitInput) -> list[set[int]] | None:
    """Per demonstration, the colours its output paints, when all it does is paint the background.

    ``None`` when some demonstration changes size, changes nothing, or changes a cell that is not
    its background: a step that only draws on the empty part of a grid cannot give it.
    """
    paints: list[set[int]] = []
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        if a.shape != b.shape:
            return None
        ch = a != b
        if not ch.any() or np.any(a[ch] != ctx.bg):
            return None
        paints.append({int(v) for v in np.unique(b[ch])})
    return paints


def painted_colours(given: FitInput) -> set[int] | None:
    """Every colour the demonstrations paint on their background, or ``None`` as `background_paints`."""
    paints = background_paints(given)
    return None if paints is None else set().union(*paints)


def painted_colour(given: FitInput) -> int | None:
    """The one colour the demonstrations paint on their background; ``None`` when they paint more.

    ``None`` too when they fail `background_paints`' gate: for steps that draw in a single colour.
    """
    painted = painted_colours(given)
    if painted is None or len(painted) != 1:
        return None
    (colour,) = painted
    return colour


def painted_tokens(given: FitInput) -> list[str] | None:
    """The tokens naming the one colour each demonstration paints on its background.

    The colour itself when every demonstration paints the same one; else the first role
    (`colours.ROLES`) that names each demonstration's colour in its input, if any (an empty list
    when none does). ``None`` when the demonstrations fail `background_paints`' gate, or one of
    them paints in two colours.
    """
    paints = background_paints(given)
    if paints is None or any(len(p) != 1 for p in paints):
        return None
    colours = [min(p) for p in paints]
    if len(set(colours)) == 1:
        return [str(colours[0])]
    named = [roles(a) for a in given.inputs[: given.n]]
    return [r for r in ROLES if all(m.get(r) == v for m, v in zip(named, colours, strict=True))][:1]


def paint_step(text: str, cost: float, colour: str, cells: Callable[[Array, int], Mask | None]) -> Op:
    """The step ``text``: paint ``colour`` (a literal or a role) on the cells ``cells`` picks.

    ``cells`` is given the grid and its background; the step gives ``None`` when it picks no cell,
    when the role names no colour on the task's input, or on a grid holding the search's sentinel.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        p = resolve(colour, roles(ctx.original))
        if p is None or int(a.max()) >= SENTINEL:
            return None
        picked = cells(a, bg_for(a, ctx))
        if picked is None or not picked.any():
            return None
        return np.where(picked, np.uint8(p), a).astype(np.uint8)

    step: Prim = prim
    return Op(text, cost, step, "same")


@dataclass(frozen=True)
class WayColour:
    """The steps ``name{way;colour}``: ``draw`` in one of ``ways``, in a role's colour or a fixed one.

    Attributes:
        name: the step's name, as its text begins.
        cost: the base cost of each step.
        draw: what a step does to a grid (``None`` when it draws nothing).
        ways: the ways, in the order they are fitted.
        roles: each role's colour code (negative) and its name in the text, in the order fitted;
            with none, only the one colour the demonstrations paint is fitted.
    """

    name: str
    cost: float
    draw: Draw
    ways: tuple[str, ...]
    roles: Mapping[int, str]

    def op(self, way: str, colour: int) -> Op:
        """The step ``name{way;colour}``."""
        draw = self.draw

        def prim(a: Array, ctx: Context) -> Array | None:
            return draw(a, ctx.bg, way, colour)

        step: Prim = prim
        return Op(f"{self.name}{{{way};{colour_text(colour, self.roles)}}}", self.cost, step, "same")

    def parse(self, text: str) -> Op | None:
        """The step written as ``text``, or ``None`` when it is malformed."""
        body = braced(text, self.name)
        if body is None:
            return None
        way, _, colour = body.partition(";")
        if way not in self.ways:
            return None
        paint = parse_colour(colour, self.roles)
        if paint is None:
            return None
        op = self.op(way, paint)
        return op if op.text == text else None

    def fit(self, given: FitInput) -> list[Op]:
        """The steps that turn every demonstration input into its output, one per answer.

        Every role is tried, and the one colour the demonstrations paint when there is just one.
        """
        # Lines are drawn over the background only, and every pair draws some.
        painted = painted_colours(given)
        if painted is None:
            return []
        colours = [*self.roles, *sorted(painted)] if len(painted) == 1 else [*self.roles]
        ops = [self.op(way, colour) for way in self.ways for colour in colours]
        return one_per_answer(given, (op for op in ops if given.reproduced_by(op)))
