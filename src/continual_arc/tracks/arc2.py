"""The arc2 track: ARC-GEN's generators over ARC-AGI-2's training tasks absent from ARC-AGI-1.

The stream and the seen test serve fresh instances of the screened ARC-GEN pool (the new training
tasks whose generator passes [`continual_arc.data.screen`][continual_arc.data.screen]); the held-out test
serves the ARC-AGI-2 evaluation tasks new to the second edition with their own pairs. Instances are grids,
played in [`GridEnv`][continual_arc.tracks.grid_env.GridEnv], as arc1's are. Every source checks
that ``continual-arc data fetch --track arc2`` has fetched the data, and says so in one sentence
when it has not.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.config import Config
from ..data import arcgen
from ..data.arc2_sources import arc2_tasks, check_arc2, new_task_ids
from ..data.draws import one_demonstration
from ..data.screen_file import screened_pool
from .grid_env import GridEnv
from .sources import FixedSource, GenerativeSource, TaskSource
from .track import Role, Track, smoke_config

__all__ = ["ARC2"]


def _arcgen_source() -> TaskSource:
    check_arc2()
    return GenerativeSource(
        "arc2/arc-gen",
        screened_pool("arc2"),
        arcgen.instance,
        arcgen.demonstrations,
        versions=check_arc2,  # ARC-GEN's commit and digests: the instance cache's key
        demonstration=one_demonstration(arcgen.draw),
    )


def _arc2_split(split: str, name: str) -> Callable[[], TaskSource]:
    def build() -> TaskSource:
        check_arc2()
        return FixedSource(name, lambda: arc2_tasks()[split], versions=check_arc2, ids=new_task_ids(split))

    return build


ARC2 = Track(
    name="arc2",
    roles={Role.STREAM: "arc2/arc-gen", Role.HELD_OUT: "arc2/evaluation"},
    factories={
        "arc2/arc-gen": _arcgen_source,
        "arc2/training": _arc2_split("train", "arc2/training"),
        "arc2/evaluation": _arc2_split("eval", "arc2/evaluation"),
    },
    configs=(
        Config(name="arc2", track="arc2"),
        # A smoke configuration should show the measures move: at this task seed the model-free
        # program library solves two of the three stream tasks (docs/arc2.md says why this seed).
        smoke_config("arc2-smoke", "arc2", task_seed=2245),
    ),
    environment=GridEnv,
    summary="ARC-GEN generators over ARC-AGI-2's new training tasks; its new evaluation tasks held out",
)
"""The arc2 track."""
