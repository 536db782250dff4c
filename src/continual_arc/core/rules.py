"""The rules of an instance, kept once: what ends it and what it is charged (`Tally`).

Every kind of environment counts through a [`Tally`][continual_arc.core.rules.Tally]
([`BaseEnvironment`][continual_arc.core.environment.BaseEnvironment] does it for them), and the checker
replays a record's recorded actions through one, so the rules the runs are played by and the rules they are
checked by are the same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from .records import End

__all__ = ["EnvSettings", "InstanceClosedError", "InstanceResult", "Tally"]


@dataclass(frozen=True)
class EnvSettings:
    """The environment's rules. The defaults are the benchmark's; any other value is an ablation.

    Attributes:
        attempt_cap: wrong submissions allowed; the last one ends the instance unsolved.
        demo_cap: the most demonstrations an instance offers (a fixed task may offer fewer).
        demo_cost: the charge of one demonstration.
        action_cap: the most actions on one instance, refused requests included.
    """

    attempt_cap: int = 8
    demo_cap: int = 8
    demo_cost: int = 1
    action_cap: int = 64

    def __post_init__(self) -> None:
        if self.attempt_cap < 1 or self.demo_cap < 0 or self.demo_cost < 0:
            raise ValueError(f"invalid environment settings: {self}")
        if self.action_cap < self.attempt_cap + self.demo_cap + 1:
            raise ValueError("action_cap must allow every attempt, every demonstration and a give-up")

    @property
    def max_cost(self) -> int:
        """The charge of an unsolved instance: ``attempt_cap + demo_cost * demo_cap``."""
        return self.attempt_cap + self.demo_cost * self.demo_cap

    def to_dict(self) -> dict[str, int]:
        """The settings as JSON, ``max_cost`` included."""
        return {**asdict(self), "max_cost": self.max_cost}

    @classmethod
    def from_dict(cls, value: Mapping[str, float]) -> EnvSettings:
        """Settings from `to_dict`'s form (``max_cost`` is derived, so ignored)."""
        return cls(**{k: int(v) for k, v in value.items() if k != "max_cost"})

    def deviations(self) -> list[str]:
        """Each setting that differs from the benchmark's, in words."""
        default = EnvSettings()
        return [
            f"{name} = {getattr(self, name)} (canonical {getattr(default, name)})"
            for name in ("attempt_cap", "demo_cap", "demo_cost", "action_cap")
            if getattr(self, name) != getattr(default, name)
        ]


class InstanceClosedError(RuntimeError):
    """An action on an instance that has already ended, or a result asked of one still open."""


@dataclass(frozen=True)
class InstanceResult:
    """How an instance ended.

    Attributes:
        solved: whether the instance was solved.
        charge: the cost charged: what it spent if solved, else ``max_cost``.
        spent: wrong attempts plus demonstrations bought, in cost units.
        wrong_attempts: failed attempts (invalid submissions included).
        demos_bought: demonstrations bought.
        demos_refused: demonstration requests refused at no cost.
        actions: actions taken.
        end: why it ended: by the rules, or for a fault ([`End`][continual_arc.core.records.End]).
    """

    solved: bool
    charge: int
    spent: int
    wrong_attempts: int
    demos_bought: int
    demos_refused: int
    actions: int
    end: str


class Tally:
    """The rules of one instance, whatever its kind: what ends it, and what it is charged.

    The one implementation of the rules: every `BaseEnvironment` counts through one, and the
    checker replays a record's actions through one
    ([`replay_charge`][continual_arc.submit.replay.replay_charge]).
    A failed attempt at the ``attempt_cap``-th ends the instance; a give-up ends it; its
    ``action_cap``-th action that leaves it open ends it; a solved instance is charged what it
    spent (failed attempts plus ``demo_cost`` per demonstration bought), any other ``max_cost``.

    Attributes:
        settings: the rules.
        action_cap: the most actions on the instance (a game level's is wider than the settings').
        attempts_used: failed attempts so far.
        demos_bought: demonstrations bought so far.
        demos_refused: demonstration requests refused so far.
        actions: actions taken so far.
        end: why the instance ended (an [`End`][continual_arc.core.records.End] by the rules; a fault's reason
            outside them may be any sentence, the runner's are ``End`` members), or ``None`` while it is open.
    """

    def __init__(self, settings: EnvSettings, action_cap: int | None = None) -> None:
        self.settings = settings
        self.action_cap = settings.action_cap if action_cap is None else action_cap
        self.attempts_used = self.demos_bought = self.demos_refused = self.actions = 0
        self.end: str | None = None

    @property
    def done(self) -> bool:
        """Whether the instance has ended."""
        return self.end is not None

    @property
    def spent(self) -> int:
        """Failed attempts plus demonstrations bought so far, in cost units."""
        return self.attempts_used + self.settings.demo_cost * self.demos_bought

    def solve(self) -> None:
        """The instance is solved."""
        self.end = End.SOLVED

    def fail_attempt(self) -> None:
        """A failed attempt (a wrong or invalid submission, a game attempt lost): the last one ends it."""
        self.attempts_used += 1
        if self.attempts_used >= self.settings.attempt_cap:
            self.end = End.ATTEMPT_CAP

    def demo(self, *, refused: bool) -> None:
        """A demonstration request, bought or refused at no cost."""
        if refused:
            self.demos_refused += 1
        else:
            self.demos_bought += 1

    def give_up(self) -> None:
        """The learner gives up."""
        self.end = End.GAVE_UP

    def count_action(self) -> bool:
        """Count an action once applied; ``True`` when it was the ``action_cap``-th and ended the instance."""
        self.actions += 1
        if self.end is None and self.actions >= self.action_cap:
            self.end = End.ACTION_CAP
            return True
        return False

    def fail(self, reason: str) -> None:
        """End the instance unsolved for a reason outside the rules (a learner fault, a time limit)."""
        if self.end is None:
            self.end = reason

    def result(self) -> InstanceResult:
        """How the instance ended.

        Raises:
            InstanceClosedError: the instance has not ended yet.
        """
        if self.end is None:
            raise InstanceClosedError("the instance has not ended")
        solved = self.end == End.SOLVED
        return InstanceResult(
            solved=solved,
            charge=self.spent if solved else self.settings.max_cost,
            spent=self.spent,
            wrong_attempts=self.attempts_used,
            demos_bought=self.demos_bought,
            demos_refused=self.demos_refused,
            actions=self.actions,
            end=self.end,
        )
