"""The ``changes`` search feature of ``next``: no answer that leaves the test input as it was."""

from __future__ import annotations

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.fitting import Task
from continual_arc_baselines.dsl.ops import NEXT, WIDE

# Blue becomes red. The test input holds no blue, so a map of blue answers it unchanged.
_DEMOS: list[Pair] = [
    (((1, 0), (0, 0)), ((2, 0), (0, 0))),
    (((0, 1), (1, 0)), ((0, 2), (2, 0))),
    (((1, 1), (0, 1)), ((2, 2), (0, 2))),
]
_TEST: Grid = ((3, 0), (0, 3))


def test_wide_may_answer_the_test_input_unchanged() -> None:
    found = search(_DEMOS, _TEST, catalogue=WIDE)
    assert any(c.prediction == _TEST for c in found.candidates)


def test_changes_drops_an_answer_equal_to_the_test_input() -> None:
    assert Task(_DEMOS, _TEST, NEXT).changes
    found = search(_DEMOS, _TEST, catalogue=NEXT)
    assert all(c.prediction != _TEST for c in found.candidates)


def test_changes_is_off_when_a_demonstration_keeps_its_input() -> None:
    kept: list[Pair] = [*_DEMOS, (((0, 0), (0, 0)), ((0, 0), (0, 0)))]
    assert not Task(kept, _TEST, NEXT).changes
    assert not Task(_DEMOS, _TEST, WIDE).changes
