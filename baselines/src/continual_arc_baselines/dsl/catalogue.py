"""A catalogue: the named set of steps one search may take.

The search's steps come from a catalogue. ``wide``, the default (`ops.DEFAULT`) and every stored
run's, holds all of ``core`` and the families added since, in their own order after it; ``core``
keeps the first families only, to measure against. Any other catalogue is chosen by name
(`search`'s ``catalogue``, the program library's option, the search benchmark's ``--catalogue``),
so a new family is measured before it changes any record, and the default moves to it only with
the stored runs rebuilt.

A catalogue holds fixed families (each expanded into its `Op` members) and *fitters*: makers of steps whose
constants the demonstrations fix, each with the tokens it may write and a parser that reads its
text back, so a kept program runs with no demonstrations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .family import Family, Op, expand
from .grid import Array, Context

__all__ = ["Catalogue", "FitInput", "Fitter", "changing_answers", "one_per_answer"]


@dataclass(frozen=True)
class FitInput:
    """What a fitter reads: a task's grids and their contexts (the plain root's).

    Attributes:
        inputs: the demonstration inputs, then the test input.
        outputs: the demonstration outputs.
        contexts: one per grid of ``inputs``, in the same order.
    """

    inputs: tuple[Array, ...]
    outputs: tuple[Array, ...]
    contexts: tuple[Context, ...]

    @property
    def n(self) -> int:
        """The number of demonstrations."""
        return len(self.outputs)

    @property
    def keeps_size(self) -> bool:
        """Whether every demonstration's output has its input's shape."""
        return all(a.shape == b.shape for a, b in zip(self.inputs, self.outputs, strict=False))

    def demos(self) -> list[tuple[Array, Array, Context]]:
        """Each demonstration's input, output and context, in order."""
        n = self.n
        return list(zip(self.inputs[:n], self.outputs, self.contexts[:n], strict=True))

    def reproduced_by(self, op: Op) -> bool:
        """Whether ``op`` turns every demonstration input into its output."""
        demos = zip(self.inputs, self.outputs, self.contexts, strict=False)  # the test input has none
        for grid, output, ctx in demos:
            made = op(grid, ctx)
            if made is None or not np.array_equal(made, output):
                return False
        return True


def one_per_answer(given: FitInput, ops: Iterable[Op]) -> list[Op]:
    """Of ``ops``, in their order, each that answers the test input with a grid none before gave."""
    kept: list[Op] = []
    answers: list[Array] = []
    for op in ops:
        answer = op(given.inputs[given.n], given.contexts[given.n])
        if answer is None or any(np.array_equal(answer, seen) for seen in answers):
            continue
        answers.append(answer)
        kept.append(op)
    return kept


def changing_answers(given: FitInput, ops: Iterable[Op]) -> list[Op]:
    """Of ``ops``, in their order, those that change the test input and reproduce every demonstration.

    One per answer, as `one_per_answer` keeps them.
    """
    test, ctx = given.inputs[given.n], given.contexts[given.n]
    kept: list[Op] = []
    for op in ops:
        answer = op(test, ctx)
        if answer is not None and not np.array_equal(answer, test) and given.reproduced_by(op):
            kept.append(op)
    return one_per_answer(given, kept)


@dataclass(frozen=True)
class Fitter:
    """A maker of fitted steps: the steps, their tokens and a parser of their text.

    Attributes:
        prefix: how the text of every step it makes begins (``"stamp("``); unique among all
            fitters. The text ends with its constants in braces (``stamp(8){...}``).
        tokens: each token it may write (the step's text without its constants) and its base cost.
        fit: the steps the demonstrations fix, in the order the search should try them (may be empty).
        parse: the step a text names, or ``None`` when the text is not one of its steps.
    """

    prefix: str
    tokens: Mapping[str, float]
    fit: Callable[[FitInput], Sequence[Op]]
    parse: Callable[[str], Op | None]


@dataclass(frozen=True)
class Catalogue:
    """A named set of steps: fixed families in search order, then fitters.

    Attributes:
        name: how it is chosen (``"core"``, ``"wide"``).
        families: the fixed families, in the order the search tries their members.
        fitters: the makers of fitted steps beyond those every catalogue has (`fitting.Task`).
        base_fitted: the base costs of the tokens every catalogue's own fitted steps write.
        features: the names of changes to how the search itself works that this catalogue turns
            on (none in ``core``); each is read where the search makes that change.
    """

    name: str
    families: tuple[Family, ...]
    fitters: tuple[Fitter, ...] = ()
    base_fitted: Mapping[str, float] = field(default_factory=dict)
    features: frozenset[str] = frozenset()

    @cached_property
    def ops(self) -> tuple[Op, ...]:
        """Every fixed step with its arguments bound, in search order."""
        return tuple(op for family in self.families for op in expand(family))

    @cached_property
    def by_text(self) -> dict[str, Op]:
        """Every fixed step by its text."""
        return {op.text: op for op in self.ops}

    @cached_property
    def base_costs(self) -> dict[str, float]:
        """Every token's cost under the empty prior: fixed steps, then fitted tokens."""
        costs = {op.text: op.cost for op in self.ops}
        costs.update(self.base_fitted)
        for fitter in self.fitters:
            costs.update(fitter.tokens)
        return costs
