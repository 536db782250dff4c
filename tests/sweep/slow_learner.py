"""A toy rule learner that takes its time at the end of each round, so a test can kill it mid-play.

Importable by worker processes as ``slow_learner:SlowToyRule`` when this directory is on their
path; ``pause`` changes nothing it does but how long it takes.
"""

from __future__ import annotations

import time

from continual_arc.testing import ToyRuleLearner


class SlowToyRule(ToyRuleLearner):
    """``ToyRuleLearner``, sleeping ``pause`` seconds in every ``end_round``."""

    def __init__(self, keep: bool = True, pause: float = 0.0) -> None:
        super().__init__(keep)
        self.pause = pause

    def end_round(self) -> None:
        time.sleep(self.pause)
        super().end_round()


class BrokenAfterLearning(ToyRuleLearner):
    """Stops its run (a fault in ``end_round``) once it keeps a rule: its stream fails, its resets do not."""

    def end_round(self) -> None:
        if self.rules:
            raise RuntimeError("broken on purpose")
        super().end_round()
