"""BaseEnvironment's bookkeeping, through a kind of instance written for the test alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from continual_arc.core.actions import GiveUp, GiveUpFeedback, RequestDemos
from continual_arc.core.environment import (
    BaseEnvironment,
    Environment,
    EnvSettings,
    InstanceClosedError,
    InstanceResult,
    InvalidActionError,
)


@dataclass(frozen=True)
class Guess:
    word: str


@dataclass(frozen=True)
class Said:
    text: str | None
    spent: int
    done: bool = False


class WordEnv(BaseEnvironment[Guess, str, Said]):
    """Guess the word "right"; a demonstration is the text "demo <index>"."""

    action_names = "Guess, RequestDemos or GiveUp"

    def __init__(self, settings: EnvSettings | None = None, demo_cap: int = 2) -> None:
        super().__init__(settings, demo_cap)

    def accepts(self, value: Any) -> bool:
        return isinstance(value, Guess | RequestDemos | GiveUp)

    def _act(self, action: Guess) -> Said:
        if action.word == "right":
            self.end = "solved"
        else:
            self.attempts_used += 1
            if self.attempts_used >= self.settings.attempt_cap:
                self.end = "attempt cap"
        return Said(action.word, self.spent, self.done)

    def _demonstration(self, index: int) -> str:
        return f"demo {index}"

    def _demos_feedback(self, demo: str | None, refused: bool) -> Said:
        return Said(demo, self.spent)

    # The rest of the Environment protocol, which the base leaves to each kind.
    def view(self, alias: str, step: int, round: int, user: int, extra: Any = None) -> Any:
        return alias

    def opening(self) -> dict[str, Any]:
        return {}

    def action_json(self, action: Any) -> dict[str, Any]:
        return {}

    def action_from_json(self, value: Any) -> Any:
        return None

    def feedback_json(self, feedback: Any) -> dict[str, Any]:
        return {}

    def observation_json(self, obs: Any) -> dict[str, Any]:
        return {}


def test_a_subclass_is_an_environment() -> None:
    assert isinstance(WordEnv(), Environment)


def test_solved_is_charged_what_it_spent() -> None:
    env = WordEnv()
    env.step(Guess("wrong"))
    assert env.step(RequestDemos()) == Said("demo 0", 2)
    assert env.step(Guess("right")) == Said("right", 2, done=True)
    assert env.result() == InstanceResult(
        solved=True,
        charge=2,
        spent=2,
        wrong_attempts=1,
        demos_bought=1,
        demos_refused=0,
        actions=3,
        end="solved",
    )


def test_the_instance_cap_on_demonstrations_applies_and_a_refusal_is_free() -> None:
    env = WordEnv(demo_cap=1)
    assert env.step(RequestDemos()) == Said("demo 0", 1)
    assert env.step(RequestDemos()) == Said(None, 1)
    assert (env.demos, env.demos_refused, env.spent) == (["demo 0"], 1, 1)


def test_the_settings_cap_on_demonstrations_applies_when_lower() -> None:
    assert WordEnv(EnvSettings(demo_cap=1), demo_cap=5).demo_cap == 1


def test_giving_up_is_charged_the_maximum() -> None:
    env = WordEnv(EnvSettings(attempt_cap=3, demo_cap=2, demo_cost=2, action_cap=20))
    env.step(RequestDemos())
    assert env.step(GiveUp()) == GiveUpFeedback()
    result = env.result()
    # An unsolved instance costs attempt_cap + demo_cost * demo_cap = 3 + 2 * 2, whatever it spent.
    assert (result.solved, result.charge, result.spent, result.end) == (False, 7, 2, "gave up")


def test_the_action_cap_ends_the_instance_and_marks_the_feedback_done() -> None:
    settings = EnvSettings(attempt_cap=2, demo_cap=1, action_cap=4)
    env = WordEnv(settings, demo_cap=1)
    env.step(RequestDemos())
    env.step(RequestDemos())
    assert env.step(RequestDemos()) == Said(None, 1)
    assert env.step(RequestDemos()) == Said(None, 1, done=True)
    # Unsolved: attempt_cap + demo_cost * demo_cap = 2 + 1 * 1.
    assert (env.result().end, env.result().charge, env.result().actions) == ("action cap", 3, 4)


def test_a_subclass_may_widen_the_action_cap() -> None:
    env = WordEnv(EnvSettings(attempt_cap=2, demo_cap=1, action_cap=4), demo_cap=1)
    env.action_cap = 5
    for _ in range(4):
        env.step(RequestDemos())
    assert not env.done
    assert env.step(RequestDemos()).done


def test_fail_ends_an_open_instance_only() -> None:
    env = WordEnv()
    env.fail("learner fault")
    env.fail("time limit")
    assert (env.result().end, env.result().charge) == ("learner fault", 16)
    solved = WordEnv()
    solved.step(Guess("right"))
    solved.fail("time limit")
    assert solved.result().end == "solved"


def test_misuse_raises() -> None:
    env = WordEnv()
    with pytest.raises(InstanceClosedError):
        env.result()
    with pytest.raises(InvalidActionError, match="expected Guess, RequestDemos or GiveUp, got str"):
        env.step("right")
    assert env.actions == 0
    env.step(GiveUp())
    with pytest.raises(InstanceClosedError):
        env.step(Guess("right"))
