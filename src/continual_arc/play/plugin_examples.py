"""Two example plug-ins, and the helper a plug-in uses to show the learner more.

[`PracticeAfterFailure`][continual_arc.play.plugin_examples.PracticeAfterFailure] asks, after every primary
episode that ends unsolved, for one fresh instance of the same task;
[`HintPlugin`][continual_arc.play.plugin_examples.HintPlugin] adds a hint to the observation for the learner
to read if it wants.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from ..core.actions import LearnerObservation
from ..core.environment import InstanceResult
from ..core.records import EpisodeType, JSONValue
from .plugins import AuxiliaryEpisode, BasePlugin, Episode, PluginResponse

__all__ = ["HintPlugin", "PracticeAfterFailure", "with_extra"]


def with_extra(obs: LearnerObservation, **fields: JSONValue) -> LearnerObservation:
    """``obs`` with ``fields`` added to its ``extra`` (the way a plug-in shows the learner more)."""
    return dataclasses.replace(obs, extra=MappingProxyType({**obs.extra, **fields}))


class PracticeAfterFailure(BasePlugin):
    """After every failed primary episode, one fresh practice instance of the same task.

    The practice is played in the same round, after the round's slots and before ``end_round``,
    so what the learner takes from it is folded in with the rest of the round.

    Args:
        reason: the reason recorded with each practice episode.
    """

    __module__ = "continual_arc.addons"  # runs record a plug-in by the path users import it from

    def __init__(self, reason: str = "practice after failure") -> None:
        self.reason = reason

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        """Ask for a practice instance if a primary episode ended unsolved."""
        if episode.episode_type != EpisodeType.PRIMARY or result.solved:
            return None
        return PluginResponse(
            enqueue=(AuxiliaryEpisode(episode.task_id, self.reason),), metrics={"practice": 1}
        )


class HintPlugin(BasePlugin):
    """Shows the learner a hint: ``obs.extra["hint"]`` (or another key), which it may read or ignore.

    Args:
        hints: a hint per real task id (the learner sees only aliases, so this is news to it).
        default: the hint for any other task (``None``: no hint).
        key: the ``extra`` field to write.
    """

    __module__ = "continual_arc.addons"  # runs record a plug-in by the path users import it from

    def __init__(
        self, hints: Mapping[str, str] | None = None, default: str | None = None, key: str = "hint"
    ) -> None:
        self.hints, self.default, self.key = dict(hints or {}), default, key

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> PluginResponse | None:
        """Add the task's hint to the observation, if it has one."""
        hint = self.hints.get(episode.task_id, self.default)
        if hint is None:
            return None
        return PluginResponse(value=with_extra(obs, **{self.key: hint}), metrics={"hints": 1})
