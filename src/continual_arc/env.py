"""The environment: one instance at a time, three actions, binary feedback, and its cost.

The whole contract is :meth:`InstanceEnv.step`'s docstring. In short, with the default
:class:`EnvSettings` (``attempt_cap = 8``, ``demo_cap = 8``, ``demo_cost = 1``):

============================  ==========================================================  ==============
action                        effect                                                       cost
============================  ==========================================================  ==============
``Submit(grid)``              correct: the instance ends solved; wrong: one attempt used    1 if wrong
``RequestDemos()``            one more demonstration pair, up to the instance's cap; past   ``demo_cost``
                              it the request is refused                                     (0 if refused)
``GiveUp()``                  the instance ends unsolved                                    the rest, up to
                                                                                            ``max_cost``
============================  ==========================================================  ==============

An instance that ends solved is charged what it spent: its wrong attempts and ``demo_cost`` per
demonstration bought. An instance that ends unsolved, however (the attempt cap reached, given up,
the action cap, a learner fault or time limit), is charged ``max_cost = attempt_cap + demo_cost *
demo_cap`` (16), so failing is never cheaper than asking. The budget used over a set of instances
is ``100 * mean_charge / max_cost``.

A submitted grid that is not a valid ARC grid (ragged, empty, over 30 x 30, a colour outside 0-9)
is answered incorrect with the reason in :attr:`SubmitFeedback.invalid` and costs a wrong attempt:
it never crashes the run and is never free. A refused demonstration request is free, but every
action counts toward ``action_cap`` (64): a learner that keeps asking past the cap ends the
instance unsolved rather than looping forever.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any

from .grids import Grid, InvalidGridError, Pair, to_json, validate_grid
from .tasks import TaskInstance

__all__ = [
    "Action",
    "DemosFeedback",
    "EnvSettings",
    "Feedback",
    "GiveUp",
    "GiveUpFeedback",
    "InstanceClosedError",
    "InstanceEnv",
    "InstanceResult",
    "InvalidActionError",
    "LearnerObservation",
    "RequestDemos",
    "Submit",
    "SubmitFeedback",
    "action_to_json",
    "feedback_to_json",
]


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
    def from_dict(cls, value: Mapping[str, Any]) -> EnvSettings:
        """Settings from :meth:`to_dict`'s form (``max_cost`` is derived, so ignored)."""
        return cls(**{k: int(v) for k, v in value.items() if k != "max_cost"})

    def deviations(self) -> list[str]:
        """Each setting that differs from the benchmark's, in words."""
        default = EnvSettings()
        return [
            f"{name} = {getattr(self, name)} (canonical {getattr(default, name)})"
            for name in ("attempt_cap", "demo_cap", "demo_cost", "action_cap")
            if getattr(self, name) != getattr(default, name)
        ]


@dataclass(frozen=True)
class Submit:
    """Submit an answer grid for the instance's test input."""

    grid: Any


@dataclass(frozen=True)
class RequestDemos:
    """Ask for one more demonstration pair of the task."""


@dataclass(frozen=True)
class GiveUp:
    """End the instance unsolved."""


Action = Submit | RequestDemos | GiveUp
"""The three actions."""


@dataclass(frozen=True)
class SubmitFeedback:
    """The verdict on a submission.

    Attributes:
        correct: whether the grid equals the instance's answer.
        attempts_used: wrong attempts so far on this instance, this one included.
        spent: wrong attempts and demonstrations so far, in cost units.
        done: whether the instance has ended (solved, or the attempt cap reached).
        invalid: why the grid was not a valid ARC grid, or ``None``.
    """

    correct: bool
    attempts_used: int
    spent: int
    done: bool
    invalid: str | None = None


@dataclass(frozen=True)
class DemosFeedback:
    """The answer to a demonstration request.

    Attributes:
        pair: the demonstration (input, output), or ``None`` when refused.
        demos_used: demonstrations bought so far on this instance.
        spent: wrong attempts and demonstrations so far, in cost units.
        refused: whether the request was refused (the instance's cap reached), at no cost.
        done: whether the instance has ended (only when the action cap is reached).
    """

    pair: Pair | None
    demos_used: int
    spent: int
    refused: bool = False
    done: bool = False


