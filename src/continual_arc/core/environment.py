"""The environment's rules, how an instance ends, and the protocol every kind of instance implements.

One instance is played through an [`Environment`][continual_arc.core.environment.Environment]: the runner asks
it for the learner's view, applies the learner's actions, and reads how the instance ended. A grid instance
(arc1, arc2) and a game level (arc3) implement the same protocol, so the runner, the records and the measures
never need to know which kind they serve. The cost rules are shared by every kind: an instance that ends
solved is charged what it spent, an unsolved one ``max_cost = attempt_cap + demo_cost * demo_cap``
(16 by default), and the budget used over instances is ``100 * mean_charge / max_cost``.
[`BaseEnvironment`][continual_arc.core.environment.BaseEnvironment] keeps that shared bookkeeping, so each
kind writes only its own actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from typing_extensions import TypeIs

from .actions import GiveUp, GiveUpFeedback, RequestDemos
from .records import JSONObject, JSONValue
from .rules import EnvSettings, InstanceClosedError, InstanceResult, Tally

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "AnyEnvironment",
    "BaseEnvironment",
    "EnvSettings",
    "Environment",
    "InstanceClosedError",
    "InstanceResult",
    "InvalidActionError",
    "Tally",
]


class InvalidActionError(TypeError):
    """The learner returned something that is not one of the environment's actions."""


ObsT = TypeVar("ObsT")
"""What a learner is shown: a `LearnerObservation`, a `GameObservation`."""

ActionT = TypeVar("ActionT")
"""Every action a learner may take on the kind: `Action`, `GameMove`."""

ReplyT = TypeVar("ReplyT")
"""Every feedback the kind gives: `Feedback`, `GameReply`."""


@runtime_checkable
class Environment(Protocol[ObsT, ActionT, ReplyT]):
    """One instance being played, whatever its kind (a grid, a game level), typed by what it shows and takes.

    ``Environment[LearnerObservation, Action, Feedback]`` is a grid instance's,
    ``Environment[GameObservation, GameMove, GameReply]`` a game level's.

    Attributes:
        settings: the rules it is played under.
        action_names: its actions in words, for messages (``"Submit, RequestDemos or GiveUp"``).
    """

    settings: EnvSettings
    action_names: str

    @property
    def done(self) -> bool:
        """Whether the instance has ended."""
        ...

    def view(
        self, alias: str, step: int, round: int, user: int, extra: Mapping[str, JSONValue] | None = None
    ) -> ObsT:
        """The learner's observation of the instance as it stands, under the task's alias."""
        ...

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is one of this environment's actions."""
        ...

    def step(self, action: ActionT) -> ReplyT:
        """Apply one action and return its feedback.

        Raises:
            InvalidActionError: ``action`` is not one of the environment's actions.
            InstanceClosedError: the instance has already ended.
        """
        ...

    def fail(self, reason: str) -> None:
        """End the instance unsolved for a reason outside the rules (a learner fault, a time limit)."""
        ...

    def result(self) -> InstanceResult:
        """How the instance ended.

        Raises:
            InstanceClosedError: the instance has not ended yet.
        """
        ...

    def opening(self) -> JSONObject:
        """What the instance's trajectory opens with, as JSON (its input, its demonstration cap, ...)."""
        ...

    def action_json(self, action: object) -> JSONObject:
        """An action (or anything the learner returned instead) as JSON for the trajectory."""
        ...

    def action_from_json(self, value: Mapping[str, JSONValue]) -> ActionT:
        """The action `action_json` wrote, for replaying a trajectory.

        Raises:
            ValueError: the JSON names no action of this environment.
        """
        ...

    def feedback_json(self, feedback: ReplyT) -> JSONObject:
        """A feedback as JSON for the trajectory."""
        ...

    def observation_json(self, obs: ObsT) -> JSONObject:
        """The counters of an observation as JSON for the trajectory (not the grids it repeats)."""
        ...


AnyEnvironment = Environment[Any, Any, Any]
"""An environment of either kind, where the kind is chosen at run time by the track (a session, a replay)."""


ActT = TypeVar("ActT")
"""The kind's own action: a submission, a game action (not a demonstration request or a give-up)."""

DemoT = TypeVar("DemoT")
"""The kind's demonstration: a grid pair, a game demonstration."""

FeedbackT = TypeVar("FeedbackT", bound="DataclassInstance")
"""The kind's feedback to its own actions and to demonstration requests (a dataclass with ``done``)."""


