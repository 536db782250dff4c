"""The environment of a grid instance (arc1, arc2): three actions, binary feedback, and its cost.

The whole contract is [`GridEnv.step`][continual_arc.tracks.grid_env.GridEnv.step]'s docstring. In short, with
the default [`EnvSettings`][continual_arc.core.rules.EnvSettings] (``attempt_cap = 8``,
``demo_cap = 8``, ``demo_cost = 1``):

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
demo_cap`` (16), so failing is never cheaper than asking.

A submitted grid that is not a valid ARC grid (ragged, empty, over 30 x 30, a colour outside 0-9)
is answered incorrect with the reason in ``SubmitFeedback.invalid`` and costs a wrong attempt: it
never crashes the run and is never free. A refused demonstration request is free, but every action
counts toward ``action_cap`` (64): a learner that keeps asking past the cap ends the instance
unsolved rather than looping forever.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from typing_extensions import TypeIs

from ..core.actions import (
    Action,
    DemosFeedback,
    Feedback,
    GiveUp,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
    action_from_json,
    action_to_json,
    feedback_to_json,
    is_action,
    observation_to_json,
)
from ..core.environment import BaseEnvironment, EnvSettings
from ..core.grids import InvalidGridError, Pair, grid_json, validate_grid
from ..core.records import JSONObject, JSONValue
from .sources import TaskInstance

__all__ = ["GridEnv"]


class GridEnv(BaseEnvironment[Submit, Pair, SubmitFeedback | DemosFeedback]):
    """One grid instance being played: its state, its rules and its charge (an `Environment`).

    Its counters, its end and its charge are kept by
    [`BaseEnvironment`][continual_arc.core.environment.BaseEnvironment].

    Args:
        instance: the instance (test pair and demonstration supply).
        settings: the environment's rules.
    """

    action_names = "Submit, RequestDemos or GiveUp"

    def __init__(self, instance: TaskInstance, settings: EnvSettings | None = None) -> None:
        self.instance = instance
        super().__init__(settings, instance.demo_cap)

    def view(
        self, alias: str, step: int, round: int, user: int, extra: Mapping[str, JSONValue] | None = None
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

    def step(self, action: object) -> Feedback:
        """Apply one action and return its feedback.

        * ``Submit(grid)``: the grid is validated; an invalid one is a wrong attempt with the
          reason in ``invalid``. A correct grid ends the instance solved. A wrong one uses an
          attempt (cost 1); the ``attempt_cap``-th wrong attempt ends the instance unsolved.
          Returns [`SubmitFeedback`][continual_arc.core.actions.SubmitFeedback].
        * ``RequestDemos()``: below the instance's demonstration cap, returns the next
          demonstration pair at ``demo_cost``; at the cap, the request is refused at no cost.
          Returns [`DemosFeedback`][continual_arc.core.actions.DemosFeedback].
        * ``GiveUp()``: ends the instance unsolved. Returns `GiveUpFeedback`.

        Whatever the action, the ``action_cap``-th action that leaves the instance open ends it
        unsolved (``done`` is then true in the feedback). An unsolved instance is charged
        ``max_cost``; a solved one what it spent.

        Raises:
            InvalidActionError: ``action`` is not one of the three actions.
            InstanceClosedError: the instance has already ended.
        """
        return super().step(action)

    def _act(self, action: Submit) -> SubmitFeedback:
        return self._submit(action.grid)

    def _demonstration(self, index: int) -> Pair:
        return self.instance.demonstration(index)

    def _demos_feedback(self, demo: Pair | None, refused: bool) -> DemosFeedback:
        return DemosFeedback(demo, len(self.demos), self.spent, refused)

    def _submit(self, value: object) -> SubmitFeedback:
        invalid: str | None = None
        try:
            correct = validate_grid(value) == self.instance.output
        except InvalidGridError as err:
            invalid, correct = str(err), False
        if correct:
            self.tally.solve()
        else:
            self.tally.fail_attempt()
        return SubmitFeedback(correct, self.attempts_used, self.spent, self.done, invalid)

    def accepts(self, value: object) -> TypeIs[Submit | RequestDemos | GiveUp]:
        """Whether ``value`` is one of the three actions."""
        return is_action(value)

    def opening(self) -> JSONObject:
        """The trajectory's opening: the test input and the demonstration cap."""
        return {"input": grid_json(self.instance.input), "demo_cap": self.demo_cap}

    def action_json(self, action: object) -> JSONObject:
        """An action as JSON (see [`action_to_json`][continual_arc.core.actions.action_to_json])."""
        return action_to_json(action)

    def action_from_json(self, value: Mapping[str, JSONValue]) -> Action:
        """The action `action_json` wrote (`action_from_json`)."""
        return action_from_json(value)

    def feedback_json(self, feedback: Feedback) -> JSONObject:
        """A feedback as JSON (see [`feedback_to_json`][continual_arc.core.actions.feedback_to_json])."""
        return feedback_to_json(feedback)

    def observation_json(self, obs: LearnerObservation) -> JSONObject:
        """An observation's counters as JSON (`observation_to_json`)."""
        return observation_to_json(obs)