@dataclass(frozen=True)
class GiveUpFeedback:
    """The instance has ended unsolved."""

    done: bool = True


Feedback = SubmitFeedback | DemosFeedback | GiveUpFeedback
"""The three kinds of feedback."""


@dataclass(frozen=True)
class LearnerObservation:
    """Everything a learner is shown of an instance, and nothing about the schedule.

    Attributes:
        task_id: the task's name in this run (an alias of the real id).
        input: the test input.
        attempts_used: wrong attempts so far.
        attempt_cap: wrong attempts allowed.
        demos_used: demonstrations bought so far.
        demo_cap: demonstrations this instance offers.
        demos: the demonstrations bought so far, in order.
        step: the instance's index in the run.
        round: the round's index in the run.
        user: whose instance it is (0 with one user).
        extra: fields added by plug-ins (empty unless a plug-in adds one).
    """

    task_id: str
    input: Grid
    attempts_used: int
    attempt_cap: int
    demos_used: int
    demo_cap: int
    demos: tuple[Pair, ...]
    step: int
    round: int
    user: int
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class InstanceResult:
    """How an instance ended.

    Attributes:
        solved: whether a correct grid was submitted.
        charge: the cost charged: what it spent if solved, else ``max_cost``.
        spent: wrong attempts plus demonstrations bought, in cost units.
        wrong_attempts: incorrect submissions (invalid grids included).
        demos_bought: demonstrations bought.
        demos_refused: demonstration requests refused at no cost.
        actions: actions taken.
        end: why it ended: ``solved``, ``attempt cap``, ``gave up``, ``action cap``, or a fault.
    """

    solved: bool
    charge: int
    spent: int
    wrong_attempts: int
    demos_bought: int
    demos_refused: int
    actions: int
    end: str


class InvalidActionError(TypeError):
    """The learner returned something that is not one of the three actions."""


class InstanceClosedError(RuntimeError):
    """An action on an instance that has already ended."""


class InstanceEnv:
    """One instance being played: its state, its rules and its charge.

    Args:
        instance: the instance (test pair and demonstration supply).
        settings: the environment's rules.
    """

    def __init__(self, instance: TaskInstance, settings: EnvSettings | None = None) -> None:
        self.instance = instance
        self.settings = settings or EnvSettings()
        self.demo_cap = min(instance.demo_cap, self.settings.demo_cap)
        self.attempts_used = 0
        self.demos: list[Pair] = []
        self.demos_refused = 0
        self.actions = 0
        self.end: str | None = None

    @property
    def done(self) -> bool:
        """Whether the instance has ended."""
        return self.end is not None

    @property
    def spent(self) -> int:
        """Wrong attempts plus demonstrations bought so far, in cost units."""
        return self.attempts_used + self.settings.demo_cost * len(self.demos)

    def view(
        self, alias: str, step: int, round: int, user: int, extra: Mapping[str, Any] | None = None
    ) -> LearnerObservation:
        """The learner's view of the instance as it stands."""
        return LearnerObservation(
            task_id=alias,
            input=self.instance.input,
            attempts_used=self.attempts_used,
            attempt_cap=self.settings.attempt_cap,
            demos_used=len(self.demos),
            demo_cap=self.demo_cap,
            demos=tuple(self.demos),
            step=step,
            round=round,
            user=user,
            extra=MappingProxyType(dict(extra or {})),
        )

    def step(self, action: Action) -> Feedback:
        """Apply one action and return its feedback.

        * ``Submit(grid)``: the grid is validated; an invalid one is a wrong attempt with the
          reason in ``invalid``. A correct grid ends the instance solved. A wrong one uses an
          attempt (cost 1); the ``attempt_cap``-th wrong attempt ends the instance unsolved.
          Returns :class:`SubmitFeedback`.
        * ``RequestDemos()``: below the instance's demonstration cap, returns the next
          demonstration pair at ``demo_cost``; at the cap, the request is refused at no cost.
          Returns :class:`DemosFeedback`.
        * ``GiveUp()``: ends the instance unsolved. Returns :class:`GiveUpFeedback`.

        Whatever the action, the ``action_cap``-th action that leaves the instance open ends it
        unsolved (``done`` is then true in the feedback). An unsolved instance is charged
        ``max_cost``; a solved one what it spent.

        Raises:
            InvalidActionError: ``action`` is not one of the three actions.
            InstanceClosedError: the instance has already ended.
        """
        if self.done:
            raise InstanceClosedError("the instance has already ended")
        if not isinstance(action, Submit | RequestDemos | GiveUp):
            raise InvalidActionError(f"expected Submit, RequestDemos or GiveUp, got {type(action).__name__}")
        self.actions += 1
        feedback = self._apply(action)
        if not self.done and self.actions >= self.settings.action_cap:
            self.end = "action cap"
            feedback = _mark_done(feedback)
        return feedback

    def _apply(self, action: Action) -> Feedback:
        if isinstance(action, GiveUp):
            self.end = "gave up"
            return GiveUpFeedback()
        if isinstance(action, RequestDemos):
            if len(self.demos) >= self.demo_cap:
                self.demos_refused += 1
                return DemosFeedback(None, len(self.demos), self.spent, refused=True)
            self.demos.append(self.instance.demonstration(len(self.demos)))
            return DemosFeedback(self.demos[-1], len(self.demos), self.spent)
        return self._submit(action.grid)

    def _submit(self, value: Any) -> SubmitFeedback:
        invalid: str | None = None
        try:
            correct = validate_grid(value) == self.instance.output
        except InvalidGridError as err:
            invalid, correct = str(err), False
        if correct:
            self.end = "solved"
        else:
            self.attempts_used += 1
            if self.attempts_used >= self.settings.attempt_cap:
                self.end = "attempt cap"
        return SubmitFeedback(correct, self.attempts_used, self.spent, self.done, invalid)

    def fail(self, reason: str) -> None:
        """End the instance unsolved for a reason outside the rules (a learner fault, a time limit)."""
        if not self.done:
            self.end = reason

    def result(self) -> InstanceResult:
        """How the instance ended.

        Raises:
            InstanceClosedError: the instance has not ended yet.
        """
        if self.end is None:
            raise InstanceClosedError("the instance has not ended")
        solved = self.end == "solved"
        return InstanceResult(
            solved=solved,
            charge=self.spent if solved else self.settings.max_cost,
            spent=self.spent,
            wrong_attempts=self.attempts_used,
            demos_bought=len(self.demos),
            demos_refused=self.demos_refused,
            actions=self.actions,
            end=self.end,
        )


