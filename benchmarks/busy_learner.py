"""A learner that keeps a core busy for a fixed amount of work per action, for benchmarks/sweep.py.

Importable as ``busy_learner:Busy`` by worker processes that have this directory on their path.
"""

from __future__ import annotations

from continual_arc.env import Action, GiveUp, LearnerObservation, RequestDemos
from continual_arc.learner import BaseLearner


class Busy(BaseLearner):
    """Buys two demonstrations and gives up, spinning ``work`` loop steps before each action."""

    stateless = True

    def __init__(self, work: int = 200_000) -> None:
        self.work = work

    def act(self, obs: LearnerObservation) -> Action:
        total = 0
        for i in range(self.work):
            total += i * i % 7
        return RequestDemos() if obs.demos_used < 2 and total >= 0 else GiveUp()
