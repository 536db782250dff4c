"""The arc1 track: Re-ARC's generators over the ARC-AGI-1 training tasks, and the evaluation tasks held out.

The stream and the seen test serve fresh instances of the screened Re-ARC pool
([`continual_arc.data.screen`][continual_arc.data.screen]); the held-out test serves ARC-AGI-1 evaluation
tasks with their own pairs. Instances are grids, played in [`GridEnv`][continual_arc.tracks.grid_env.GridEnv].
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.config import Config
from ..data import rearc
from ..data.draws import one_demonstration
from ..data.pinned import Arc1Split, check_sources
from ..data.screen_file import screened_pool
from ..data.task_index import indexed_ids
from .grid_env import GridEnv
from .sources import FixedSource, GenerativeSource, TaskSource
from .track import Role, Track, smoke_config

__all__ = ["ARC1"]


def _rearc_source() -> TaskSource:
    return GenerativeSource(
        "arc1/rearc",
        screened_pool("arc1"),
        rearc.instance,
        rearc.demonstrations,
        versions=check_sources,
        demonstration=one_demonstration(rearc.draw),
    )


def _arc1_split(split: str, name: str) -> Callable[[], TaskSource]:
    def build() -> TaskSource:
        ids = indexed_ids("arc1", split, check_sources()["arc1_json_sha256"])
        # Tasks decoded one by one as they are served, not the whole file (Arc1Split).
        return FixedSource(name, lambda: Arc1Split(ids), versions=check_sources, ids=ids)

    return build


ARC1 = Track(
    name="arc1",
    roles={Role.STREAM: "arc1/rearc", Role.HELD_OUT: "arc1/evaluation"},
    factories={
        "arc1/rearc": _rearc_source,
        "arc1/training": _arc1_split("train", "arc1/training"),
        "arc1/evaluation": _arc1_split("eval", "arc1/evaluation"),
    },
    configs=(
        Config(name="arc1", track="arc1"),
        # A smoke configuration should show the measures move: at this task seed the model-free
        # program library solves two of the three stream tasks and one of the four held-out tasks.
        smoke_config("arc1-smoke", "arc1", task_seed=29),
    ),
    environment=GridEnv,
    summary="Re-ARC generators over ARC-AGI-1's training tasks; ARC-AGI-1's evaluation tasks held out",
)
"""The arc1 track."""
