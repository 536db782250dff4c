"""The base of every learner here, generic over what it plays: grid instances or game levels.

The core's [`BaseLearner`][continual_arc.learner.BaseLearner] is typed for grid instances, so a learner of
game levels subclassing it had to silence the type checker on ``act`` and ``observe``.
[`BaseLearner`][continual_arc_baselines.base.BaseLearner] here takes the three types of the core's
[`Learner`][continual_arc.learner.Learner] protocol as its own parameters, and holds once what the grid
learners (the program library, the model learners, the harness learners) and the game learners (the
explorers) share besides the protocol's do-nothing hooks: the log of each user's last instance, kept from
its end to the next round (the runner reads it with ``instance_log``), and the writing and reading of a
state kept as one JSON file.

Subclass it under one of its names:

* [`GridBase`][continual_arc_baselines.base.GridBase]: grid instances (arc1, arc2, the toy track), and so
  the model learners, which also play a game level when shown one (the core types a learner of one kind);
* [`GameBase`][continual_arc_baselines.base.GameBase]: game levels (arc3), the explorers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Generic, TypeAlias, TypeVar

from continual_arc.env import (
    Action,
    Feedback,
    GameMove,
    GameObservation,
    GameReply,
    LearnerObservation,
)

from .json_types import JSONObject, JSONValue

__all__ = ["BaseLearner", "GameBase", "GridBase", "read_state", "write_state"]

ObsT = TypeVar("ObsT")
"""What the learner is shown."""

ActionT = TypeVar("ActionT")
"""What it answers with."""

ReplyT = TypeVar("ReplyT")
"""What it is told back."""


class BaseLearner(Generic[ObsT, ActionT, ReplyT]):
    """Every hook of the protocol but ``act`` doing nothing, served serially, with each instance's log.

    A subclass puts what it reports of a user's instance in ``_logs[user]`` when the instance ends;
    ``begin_round`` forgets the last round's (the runner has stored them by then), and
    ``instance_log`` hands them to the runner. A subclass that overrides ``begin_round`` calls this
    one.

    Attributes:
        concurrent_users: ``False``: the runner serves one action at a time.
        stateless: ``False``: it carries something between instances (a subclass says otherwise).
    """

    concurrent_users: bool = False
    stateless: bool = False
    stateless_when: tuple[tuple[str, object], ...] | None = None  # continual_arc.learner.declared_keeps

    def __init__(self) -> None:
        self._logs: dict[int, JSONObject] = {}

    def reset(self) -> None:
        """Wipe what is carried between instances (nothing by default)."""

    def act(self, obs: ObsT) -> ActionT:
        """Choose the next action; a subclass must override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement act()")

    def observe(self, obs: ObsT, action: ActionT, feedback: ReplyT) -> None:
        """Take the feedback (ignored by default)."""

    def begin_round(self) -> None:
        """Start a round: the last round's instance logs are no longer needed."""
        self._logs.clear()

    def end_round(self) -> None:
        """End a round (nothing by default)."""

    def resources(self) -> Mapping[str, float]:
        """Cumulative counters (none by default)."""
        return {}

    def user_resources(self, user: int) -> Mapping[str, float]:
        """One user's counters (the learner's own by default)."""
        return self.resources()

    def instance_log(self, user: int) -> JSONObject | None:
        """What the learner noted of ``user``'s instance that just ended (``None``: nothing)."""
        return self._logs.get(user)


GridBase: TypeAlias = BaseLearner[LearnerObservation, Action, Feedback]
"""The base of a learner of grid instances."""

GameBase: TypeAlias = BaseLearner[GameObservation, GameMove, GameReply]
"""The base of a learner of game levels."""


def write_state(directory: str | Path, name: str, state: JSONValue, *, indent: int | None = 1) -> None:
    """Write ``state`` as the file ``name`` in ``directory``: JSON, keys sorted, one newline at the end."""
    Path(directory, name).write_text(json.dumps(state, indent=indent, sort_keys=True) + "\n")


def read_state(directory: str | Path, name: str) -> JSONObject:
    """The JSON object `write_state` wrote as ``name`` in ``directory``.

    Raises:
        ValueError: the file holds JSON that is not an object.
    """
    state = json.loads(Path(directory, name).read_text())
    if not isinstance(state, dict):
        raise ValueError(f"{Path(directory, name)} holds no JSON object")
    return state
