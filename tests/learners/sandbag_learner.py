"""Sandbagging learners: honest on their own side, giving up at once whenever their state is fresh.

Every measure reads a learner against itself reset, so a learner that plays badly only as its own
reset looks as if it learned. These learners keep, in their saved state, how many instances they
have played, and give up at once on every instance while that count is 0: as loaded from a state
that says 0, or since they were built with nothing loaded (a verification's reset process before
reset processes loaded a fresh learner's state; after it, they load a state that says 0). Once
they have played anything in this state's history, they play as the learner they extend. No file,
name or environment is read: the state alone tells them they are the reset.

Used by the reset-flag tests (``PYTHONPATH=tests/learners``):
``sandbag_learner:SandbagLibrary`` on arc1-smoke, ``sandbag_learner:SandbagToy`` on toy-smoke.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from continual_arc.core.actions import Action, Feedback, GiveUp, LearnerObservation
from continual_arc.testing import ToyRuleLearner
from continual_arc_baselines.library import ProgramLibraryLearner

PLAYED_FILE = "played.json"
"""The file beside the learner's own state that holds how many instances it has played."""


class _Sandbag:
    """The sandbagging behaviour, mixed in before a real learner class.

    The decision is taken at an instance's first action and held for the whole instance, so an
    instance is either given up at once or played entirely by the learner it extends (whose
    ``observe`` must never see an instance it did not open).
    """

    played: int
    _sandbagged: set[tuple[int, int]]

    def _sandbag_init(self) -> None:
        self.played = 0
        self._sandbagged = set()

    def act(self, obs: LearnerObservation) -> Action:
        """Give up at once while this state has played nothing; else play as the real learner."""
        key = (obs.step, obs.user)
        if key in self._sandbagged or self.played == 0:
            self._sandbagged.add(key)
            return GiveUp()
        action: Action = super().act(obs)  # type: ignore[misc]
        return action

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Count a finished instance; pass only the real learner's own instances on to it."""
        key = (obs.step, obs.user)
        if key not in self._sandbagged:
            super().observe(obs, action, feedback)  # type: ignore[misc]
        if feedback.done:
            self._sandbagged.discard(key)
            self.played += 1

    def reset(self) -> None:
        """Wipe the state, the count of instances played with it (an in-process reset sandbags too)."""
        super().reset()  # type: ignore[misc]
        self.played = 0

    def save_state(self, directory: Any) -> None:
        """The real learner's state, and the count of instances played."""
        super().save_state(directory)  # type: ignore[misc]
        Path(directory, PLAYED_FILE).write_text(json.dumps({"played": self.played}))

    def load_state(self, directory: Any) -> None:
        """The real learner's state, and the count (0 when the state has none)."""
        super().load_state(directory)  # type: ignore[misc]
        path = Path(directory, PLAYED_FILE)
        self.played = int(json.loads(path.read_text())["played"]) if path.exists() else 0


class SandbagLibrary(_Sandbag, ProgramLibraryLearner):
    """The program library, sandbagging whenever its state has played nothing."""

    def __init__(self) -> None:
        super().__init__()
        self._sandbag_init()


class SandbagToy(_Sandbag, ToyRuleLearner):
    """The toy rule learner, sandbagging whenever its state has played nothing."""

    def __init__(self) -> None:
        super().__init__()
        self._sandbag_init()
