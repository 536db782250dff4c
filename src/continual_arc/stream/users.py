"""Who plays which tasks: the users' nested task order, the held-out tasks, and how many users a track serves.

Tasks are fixed by the configuration's ``task_seed``, not by the run's seed, so that seeds 0, 1
and 2 are replicates over the same tasks: the stream's tasks are drawn from the track's screened
pool; [`task_order`][continual_arc.stream.users.task_order] puts them first (sorted), then three more blocks'
worth drawn from the rest by the same random stream (sorted), then every other task (sorted). User ``k`` plays
block ``k``.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from ..core.config import Config, ScheduleError
from ..core.seeding import stable_rng
from ..tracks.registry import get_track
from ..tracks.track import Role, Track

__all__ = ["held_out_tasks", "max_users", "task_order", "track_of", "user_tasks", "with_users"]


def track_of(config: Config, track: Track | None = None) -> Track:
    """``track`` when the caller resolved it, else ``config``'s, looked up by name (a public call's edge).

    The stream's builders resolve the track once, here, and pass it down.
    """
    return track if track is not None else get_track(config.track)


@lru_cache(maxsize=64)
def _pool(track: Track) -> tuple[str, ...]:
    return track.source(Role.STREAM).task_ids()


def max_users(config: Config, *, track: Track | None = None) -> int:
    """How many users the track's pool can give ``config.stream_tasks`` tasks of their own.

    ``track`` is ``config``'s track when the caller has it (else it is looked up by name).
    """
    return len(_pool(track_of(config, track))) // config.stream_tasks


def with_users(config: Config, users: int, *, track: Track | None = None) -> Config:
    """The configuration served to ``users`` users.

    Raises:
        ScheduleError: ``users`` is below 1 or more than the track's pool can serve.
    """
    track = track_of(config, track)
    most = max_users(config, track=track)
    if not 1 <= users <= most:
        raise ScheduleError(
            f"{config.name} serves 1 to {most} users: its pool holds {len(_pool(track))} tasks, "
            f"{config.stream_tasks} per user; {users} asked"
        )
    return dataclasses.replace(config, users=users)


@lru_cache(maxsize=64)
def _task_order(track: Track, task_seed: int, block: int) -> tuple[str, ...]:
    pool = sorted(_pool(track))
    rng = stable_rng("task-order", track.name, task_seed, block)
    first = sorted(rng.sample(pool, min(block, len(pool))))
    rest = sorted(set(pool) - set(first))
    second = sorted(rng.sample(rest, min(3 * block, len(rest))))
    remaining = sorted(set(rest) - set(second))
    return tuple(first + second + remaining)


def task_order(config: Config, *, track: Track | None = None) -> tuple[str, ...]:
    """The track's nested task order: the stream's tasks, three more blocks drawn, then the rest."""
    return _task_order(track_of(config, track), config.task_seed, config.stream_tasks)


def user_tasks(config: Config, user: int, *, track: Track | None = None) -> tuple[str, ...]:
    """The tasks user ``user`` brings: block ``user`` of `task_order`, sorted."""
    track = track_of(config, track)
    most = max_users(config, track=track)
    if not 0 <= user < most:
        raise ScheduleError(f"{config.name} has no user {user}: it serves at most {most}")
    order = task_order(config, track=track)
    return tuple(sorted(order[user * config.stream_tasks : (user + 1) * config.stream_tasks]))


@lru_cache(maxsize=64)
def _held_out(track: Track, task_seed: int, count: int) -> tuple[str, ...]:
    pool = sorted(track.source(Role.HELD_OUT).task_ids())
    if count > len(pool):
        raise ScheduleError(f"track {track.name} has {len(pool)} held-out tasks; {count} asked")
    return tuple(sorted(stable_rng("held-out-tasks", track.name, task_seed).sample(pool, count)))


def held_out_tasks(config: Config, *, track: Track | None = None) -> tuple[str, ...]:
    """The configuration's held-out tasks, sorted (the same at every number of users)."""
    return _held_out(track_of(config, track), config.task_seed, config.held_out)
