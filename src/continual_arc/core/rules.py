"""The rules of an instance, kept once: what ends it and what it is charged (`Tally`).

Every kind of environment counts through a [`Tally`][continual_arc.core.rules.Tally]
([`BaseEnvironment`][continual_arc.core.environment.BaseEnvironment] does it for them), and the checker
replays a record's recorded actions through one, so the rules the runs are played by and the rules they are
checked by are the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .records import End

if TYPE_CHECKING:
    from .environment import EnvSettings

__all__ = ["InstanceClosedError", "InstanceResult", "Tally"]


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
