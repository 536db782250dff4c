"""Toy learners with a teacher, for the tests of how a teacher is recorded, checked and verified.

Neither calls a model: each counts one teacher call of ten prompt tokens for every instance it
plays, so a test knows every counter without a server. ``TaughtToy`` is a learner with a teacher (it
only "labels" what it met); ``UnchargedToy``'s teacher "plays" each instance first with nothing
charged, as the rows QT, QTE and QETE do, so its runs are experiments. Used with
``PYTHONPATH=tests/learners``: ``taught_learner:TaughtToy``, ``taught_learner:UnchargedToy``;
``taught_learner:RehearsedToy`` asks the runner for an uncharged copy of each instance, as QT does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from continual_arc.core.actions import Action, Feedback, LearnerObservation
from continual_arc.learner import UnchargedCopy
from continual_arc.testing import ToyRuleLearner

TEACHER = "z-ai/glm-5.3-flash"
"""The teacher both name unless told another."""


class TaughtToy(ToyRuleLearner):
    """The toy rule learner, counting one teacher call for each instance it opens."""

    uncharged = False

    def __init__(self, teacher: str = TEACHER) -> None:
        super().__init__()
        self.teacher = teacher
        self.opened = 0
        self._seen: set[int] = set()

    def act(self, obs: LearnerObservation) -> Action:
        """The toy learner's action; an instance's first also counts the teacher's call."""
        if obs.step not in self._seen:
            self._seen.add(obs.step)
            self.opened += 1
        return super().act(obs)

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """The toy learner's notes."""
        super().observe(obs, action, feedback)

    def teacher_resources(self) -> Mapping[str, float]:
        """One call, ten prompt tokens and a thousandth of a dollar for each instance opened."""
        return {
            "calls": float(self.opened),
            "prompt_tokens": 10.0 * self.opened,
            "cost": 0.001 * self.opened,
            "uncharged_plays": float(self.opened) if self.uncharged else 0.0,
        }


class UnchargedToy(TaughtToy):
    """The same, its teacher playing every instance first with nothing charged: an experiment."""

    uncharged = True


class RehearsedToy(TaughtToy):
    """The toy learner whose teacher asks the runner for an uncharged copy of each instance first."""

    def teacher_play(self, copy: UnchargedCopy[Any, Any, Any]) -> None:
        """Look at the copy and leave it: the runner marks the instance an experiment all the same."""
        copy.view()
