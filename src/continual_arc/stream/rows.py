"""The rows of each kind of schedule, before they are numbered: a stream, its epilogue, and the two tests.

A row is ``(round, user, phase, task_id, seed, reset_before)``
([`Row`][continual_arc.stream.slots.Row]). [`meta_block`][continual_arc.stream.rows.meta_block] makes the meta
a schedule file carries, from which the same rows are rebuilt
([`continual_arc.stream.schedule.rebuild`][continual_arc.stream.schedule.rebuild]).
"""

from __future__ import annotations

from ..core.config import Config
from ..core.records import Phase, ScheduleMeta
from ..core.seeding import stable_rng
from ..tracks.track import Track
from .process import ProcessTrace, reorder, stream_process
from .protocol_block import protocol_of
from .seeds import instance_seed
from .slots import Row
from .users import held_out_tasks, user_tasks

__all__ = ["epilogue_rows", "fresh_rows", "meta_block", "stream_rows", "stream_trace", "test_rows"]


def stream_trace(config: Config, seed: int, user: int = 0, *, track: Track | None = None) -> ProcessTrace:
    """The stream process's run for one user at a seed (what `build_schedule` serves)."""
    rng = stable_rng(Phase.STREAM, config.name, seed, user)
    return stream_process(user_tasks(config, user, track=track), config.supply, config.process, rng)


def stream_rows(track: Track, config: Config, seed: int, order: str, reset_each: bool) -> list[Row]:
    """Every user's stream at ``seed`` in ``order``, round by round, users in order within a round."""
    per_user = []
    for user in range(config.users):
        trace = stream_trace(config, seed, user, track=track)
        visits = reorder(trace.visits, order, stable_rng("order", config.name, seed, user, order))
        counts: dict[str, int] = {}
        row = []
        for task in visits:
            k = counts.get(task, 0)
            counts[task] = k + 1
            row.append((task, instance_seed(config, seed, Phase.STREAM, user, task, k)))
        per_user.append(row)
    length = config.stream_tasks * config.supply
    return [
        (r, user, Phase.STREAM, *per_user[user][r], reset_each)
        for r in range(length)
        for user in range(config.users)
    ]


def epilogue_rows(track: Track, config: Config, seed: int, first_round: int, reset_each: bool) -> list[Row]:
    """The held-out tasks once each, in an order of each user's own, from ``first_round`` on."""
    orders = []
    for user in range(config.users):
        tasks = list(held_out_tasks(config, track=track))
        stable_rng(Phase.EPILOGUE, config.name, seed, user).shuffle(tasks)
        orders.append(tasks)
    return [
        (
            first_round + r,
            user,
            Phase.EPILOGUE,
            task,
            instance_seed(config, seed, Phase.EPILOGUE, user, task, 0),
            reset_each,
        )
        for r in range(config.held_out)
        for user in range(config.users)
        for task in (orders[user][r],)
    ]


def meta_block(
    track: Track,
    config: Config,
    seed: int,
    *,
    order: str | None = "workstreams",
    epilogue: bool = False,
    reset_each: bool = False,
    test: str | None = None,
    width: int | None = None,
    first_sight: bool = False,
) -> ScheduleMeta:
    """The meta of a schedule of ``config`` at ``seed`` (a workstreams stream unless told otherwise).

    The one writer of a schedule's meta block; its ``protocol`` is judged from the rest of it
    ([`protocol_of`][continual_arc.stream.protocol_block.protocol_of]).
    """
    meta: ScheduleMeta = {
        "config": config.name,
        "configuration": config.to_dict(),
        "track": config.track,
        "seed": seed,
        "users": config.users,
        "order": order,
        "epilogue": epilogue,
        "reset_each": reset_each,
        "test": test,
        "width": width,
        "rounds_cut": None,
        "sources": track.sources,
        "protocol": {"canonical": False, "deviations": [], "track": config.track},  # judged just below
    }
    if first_sight:  # absent from every other schedule, so that theirs keep their bytes
        meta["first_sight"] = True
    meta["protocol"] = protocol_of(meta)
    return meta


def _test_tasks(track: Track, config: Config, seed: int, test: str) -> list[tuple[str, int]]:
    """The (task, instance seed) of each instance of a test, in order."""
    if test == Phase.HELD_OUT:
        return _held_out_instances(track, config, seed)
    users = config.users
    blocks = [user_tasks(config, u, track=track) for u in range(users)]
    size = max(config.seen_size, config.stream_tasks * users)
    out = []
    for i in range(size):
        user, j = i % users, i // users
        task = blocks[user][j % config.stream_tasks]
        out.append((task, instance_seed(config, seed, Phase.SEEN, user, task, j // config.stream_tasks)))
    return out


def test_rows(track: Track, config: Config, seed: int, test: str, width: int | None) -> list[Row]:
    """A frozen test's rows: one round, each instance its own user, or ``width`` users a round, each reset."""
    pairs = _test_tasks(track, config, seed, test)
    per_round = len(pairs) if width is None else width
    return [
        (i // per_round, i % per_round, test, task, s, width is not None) for i, (task, s) in enumerate(pairs)
    ]


def _held_out_instances(track: Track, config: Config, seed: int) -> list[tuple[str, int]]:
    """The held-out test's (task, instance seed): each task's ``held_out_instances`` in turn."""
    return [
        (task, instance_seed(config, seed, Phase.HELD_OUT, None, task, k))
        for task in held_out_tasks(config, track=track)
        for k in range(config.held_out_instances)
    ]


def fresh_rows(track: Track, config: Config, seed: int) -> list[Row]:
    """``--order fresh``: the held-out test's instances alone, one a round, each after a reset."""
    pairs = _held_out_instances(track, config, seed)
    return [(r, 0, Phase.HELD_OUT, task, s, True) for r, (task, s) in enumerate(pairs)]


test_rows.__test__ = False  # type: ignore[attr-defined]  # a builder, not a pytest test
