"""Learners whose reset dodges the give-up and first-sight flags: the floor flag must catch them.

Both play as the program library on their own side and worse only as their own reset, which they
tell from their state alone (no file, name or environment is read):

* ``dodging_learners:GiveUpDodger`` gives up at once on every instance of a task its state has not
  met, and plays as the library otherwise. It therefore never solves at first sight (so the
  give-up flag, which needs a first-sight solve, stays silent) and its reset, whose state has met
  nothing, gives up on every instance.
* ``dodging_learners:HandicapDodger`` plays as the library, except while its state has played
  nothing (every reset instance): then it gives up at once on about half the instances, those
  whose test input hashes to an even number, and plays the rest honestly. Its own numbers are the
  library's (but for the stream's very first instance).

Used by the floor-flag tests (``PYTHONPATH=tests/learners``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from continual_arc.core.actions import Action, Feedback, GiveUp, LearnerObservation
from continual_arc_baselines.library import ProgramLibraryLearner

DODGE_FILE = "dodge.json"
"""The file beside the library's own state that holds what the dodger keeps of its own."""


def handicapped(obs: LearnerObservation) -> bool:
    """Whether the handicapped reset fails this instance: its test input's hash is even."""
    return hashlib.sha256(str(obs.input).encode()).digest()[0] % 2 == 0


class _Dodger(ProgramLibraryLearner):
    """The library with a decision, taken at an instance's first action, to give up on it at once.

    An instance given up is never passed to the library (whose ``observe`` must see only the
    instances it opened); the decision holds for the whole instance.
    """

    def __init__(self) -> None:
        super().__init__()
        self.met: set[str] = set()
        self.played = 0
        self._dodged: set[tuple[int, int]] = set()

    def dodge(self, obs: LearnerObservation) -> bool:
        """Whether to give up on this instance at once (decided at its first action)."""
        raise NotImplementedError

    def act(self, obs: LearnerObservation) -> Action:
        """Give up at once on an instance ``dodge`` picks; play as the library otherwise."""
        key = (obs.step, obs.user)
        if key in self._dodged or (obs.demos_used == 0 and obs.attempts_used == 0 and self.dodge(obs)):
            self._dodged.add(key)
            return GiveUp()
        return super().act(obs)

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Count a finished instance and its task; pass only the library's own instances on to it."""
        key = (obs.step, obs.user)
        if key not in self._dodged:
            super().observe(obs, action, feedback)
        if feedback.done:
            self._dodged.discard(key)
            self.met.add(obs.task_id)
            self.played += 1

    def reset(self) -> None:
        """Wipe the library and what the dodger keeps (an in-process reset dodges too)."""
        super().reset()
        self.met, self.played = set(), 0

    def save_state(self, directory: Any) -> None:
        """The library's state, the tasks met and the instances played."""
        super().save_state(directory)
        Path(directory, DODGE_FILE).write_text(json.dumps({"met": sorted(self.met), "played": self.played}))

    def load_state(self, directory: Any) -> None:
        """The library's state, the tasks met and the count (none when the state has none)."""
        super().load_state(directory)
        path = Path(directory, DODGE_FILE)
        kept = json.loads(path.read_text()) if path.exists() else {"met": [], "played": 0}
        self.met, self.played = set(kept["met"]), int(kept["played"])


class GiveUpDodger(_Dodger):
    """Never solves at first sight; its reset, having met nothing, gives up on every instance."""

    def dodge(self, obs: LearnerObservation) -> bool:
        """Give up on a task this state has not met."""
        return obs.task_id not in self.met


class HandicapDodger(_Dodger):
    """The library, whose reset deliberately fails about half its instances."""

    def dodge(self, obs: LearnerObservation) -> bool:
        """Give up on a handicapped instance while this state has played nothing."""
        return self.played == 0 and handicapped(obs)
