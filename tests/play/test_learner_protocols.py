"""The learner's optional members are small runtime-checkable protocols, asked with isinstance."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.play.learner import (
    OPTIONAL_PROTOCOLS,
    BaseLearner,
    CountsInstances,
    Fingerprinted,
    Learner,
    LoadsState,
    LogsInstances,
    ResumesFrom,
    SavesState,
    ShowsMemory,
    Stateless,
    TrainsWeights,
    is_stateless,
    saves_state,
)
from continual_arc.testing import GiveUpLearner, ToyRuleLearner

# Each optional member and the protocol that stands for it, written out here, not read from the code.
MEMBERS: dict[str, type] = {
    "save_state": SavesState,
    "load_state": LoadsState,
    "resume_from": ResumesFrom,
    "instance_log": LogsInstances,
    "instance_resources": CountsInstances,
    "training_resources": TrainsWeights,
    "memory": ShowsMemory,
    "code_fingerprint": Fingerprinted,
}


def _method(*args: Any) -> None:
    return None


@given(st.sets(st.sampled_from(sorted(MEMBERS))), st.sampled_from([None, False, True]))
def test_a_learner_has_exactly_the_protocols_of_the_members_it_has(members: set[str], stateless: Any) -> None:
    body: dict[str, Any] = {name: _method for name in members}
    if stateless is not None:
        body["stateless"] = stateless
    learner = type("Made", (), body)()
    assert {name for name, protocol in MEMBERS.items() if isinstance(learner, protocol)} == members
    assert isinstance(learner, Stateless) == (stateless is not None)
    assert is_stateless(learner) == bool(stateless)
    assert saves_state(learner) == ({"save_state", "load_state"} <= members)


def test_the_wire_names_the_optional_methods_a_remote_learner_mirrors() -> None:
    assert dict(OPTIONAL_PROTOCOLS) == {k: v for k, v in MEMBERS.items() if k != "code_fingerprint"}


def test_the_existing_learners_are_still_learners() -> None:
    base, toy, give_up = BaseLearner(), ToyRuleLearner(), GiveUpLearner()
    assert all(isinstance(x, Learner) for x in (base, toy, give_up))
    assert isinstance(base, Stateless) and not is_stateless(base)  # BaseLearner says False
    assert not saves_state(base) and not isinstance(base, ShowsMemory)
