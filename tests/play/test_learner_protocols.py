"""The learner's optional members are small runtime-checkable protocols, asked with isinstance."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.play.learner import (
    MEMBERS as LEARNER_MEMBERS,
)
from continual_arc.play.learner import (
    OPTIONAL_MEMBERS,
    OPTIONAL_PROTOCOLS,
    BaseLearner,
    Closes,
    CountsInstances,
    Fingerprinted,
    HasTeacher,
    JoinsRun,
    Learner,
    LoadsState,
    LogsInstances,
    ResumesFrom,
    SavesState,
    ShowsMemory,
    Stateless,
    TrainsWeights,
    is_stateless,
    misnamed_members,
    saves_state,
)
from continual_arc.testing import GiveUpLearner, ToyRuleLearner

# Each optional member and the protocol that stands for it, written out here, not read from the code.
MEMBERS: dict[str, type] = {
    "save_state": SavesState,
    "load_state": LoadsState,
    "resume_from": ResumesFrom,
    "join_run": JoinsRun,
    "instance_log": LogsInstances,
    "instance_resources": CountsInstances,
    "training_resources": TrainsWeights,
    "teacher_resources": HasTeacher,
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


def test_the_member_lists_are_read_from_the_protocols() -> None:
    # Written out here, in the protocol's order: what a learner must have, and what it may have.
    assert LEARNER_MEMBERS == (
        "reset",
        "act",
        "observe",
        "begin_round",
        "end_round",
        "resources",
        "user_resources",
        "concurrent_users",
    )
    assert dict(OPTIONAL_MEMBERS) == {**MEMBERS, "stateless": Stateless, "close": Closes}


def test_the_existing_learners_are_still_learners() -> None:
    base, toy, give_up = BaseLearner(), ToyRuleLearner(), GiveUpLearner()
    assert all(isinstance(x, Learner) for x in (base, toy, give_up))
    assert isinstance(base, Stateless) and not is_stateless(base)  # BaseLearner says False
    assert not saves_state(base) and not isinstance(base, ShowsMemory)


DATA = st.one_of(
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.lists(st.integers(), max_size=2),
    st.integers(),
    st.text(max_size=3),
    st.none(),
)


@given(st.sampled_from(sorted(MEMBERS)), DATA)
def test_a_data_attribute_named_like_a_member_is_not_the_member(name: str, value: Any) -> None:
    learner = type("Made", (), {})()
    setattr(learner, name, value)  # as a learner's __init__ would: self.memory = {}
    assert not isinstance(learner, MEMBERS[name])
    (sentence,) = misnamed_members(learner)
    assert sentence.startswith(f"its {name} is {type(value).__name__}, not a method")


def test_a_method_that_cannot_take_the_documented_arguments_is_not_the_member() -> None:
    class Odd:
        def instance_log(self) -> None:  # the protocol's takes the user
            return None

        def memory(self, depth: int) -> None:  # the protocol's takes nothing
            return None

        def save_state(self, directory: str, *, extra: int = 0) -> None:  # fits: extra has a default
            return None

    odd = Odd()
    assert not isinstance(odd, LogsInstances) and not isinstance(odd, ShowsMemory)
    assert isinstance(odd, SavesState)
    assert misnamed_members(odd) == [
        "its instance_log cannot be called as instance_log(user), so the runner does not take it for "
        "the optional member instance_log (rename it, e.g. _instance_log, if it is the learner's own data)",
        "its memory cannot be called as memory(), so the runner does not take it for the optional "
        "member memory (rename it, e.g. _memory, if it is the learner's own data)",
    ]


def test_stateless_must_be_a_bool() -> None:
    learner = type("Made", (), {"stateless": "yes"})()
    assert not isinstance(learner, Stateless) and not is_stateless(learner)
    assert misnamed_members(learner)[0].startswith("its stateless is str, not bool")
    assert misnamed_members(ToyRuleLearner()) == [] and misnamed_members(BaseLearner()) == []
