from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from continual_arc.env import Action, Feedback, GiveUp, LearnerObservation, RequestDemos, Submit
from continual_arc.learner import BaseLearner
from continual_arc.testing import (
    DemoBuyerLearner,
    GiveUpLearner,
    RandomLearner,
    ToyRuleLearner,
    apply_rule,
    check_learner,
    toy_fixed_source,
    toy_generative_source,
    toy_rule,
)


def test_toy_tasks_follow_their_rule() -> None:
    source = toy_generative_source()
    for task in source.task_ids()[:10]:
        inst = source.instance(task, 4)
        assert apply_rule(inst.input, toy_rule(task)) == inst.output
        assert apply_rule(inst.demonstration(0)[0], toy_rule(task)) == inst.demonstration(0)[1]
    fixed = toy_fixed_source()
    inst = fixed.instance("toyfix-05", 0)
    assert apply_rule(inst.input, toy_rule("toyfix-05")) == inst.output


def test_trivial_learners_pass_the_checker() -> None:
    for factory in (GiveUpLearner, DemoBuyerLearner, ToyRuleLearner, lambda: RandomLearner(2)):
        assert check_learner(factory) == []


class Saver(ToyRuleLearner):
    """A toy rule learner whose faults the tests switch on one at a time."""

    def __init__(self, fault: str = "") -> None:
        super().__init__()
        self.fault = fault

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        super().observe(obs, action, feedback)
        if self.fault == "eager":
            self.rules.update(self._pending)  # keeps a lesson the moment it has it

    def reset(self) -> None:
        if self.fault != "no-reset":
            super().reset()

    def act(self, obs: LearnerObservation) -> Action:
        if self.fault == "random" and random.random() < 0.5:
            return GiveUp()
        return super().act(obs)

    def load_state(self, directory: Any) -> None:
        if self.fault != "lossy":
            super().load_state(directory)


def test_the_checker_names_each_breach_of_the_contract() -> None:
    assert check_learner(lambda: Saver("eager")) == [
        "what the learner saves changed in observe, not in end_round"
    ]
    assert check_learner(lambda: Saver("no-reset")) == [
        "reset() did not bring it back to a fresh learner's state"
    ]
    assert check_learner(lambda: Saver("lossy")) == [
        "save_state then load_state did not give back the same state"
    ]
    random.seed(1)
    assert "it is not deterministic" in " ".join(check_learner(lambda: Saver("random")))


class Forgetful(BaseLearner):
    def act(self, obs: LearnerObservation) -> Action:
        return RequestDemos() if obs.demos_used == 0 else Submit(obs.input)


def test_a_learner_that_keeps_state_but_cannot_save_is_named() -> None:
    assert check_learner(Forgetful) == ["it keeps state but has no save_state: runs cannot resume"]
    assert check_learner(object) == [
        f"it lacks {m}"
        for m in (
            "reset",
            "act",
            "observe",
            "begin_round",
            "end_round",
            "resources",
            "user_resources",
            "concurrent_users",
        )
    ]


def test_toy_rule_learner_state_is_readable_json(tmp_path: Path) -> None:
    learner = ToyRuleLearner()
    learner.rules = {"task-1": (3, 2)}
    learner.save_state(tmp_path)
    assert json.loads((tmp_path / "rules.json").read_text()) == [["task-1", [3, 2]]]


class Raiser(BaseLearner):
    """Raises in act, on every instance or on the stream's first alone."""

    stateless = True

    def __init__(self, every: bool = True) -> None:
        self.every = every

    def act(self, obs: LearnerObservation) -> Action:
        if self.every or obs.step == 0:
            raise ValueError("no idea")
        return GiveUp()


def _toy_instances(users: int = 3) -> int:
    """The instances of the stream check_learner plays by default (toy-smoke, three users, seed 0)."""
    from continual_arc.stream.schedule import build_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config

    return len(build_schedule(with_users(get_config("toy-smoke"), users), 0, epilogue=False).slots)


def test_a_learner_that_raises_in_act_is_named_with_its_count() -> None:
    n = _toy_instances()
    assert check_learner(Raiser) == [
        f"it ended {n} of {n} instances in a learner error, each charged the whole budget "
        "(the first: ValueError in act: no idea)"
    ]
    assert check_learner(lambda: Raiser(every=False)) == [
        f"it ended 1 of {n} instances in a learner error, each charged the whole budget "
        "(the first: ValueError in act: no idea)"
    ]


class NeverLearns(ToyRuleLearner):
    """Saves its state like a learner, but gives up at once: its state never changes."""

    def act(self, obs: LearnerObservation) -> Action:
        return GiveUp()


class EagerNeverLearns(NeverLearns):
    """Would keep a lesson the moment it had one (the contract's breach), but never has one."""

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        super().observe(obs, action, feedback)
        self.rules.update(self._pending)


def test_a_check_that_exercised_nothing_says_so() -> None:
    expected = [
        "what the learner saves never changed on the stream of toy-smoke (seed 0), so whether it "
        "changes only in end_round, and whether reset and load_state restore it, was not exercised: "
        "check it on a stream where it learns (config=..., seed=...)"
    ]
    assert check_learner(NeverLearns) == expected
    assert check_learner(EagerNeverLearns) == expected  # not a pass: nothing was tested
    assert check_learner(GiveUpLearner) == []  # stateless: nothing to exercise


class KeepsMemory(BaseLearner):
    """A stateless learner whose data attribute is named like the optional memory() method."""

    stateless = True

    def __init__(self) -> None:
        self.memory: dict[str, int] = {}

    def act(self, obs: LearnerObservation) -> Action:
        self.memory[obs.task_id] = self.memory.get(obs.task_id, 0)
        return GiveUp()


def test_a_data_attribute_named_memory_runs_to_the_end_and_is_named_by_the_checker(tmp_path: Path) -> None:
    from continual_arc.runner import run
    from continual_arc.stream.schedule import build_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config

    schedule = build_schedule(with_users(get_config("toy-smoke"), 2), 0, epilogue=False)
    result = run(KeepsMemory(), schedule, tmp_path / "run")
    assert len(result.records) == len(schedule.slots) and (tmp_path / "run" / "summary.json").exists()
    assert not (tmp_path / "run" / "memory.json").exists()  # it has no memory() to write
    assert check_learner(KeepsMemory) == [
        "its memory is dict, not a method, so the runner does not take it for the optional member "
        "memory (rename it, e.g. _memory, if it is the learner's own data)"
    ]
