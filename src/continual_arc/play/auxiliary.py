"""Auxiliary episodes: the numbering, seeds and phases of the extra instances plug-ins ask for.

The run's n-th auxiliary episode (n from 1) has step ``-n`` and its trajectory in
``i/addon-<n>.json``; its seed is the task's j-th auxiliary seed in the run
([`continual_arc.stream.seeds.addon_seed`][continual_arc.stream.seeds.addon_seed]), so a resumed run that
recounts them from its committed records draws the same instances.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.records import EpisodeType, Record, is_primary
from ..stream.schedule import Schedule
from ..stream.seeds import addon_seed
from ..tracks.track import PHASE_SOURCES
from .plugin_manager import PendingEpisode
from .plugins import Episode, PluginError

__all__ = ["AuxiliaryLedger"]


class AuxiliaryLedger:
    """Numbers a run's auxiliary episodes and gives each its task's next seed.

    Args:
        schedule: the run's schedule (an auxiliary episode may only serve a task it serves).
    """

    def __init__(self, schedule: Schedule) -> None:
        self.config, self.seed = schedule.meta["config"], schedule.meta["seed"]
        self.first_phase: dict[str, str] = {}
        for slot in schedule.slots:
            self.first_phase.setdefault(slot.task_id, slot.phase)
        self.played = 0
        self.of_task: dict[str, int] = {}

    def recount(self, records: Iterable[Record]) -> None:
        """Take up the numbering where the committed records leave it."""
        for record in records:
            if not is_primary(record):
                self.played = max(self.played, record.get("addon_index") or 0)
                task = str(record["task_id"])
                self.of_task[task] = self.of_task.get(task, 0) + 1

    def next_episode(self, request: PendingEpisode, round_: int, alias: str) -> Episode:
        """The episode that plays ``request`` in ``round_``, numbered and seeded.

        Raises:
            PluginError: the schedule serves no such task (or not in the phase asked for).
        """
        task = request.task_id
        phase = request.phase or self.first_phase.get(task)
        if task not in self.first_phase or phase is None or phase not in PHASE_SOURCES:
            raise PluginError(
                f"plug-in {request.plugin} asked for task {task!r} (phase {phase!r}), "
                f"which this schedule does not serve"
            )
        index = self.of_task.get(task, 0)
        self.of_task[task] = index + 1
        self.played += 1
        return Episode(
            step=-self.played,
            round=round_,
            user=0,
            phase=phase,
            task_id=task,
            seed=addon_seed(self.config, self.seed, task, index),
            alias=alias,
            episode_type=EpisodeType.ADDON,
            plugin=request.plugin,
            reason=request.reason,
            addon_index=self.played,
        )