def _mark_done(feedback: Feedback) -> Feedback:
    if isinstance(feedback, SubmitFeedback):
        return SubmitFeedback(
            feedback.correct, feedback.attempts_used, feedback.spent, True, feedback.invalid
        )
    if isinstance(feedback, DemosFeedback):
        return DemosFeedback(feedback.pair, feedback.demos_used, feedback.spent, feedback.refused, True)
    return feedback


def action_to_json(action: Any) -> dict[str, Any]:
    """An action as JSON (a submitted grid as nested lists, or its ``repr`` if it is not a grid)."""
    if isinstance(action, Submit):
        try:
            grid: Any = to_json(validate_grid(action.grid))
        except InvalidGridError:
            grid = repr(action.grid)[:2000]
        return {"action": "submit", "grid": grid}
    if isinstance(action, RequestDemos):
        return {"action": "request_demos"}
    if isinstance(action, GiveUp):
        return {"action": "give_up"}
    return {"action": "invalid", "repr": repr(action)[:2000]}


def feedback_to_json(feedback: Feedback) -> dict[str, Any]:
    """A feedback as JSON (a demonstration's grids as nested lists)."""
    # Built by hand: dataclasses.asdict deep-copies every grid, which dominated the runner's time.
    if isinstance(feedback, SubmitFeedback):
        return {
            "feedback": "submit",
            "correct": feedback.correct,
            "attempts_used": feedback.attempts_used,
            "spent": feedback.spent,
            "done": feedback.done,
            "invalid": feedback.invalid,
        }
    if isinstance(feedback, DemosFeedback):
        pair = None if feedback.pair is None else [to_json(feedback.pair[0]), to_json(feedback.pair[1])]
        return {
            "feedback": "demos",
            "pair": pair,
            "demos_used": feedback.demos_used,
            "spent": feedback.spent,
            "refused": feedback.refused,
            "done": feedback.done,
        }
    return {"feedback": "give_up", "done": True}