class BaseEnvironment(ABC, Generic[ActT, DemoT, FeedbackT]):
    """The bookkeeping every kind of instance shares: its counters, its end, its charge, its result.

    A convenience for writing an [`Environment`][continual_arc.core.environment.Environment], not a
    requirement. The base counts the actions, refuses the closed instance and what is not an action, answers a
    give-up and a demonstration request (bought below ``demo_cap``, refused at no cost at it), ends the
    instance at its ``action_cap``-th action, and charges it: what it spent if solved, else ``max_cost``.
    A subclass plays its own actions (`_act`), ending the instance through its ``tally``
    ([`solve`][continual_arc.core.rules.Tally.solve],
    [`fail_attempt`][continual_arc.core.rules.Tally.fail_attempt]; setting ``end`` and ``attempts_used`` still
    works), and serves its demonstrations.

    Args:
        settings: the rules (the benchmark's when ``None``).
        demo_cap: the demonstrations the instance itself offers (the settings' cap applies too).

    Attributes:
        settings: the rules the instance is played under.
        demo_cap: the demonstrations this instance offers.
        action_cap: the most actions on the instance (the settings' unless a subclass widens it).
        attempts_used: failed attempts so far.
        demos: the demonstrations bought so far, in order.
        demos_refused: demonstration requests refused so far.
        actions: actions taken so far.
        end: why the instance ended, or ``None`` while it is open.
    """

    action_names: str
    """The kind's actions in words, for messages."""

    def __init__(self, settings: EnvSettings | None, demo_cap: int) -> None:
        self.settings = settings or EnvSettings()
        self.demo_cap = min(demo_cap, self.settings.demo_cap)
        self.tally = Tally(self.settings)
        self.demos: list[DemoT] = []

    @property
    def action_cap(self) -> int:
        """The most actions on the instance (the settings' unless a subclass widens it)."""
        return self.tally.action_cap

    @action_cap.setter
    def action_cap(self, value: int) -> None:
        self.tally.action_cap = value

    @property
    def attempts_used(self) -> int:
        """Failed attempts so far (a subclass may count them itself, as before the tally)."""
        return self.tally.attempts_used

    @attempts_used.setter
    def attempts_used(self, value: int) -> None:
        self.tally.attempts_used = value

    @property
    def demos_refused(self) -> int:
        """Demonstration requests refused so far."""
        return self.tally.demos_refused

    @property
    def actions(self) -> int:
        """Actions taken so far."""
        return self.tally.actions

    @property
    def end(self) -> str | None:
        """Why the instance ended (an `End`), or ``None`` while it is open."""
        return self.tally.end

    @end.setter
    def end(self, value: str | None) -> None:
        self.tally.end = value

    @property
    def done(self) -> bool:
        """Whether the instance has ended."""
        return self.tally.done

    @property
    def spent(self) -> int:
        """Failed attempts plus demonstrations bought so far, in cost units."""
        return self.tally.spent

    @abstractmethod
    def accepts(self, value: object) -> TypeIs[ActT | RequestDemos | GiveUp]:
        """Whether ``value`` is one of this kind's actions, a demonstration request or a give-up."""

    @abstractmethod
    def _act(self, action: ActT) -> FeedbackT:
        """Play one of the kind's own actions (neither a demonstration request nor a give-up)."""

    @abstractmethod
    def _demonstration(self, index: int) -> DemoT:
        """The instance's ``index``-th demonstration."""

    @abstractmethod
    def _demos_feedback(self, demo: DemoT | None, refused: bool) -> FeedbackT:
        """The answer to a demonstration request: ``demo`` bought, or ``None`` when ``refused``."""

    def step(self, action: object) -> FeedbackT | GiveUpFeedback:
        """Apply one action and return its feedback (each subclass states its whole contract).

        The instance's ``action_cap``-th action that leaves it open ends it (``End.ACTION_CAP``),
        and its feedback then says ``done``.

        Raises:
            InvalidActionError: ``action`` is not one of the environment's actions.
            InstanceClosedError: the instance has already ended.
        """
        if self.done:
            raise InstanceClosedError("the instance has already ended")
        if not self.accepts(action):
            raise InvalidActionError(f"expected {self.action_names}, got {type(action).__name__}")
        feedback = self._apply(action)
        if self.tally.count_action():
            # A give-up has ended the instance already, so only the kind's own feedback gets here.
            feedback = replace(feedback, done=True)
        return feedback

    def _apply(self, action: ActT | RequestDemos | GiveUp) -> FeedbackT | GiveUpFeedback:
        if isinstance(action, GiveUp):
            self.tally.give_up()
            return GiveUpFeedback()
        if isinstance(action, RequestDemos):
            refused = len(self.demos) >= self.demo_cap
            self.tally.demo(refused=refused)
            if refused:
                return self._demos_feedback(None, refused=True)
            self.demos.append(self._demonstration(len(self.demos)))
            return self._demos_feedback(self.demos[-1], refused=False)
        return self._act(action)  # one of the kind's own: accepts() said so (step)

    def fail(self, reason: str) -> None:
        """End the instance unsolved for a reason outside the rules (a learner fault, a time limit)."""
        self.tally.fail(reason)

    def result(self) -> InstanceResult:
        """How the instance ended.

        Raises:
            InstanceClosedError: the instance has not ended yet.
        """
        return self.tally.result()
