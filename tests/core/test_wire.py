from __future__ import annotations

import json
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.actions import (
    DemosFeedback,
    GiveUp,
    GiveUpFeedback,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)
from continual_arc.core.wire import WireError, from_wire, to_wire

colours = st.integers(0, 9)
grids = st.integers(1, 5).flatmap(
    lambda w: st.lists(st.tuples(*[colours] * w), min_size=1, max_size=5).map(tuple)
)


@given(grids, st.lists(st.tuples(grids, grids), max_size=3), st.integers(0, 8), st.text(max_size=12))
def test_an_observation_crosses_whole(grid, demos, attempts, alias) -> None:  # type: ignore[no-untyped-def]
    obs = LearnerObservation(alias, grid, attempts, 8, len(demos), 8, tuple(demos), 3, 2, 1,
                             MappingProxyType({"hint": "look"}))  # fmt: skip
    message = json.loads(json.dumps(to_wire(obs)))  # through text, as on the pipe
    assert from_wire(message) == obs


@given(grids)
def test_actions_and_feedback_cross_whole(grid) -> None:  # type: ignore[no-untyped-def]
    values = [
        Submit(grid),
        RequestDemos(),
        GiveUp(),
        SubmitFeedback(False, 2, 3, False, "invalid grid: row 1"),
        DemosFeedback((grid, grid), 1, 1),
        DemosFeedback(None, 8, 8, refused=True),
        GiveUpFeedback(),
    ]
    for value in values:
        assert from_wire(json.loads(json.dumps(to_wire(value)))) == value


def test_a_submitted_list_grid_comes_back_as_tuples_and_anything_else_as_it_was() -> None:
    assert from_wire(to_wire(Submit([[1, 2], [3, 4]]))) == Submit(((1, 2), (3, 4)))
    assert from_wire(to_wire(Submit("not a grid"))) == Submit("not a grid")


def test_other_values_and_malformed_messages_are_refused() -> None:
    with pytest.raises(WireError, match="a int has no form on the wire"):
        to_wire(3)
    with pytest.raises(WireError, match="no value of kind 'bogus'"):
        from_wire({"kind": "bogus"})
    with pytest.raises(WireError, match="a malformed 'observation' message"):
        from_wire({"kind": "observation", "task_id": "x"})
