"""What the demonstrations say about any output: its size and its palette.

The rules are deduced before the search, and a candidate whose test prediction breaks one is
dropped: a program that fits the demonstrations by accident often gives itself away this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .grid import Array, colour_counts

__all__ = ["Expectation", "expect"]


@dataclass(frozen=True)
class Expectation:
    """Rules every demonstration obeys, to check a prediction against.

    Attributes:
        scale: if set, output height and width are the input's times these factors.
        fixed: if set, every output has this shape.
        palette_within: every output's colours are among its input's.
        always: the colours every output holds; a prediction may hold them even where its input
            does not (a task that recolours into a fixed colour meets an input without it).
    """

    scale: tuple[Fraction, Fraction] | None
    fixed: tuple[int, int] | None
    palette_within: bool
    always: frozenset[int] = frozenset()

    def admits(self, test_input: Array, prediction: Array) -> bool:
        """Whether a prediction for ``test_input`` obeys the rules."""
        h, w = prediction.shape
        if self.fixed is not None and (h, w) != self.fixed:
            return False
        if self.scale is not None:
            fy, fx = self.scale
            if (Fraction(h), Fraction(w)) != (test_input.shape[0] * fy, test_input.shape[1] * fx):
                return False
        if self.palette_within:
            extra = (colour_counts(prediction) > 0) & (colour_counts(test_input) == 0)
            if any(int(c) not in self.always for c in np.flatnonzero(extra)):
                return False
        return True


def expect(inputs: Sequence[Array], outputs: Sequence[Array]) -> Expectation:
    """The rules that hold over all demonstrations (inputs and outputs in the same order)."""
    factors = {
        (Fraction(o.shape[0], i.shape[0]), Fraction(o.shape[1], i.shape[1]))
        for i, o in zip(inputs, outputs, strict=True)
    }
    shapes = {o.shape for o in outputs}
    within = all(
        not np.any((colour_counts(o) > 0) & (colour_counts(i) == 0))
        for i, o in zip(inputs, outputs, strict=True)
    )
    scale = next(iter(factors)) if len(factors) == 1 and len(inputs) > 1 else None
    fixed = (
        (int(outputs[0].shape[0]), int(outputs[0].shape[1]))
        if len(shapes) == 1 and len(outputs) > 1
        else None
    )
    always = frozenset.intersection(*(frozenset(np.flatnonzero(colour_counts(o)).tolist()) for o in outputs))
    return Expectation(scale=scale, fixed=fixed, palette_within=within, always=always)
