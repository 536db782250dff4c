"""Held background: object steps fitted under the demonstrations' background when the test input's differs."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ground import fit_onbg
from continual_arc_baselines.dsl.ops import WIDE, lookup

# Grey rectangles on black: each rectangle's inside turns red, its rim stays grey.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [5, 5, 5, 0, 0, 0],
            [5, 5, 5, 0, 0, 0],
            [5, 5, 5, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
        [
            [5, 5, 5, 0, 0, 0],
            [5, 2, 5, 0, 0, 0],
            [5, 5, 5, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
    ),
    (
        [
            [0, 0, 0, 0, 0, 0],
            [0, 5, 5, 5, 5, 0],
            [0, 5, 5, 5, 5, 0],
            [0, 5, 5, 5, 5, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 0, 0, 0],
            [0, 5, 5, 5, 5, 0],
            [0, 5, 2, 2, 5, 0],
            [0, 5, 5, 5, 5, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
    ),
]

# The test rectangle covers most of the grid, so its commonest colour is grey, not black.
_TEST: Cells = [
    [5, 5, 5, 5, 5],
    [5, 5, 5, 5, 5],
    [5, 5, 5, 5, 5],
    [5, 5, 5, 5, 5],
    [0, 0, 0, 0, 0],
]
_ANSWER: Cells = [
    [5, 5, 5, 5, 5],
    [5, 2, 2, 2, 5],
    [5, 2, 2, 2, 5],
    [5, 5, 5, 5, 5],
    [0, 0, 0, 0, 0],
]


def test_the_demonstrations_background_is_held_on_a_test_input_of_another() -> None:
    given = fit_input(_DEMOS, _TEST)
    found = fit_onbg(given)
    assert found
    first = found[0]
    assert first.text.startswith("onbg(0){")
    test_ctx = Context(given.inputs[-1])
    assert test_ctx.bg == 5  # the plain reading that misleads the other fitters
    answer = first(given.inputs[-1], test_ctx)
    assert answer is not None and answer.tolist() == _ANSWER
    # The step reads back from its text, and is known to the wide catalogue's parsers.
    again = lookup(first.text)
    assert again is not None and again.text == first.text
    assert "onbg(" in {fitter.prefix for fitter in WIDE.fitters}


def test_nothing_is_fitted_when_the_test_input_shares_the_background() -> None:
    small: Cells = [[5, 5, 5, 0], [5, 5, 5, 0], [5, 5, 5, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert fit_onbg(fit_input(_DEMOS, small)) == []


def test_a_grid_without_the_held_colour_is_not_answered() -> None:
    op = lookup("onbg(0){relate(4,all){0>i2}}")
    assert op is not None
    grey = np.array([[5, 5, 5], [5, 5, 5], [5, 5, 5], [3, 3, 3]], dtype=np.uint8)
    assert op(grey, Context(grey)) is None
    assert lookup("onbg(0){onbg(0){relate(4,all){0>i2}}}") is None
    assert lookup("onbg(x){relate(4,all){0>i2}}") is None
