"""The schedule of ``continual-arc first-sight``: one instance of each public task, wiped before each.

It measures what a learner solves the first time it meets a task: every pool task (served by the
track's stream source, as phase ``stream``) and every held-out task (its held-out source, as phase
``held-out``), one instance each, a round of its own, the learner reset before every one. A track's
canonical configuration serves its whole pool and its whole held-out source; a smoke configuration
serves its own stream and held-out tasks, so that a test plays a handful. Instance seeds lie in a
range no other schedule uses ([`first_sight_seed`][continual_arc.stream.seeds.first_sight_seed]).

The schedule is written with ``order: "custom"`` (it is no stream the configuration builds) and
``first_sight: true`` in its meta.
"""

from __future__ import annotations

from ..core.config import Config
from ..core.records import Phase
from ..tracks.track import Role, Track
from .rows import meta_block
from .schedule import Schedule
from .seeds import first_sight_seed
from .slots import Row, annotate
from .users import held_out_tasks, track_of, user_tasks

__all__ = ["first_sight_schedule", "first_sight_tasks"]


def first_sight_tasks(config: Config, *, track: Track | None = None) -> dict[str, tuple[str, ...]]:
    """The tasks first sight serves, by phase: the pool's (``stream``) and the held-out ones."""
    track = track_of(config, track)
    if config.smoke:
        return {
            Phase.STREAM: user_tasks(config, 0, track=track),
            Phase.HELD_OUT: held_out_tasks(config, track=track),
        }
    return {
        Phase.STREAM: track.source(Role.STREAM).task_ids(),
        Phase.HELD_OUT: track.source(Role.HELD_OUT).task_ids(),
    }


def first_sight_schedule(config: Config, seed: int = 0) -> Schedule:
    """One instance of each public task of ``config``'s track, one a round, each after a reset."""
    track = track_of(config)  # once, here at the edge, then passed down
    rows: list[Row] = []
    for phase, tasks in first_sight_tasks(config, track=track).items():
        for task in tasks:
            rows.append((len(rows), 0, phase, task, first_sight_seed(config.track, seed, task), True))
    meta = meta_block(track, config, seed, order="custom", reset_each=True, first_sight=True)
    return Schedule(annotate(rows), meta)
