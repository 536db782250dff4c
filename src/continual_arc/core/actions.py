"""What a learner and a grid instance say to each other: actions, feedback and the observation.

A learner answers each [`LearnerObservation`][continual_arc.core.actions.LearnerObservation] with one of three
actions: ``Submit(grid)``, ``RequestDemos()`` or ``GiveUp()``. The environment answers each with a feedback
([`SubmitFeedback`][continual_arc.core.actions.SubmitFeedback],
[`DemosFeedback`][continual_arc.core.actions.DemosFeedback],
[`GiveUpFeedback`][continual_arc.core.actions.GiveUpFeedback]); what each costs is
[`continual_arc.tracks.grid_env.GridEnv`][continual_arc.tracks.grid_env.GridEnv]'s contract. The functions at
the end turn them into the JSON a trajectory keeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

from .grids import Grid, InvalidGridError, Pair, grid_json, validate_grid
from .records import JSONObject, JSONValue

__all__ = [
    "Action",
    "DemosFeedback",
    "Feedback",
    "GiveUp",
    "GiveUpFeedback",
    "LearnerObservation",
    "RequestDemos",
    "Submit",
    "SubmitFeedback",
    "action_from_json",
    "action_to_json",
    "feedback_to_json",
    "is_action",
    "observation_to_json",
]


@dataclass(frozen=True)
class Submit:
    """Submit an answer grid for the instance's test input."""

    grid: Sequence[Sequence[int]]  # what the learner answers; validated when applied (step)


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
    extra: Mapping[str, JSONValue] = field(default_factory=lambda: MappingProxyType({}))


def action_to_json(action: object) -> JSONObject:
    """An action as JSON (a submitted grid as nested lists, or its ``repr`` if it is not a grid)."""
    if isinstance(action, Submit):
        try:
            grid: JSONValue = grid_json(validate_grid(action.grid))
        except InvalidGridError:
            grid = repr(action.grid)[:2000]
        return {"action": "submit", "grid": grid}
    if isinstance(action, RequestDemos):
        return {"action": "request_demos"}
    if isinstance(action, GiveUp):
        return {"action": "give_up"}
    return {"action": "invalid", "repr": repr(action)[:2000]}


def feedback_to_json(feedback: Feedback) -> JSONObject:
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
        pair = None if feedback.pair is None else [grid_json(feedback.pair[0]), grid_json(feedback.pair[1])]
        return {
            "feedback": "demos",
            "pair": pair,
            "demos_used": feedback.demos_used,
            "spent": feedback.spent,
            "refused": feedback.refused,
            "done": feedback.done,
        }
    return {"feedback": "give_up", "done": True}


def action_from_json(value: Mapping[str, JSONValue]) -> Action:
    """The action [`action_to_json`][continual_arc.core.actions.action_to_json] wrote.

    A grid that was not valid comes back as its text, which is just as invalid.

    Raises:
        ValueError: the JSON names no action.
    """
    kind = value.get("action")
    if kind == "submit":
        return Submit(cast(Sequence[Sequence[int]], value.get("grid")))  # as written; validated when applied
    if kind == "request_demos":
        return RequestDemos()
    if kind == "give_up":
        return GiveUp()
    raise ValueError(f"not an action: {dict(value)!r}")


def is_action(value: object) -> bool:
    """Whether ``value`` is one of the three actions."""
    return isinstance(value, Submit | RequestDemos | GiveUp)


def observation_to_json(obs: LearnerObservation) -> JSONObject:
    """An observation's counters and place as JSON (its grids are the instance's and its demonstrations')."""
    return {
        "attempts_used": obs.attempts_used,
        "demos_used": obs.demos_used,
        "step": obs.step,
        "round": obs.round,
        "user": obs.user,
        "extra": dict(obs.extra),
    }
