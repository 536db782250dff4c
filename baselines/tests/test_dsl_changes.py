"""The ``changes`` search feature of ``wide``: no answer that leaves the test input as it was."""

from __future__ import annotations

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.catalogue import Catalogue
from continual_arc_baselines.dsl.fitting import Task
from continual_arc_baselines.dsl.ops import WIDE

# Blue becomes red. The test input holds no blue, so a map of blue answers it unchanged.
_DEMOS: list[Pair] = [
    (((1, 0), (0, 0)), ((2, 0), (0, 0))),
    (((0, 1), (1, 0)), ((0, 2), (2, 0))),
    (((1, 1), (0, 1)), ((2, 2), (0, 2))),
]
_TEST: Grid = ((3, 0), (0, 3))


# ``wide`` as it would be without the feature.
_UNGUARDED = Catalogue(
    "unguarded", WIDE.families, WIDE.fitters, WIDE.base_fitted, WIDE.features - {"changes"}
)


def test_without_the_feature_the_test_input_may_come_back_unchanged() -> None:
    found = search(_DEMOS, _TEST, catalogue=_UNGUARDED)
    assert any(c.prediction == _TEST for c in found.candidates)


def test_changes_drops_an_answer_equal_to_the_test_input() -> None:
    assert Task(_DEMOS, _TEST, WIDE).changes
    found = search(_DEMOS, _TEST, catalogue=WIDE)
    assert all(c.prediction != _TEST for c in found.candidates)


def test_changes_is_off_when_a_demonstration_keeps_its_input() -> None:
    kept: list[Pair] = [*_DEMOS, (((0, 0), (0, 0)), ((0, 0), (0, 0)))]
    assert not Task(kept, _TEST, WIDE).changes
    assert not Task(_DEMOS, _TEST, _UNGUARDED).changes
