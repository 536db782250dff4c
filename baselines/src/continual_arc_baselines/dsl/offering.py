"""Offered steps: whole-grid steps fitted only when they answer every demonstration by themselves.

A step that turns a whole input into a whole answer (cutting, assembling, rolling) seldom needs
another step before or after it. Searched as a fixed family it costs an application at every
state the search expands; offered as a fitted step it is tried once, on the task's own
demonstrations, and kept only when it reproduces them and changes the test input
(`catalogue.changing_answers`). ``offered_fitter`` makes such a fitter from a step maker and its
variants: the step of variant ``v`` is written ``name{v}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, bg_for

__all__ = ["offered_fitter", "on_background"]


def on_background(step: Callable[[Array, int], Array | None]) -> Prim:
    """The primitive running ``step`` on a grid and its background (`grid.bg_for`).

    A grid that holds a placeholder label (`grid.SENTINEL`), not yet a colour, does not apply.
    """

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        return step(a, bg_for(a, ctx))

    return prim


def offered_fitter(
    name: str, variants: Sequence[str], make: Callable[[str], Prim], cost: float, shape: str
) -> Fitter:
    """A fitter offering ``name{v}`` for each variant ``v`` that answers the demonstrations alone."""
    ops = tuple(Op(f"{name}{{{v}}}", cost, make(v), shape) for v in variants)
    by_text = {op.text: op for op in ops}

    def fit(given: FitInput) -> list[Op]:
        return changing_answers(given, ops)

    def parse(text: str) -> Op | None:
        return by_text.get(text)

    return Fitter(f"{name}{{", {name: cost}, fit, parse)
