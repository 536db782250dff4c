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

__all__ = ["offered_fitter"]


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
