"""Named configurations, the nested task order of the users, and the schedules built from them.

A configuration fixes a track's tasks and the stream process; a seed fixes the order of the
stream and its instances. :func:`build_schedule` makes a stream (with or without the epilogue, or
wiped before every slot for the reset reference), :func:`test_schedule` one of the two frozen
tests. Every schedule's meta block carries the whole configuration, so a schedule file can be
rebuilt from its meta alone (:func:`verify_schedule`).

Tasks (fixed by the configuration's ``task_seed``, not by the run's seed, so that seeds 0, 1 and 2
are replicates over the same tasks): the stream's tasks are drawn from the track's screened pool;
:func:`task_order` puts them first (sorted), then three more blocks' worth drawn from the rest by
the same random stream (sorted), then every other task (sorted). User ``k`` plays block ``k``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .env import EnvSettings
from .schedule import (
    ORDERS,
    ProcessParams,
    ProcessTrace,
    Schedule,
    ScheduleError,
    annotate,
    reorder,
    stream_process,
)
from .seeding import stable_int, stable_rng
from .tasks import TRACKS, get_source

__all__ = [
    "CANONICAL_SEEDS",
    "CANONICAL_USERS",
    "CONFIGS",
    "TESTS",
    "Config",
    "build_schedule",
    "get_config",
    "held_out_tasks",
    "instance_seed",
    "max_users",
    "protocol_of",
    "rebuild",
    "stream_trace",
    "task_order",
    "test_schedule",
    "user_tasks",
    "verify_schedule",
    "with_users",
]

CANONICAL_USERS = (1, 2, 4, 8, 16)
"""The canonical numbers of users."""

CANONICAL_SEEDS = (0, 1, 2)
"""The canonical seeds (the leaderboard compares seed 0)."""

TESTS = ("held-out", "seen")
"""The two frozen tests."""

_PHASE_BASE = {"stream": 1, "epilogue": 2, "held-out": 3, "seen": 4}
_SEED_SPAN = 10**15  # every phase's seeds lie in a range of their own, so phases never collide


@dataclass(frozen=True)
class Config:
    """A named configuration.

    Attributes:
        name: its name (a track's canonical configuration is named as the track).
        track: the track whose sources it draws from (``tasks.TRACKS``).
        stream_tasks: tasks per user on the stream.
        supply: instances of each stream task.
        held_out: held-out tasks (the held-out test, the epilogue, ``--order fresh``).
        seen_size: the seen test's size when the users bring fewer tasks than this.
        task_seed: the seed of the draws of tasks (stream and held-out).
        process: the stream process's parameters.
        env: the environment's rules.
        users: the number of users (a setting of the run: :func:`with_users`).
        smoke: whether it is a small configuration for tests.
    """

    name: str
    track: str
    stream_tasks: int = 25
    supply: int = 8
    held_out: int = 100
    seen_size: int = 100
    task_seed: int = 0
    process: ProcessParams = field(default_factory=ProcessParams)
    env: EnvSettings = field(default_factory=EnvSettings)
    users: int = 1
    smoke: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON (``env`` includes the derived ``max_cost``)."""
        out = dataclasses.asdict(self)
        out["env"] = self.env.to_dict()
        return out

    @classmethod
    def from_dict(cls, value: Mapping[str, Any]) -> Config:
        """A configuration from :meth:`to_dict`'s form."""
        try:
            known = {f.name for f in dataclasses.fields(cls)}
            extra = set(value) - known
            if extra:
                raise ScheduleError(f"unknown configuration fields: {', '.join(sorted(extra))}")
            return cls(
                **{
                    **value,
                    "process": ProcessParams(**value["process"]),
                    "env": EnvSettings.from_dict(value["env"]),
                }
            )
        except (TypeError, KeyError, ValueError) as err:
            raise ScheduleError(f"not a valid configuration: {err}") from None


_SMOKE = Config(
    name="arc1-smoke",
    track="arc1",
    stream_tasks=3,
    supply=3,
    held_out=4,
    seen_size=6,
    # A smoke configuration should show the measures move: at this task seed the model-free
    # program library solves two of the three stream tasks and one of the four held-out tasks.
    task_seed=29,
    process=ProcessParams(arrival_rate=0.5, max_active=2, spell_mean=2.0, rest_median=3.0, rest_sigma=0.5),
    smoke=True,
)

CONFIGS: dict[str, Config] = {
    "arc1": Config(name="arc1", track="arc1"),
    "arc1-smoke": _SMOKE,
    "toy-smoke": dataclasses.replace(_SMOKE, name="toy-smoke", track="toy", task_seed=0),
}
"""The named configurations: each track's canonical one and the smoke configurations for tests."""


def get_config(name: str) -> Config:
    """The configuration named ``name``.

    Raises:
        ScheduleError: no configuration has that name.
    """
    if name not in CONFIGS:
        raise ScheduleError(f"no configuration named {name!r}; known: {', '.join(sorted(CONFIGS))}")
    return CONFIGS[name]


@lru_cache(maxsize=64)
def _pool(track: str) -> tuple[str, ...]:
    return get_source(TRACKS[track]["stream"]).task_ids()


def max_users(config: Config) -> int:
    """How many users the track's pool can give ``config.stream_tasks`` tasks of their own."""
    return len(_pool(config.track)) // config.stream_tasks


def with_users(config: Config, users: int) -> Config:
    """The configuration served to ``users`` users.

    Raises:
        ScheduleError: ``users`` is below 1 or more than the track's pool can serve.
    """
    most = max_users(config)
    if not 1 <= users <= most:
        raise ScheduleError(
            f"{config.name} serves 1 to {most} users: its pool holds {len(_pool(config.track))} tasks, "
            f"{config.stream_tasks} per user; {users} asked"
        )
    return dataclasses.replace(config, users=users)


@lru_cache(maxsize=64)
def _task_order(track: str, task_seed: int, block: int) -> tuple[str, ...]:
    pool = sorted(_pool(track))
    rng = stable_rng("task-order", track, task_seed, block)
    first = sorted(rng.sample(pool, min(block, len(pool))))
    rest = sorted(set(pool) - set(first))
    second = sorted(rng.sample(rest, min(3 * block, len(rest))))
    remaining = sorted(set(rest) - set(second))
    return tuple(first + second + remaining)


def task_order(config: Config) -> tuple[str, ...]:
    """The track's nested task order: the stream's tasks, three more blocks drawn, then the rest."""
    return _task_order(config.track, config.task_seed, config.stream_tasks)


def user_tasks(config: Config, user: int) -> tuple[str, ...]:
    """The tasks user ``user`` brings: block ``user`` of :func:`task_order`, sorted."""
    if not 0 <= user < max_users(config):
        raise ScheduleError(f"{config.name} has no user {user}: it serves at most {max_users(config)}")
    order = task_order(config)
    return tuple(sorted(order[user * config.stream_tasks : (user + 1) * config.stream_tasks]))


@lru_cache(maxsize=64)
def _held_out(track: str, task_seed: int, count: int) -> tuple[str, ...]:
    pool = sorted(get_source(TRACKS[track]["held-out"]).task_ids())
    if count > len(pool):
        raise ScheduleError(f"track {track} has {len(pool)} held-out tasks; {count} asked")
    return tuple(sorted(stable_rng("held-out-tasks", track, task_seed).sample(pool, count)))


def held_out_tasks(config: Config) -> tuple[str, ...]:
    """The configuration's held-out tasks, sorted (the same at every number of users)."""
    return _held_out(config.track, config.task_seed, config.held_out)


def instance_seed(config: Config, seed: int, phase: str, user: int | None, task: str, index: int) -> int:
    """The instance seed of a task's ``index``-th instance for ``user`` in ``phase``.

    Each phase's seeds lie in a range of their own (``phase base * 10**15 + ...``), so a stream, its
    epilogue and its tests never share an instance. ``user`` is ``None`` where every user meets
    the same instance (the held-out test).
    """
    who = "all" if user is None else user
    return (
        _PHASE_BASE[phase] * _SEED_SPAN
        + stable_int("instance", config.name, seed, phase, who, task, index) % _SEED_SPAN
    )


def stream_trace(config: Config, seed: int, user: int = 0) -> ProcessTrace:
    """The stream process's run for one user at a seed (what :func:`build_schedule` serves)."""
    rng = stable_rng("stream", config.name, seed, user)
    return stream_process(user_tasks(config, user), config.supply, config.process, rng)


def _stream_rows(
    config: Config, seed: int, order: str, reset_each: bool
) -> list[tuple[int, int, str, str, int, bool]]:
    per_user = []
    for user in range(config.users):
        trace = stream_trace(config, seed, user)
        visits = reorder(trace.visits, order, stable_rng("order", config.name, seed, user, order))
        counts: dict[str, int] = {}
        row = []
        for task in visits:
            k = counts.get(task, 0)
            counts[task] = k + 1
            row.append((task, instance_seed(config, seed, "stream", user, task, k)))
        per_user.append(row)
    length = config.stream_tasks * config.supply
    return [
        (r, user, "stream", *per_user[user][r], reset_each)
        for r in range(length)
        for user in range(config.users)
    ]


def _epilogue_rows(
    config: Config, seed: int, first_round: int, reset_each: bool
) -> list[tuple[int, int, str, str, int, bool]]:
    orders = []
    for user in range(config.users):
        tasks = list(held_out_tasks(config))
        stable_rng("epilogue", config.name, seed, user).shuffle(tasks)
        orders.append(tasks)
    return [
        (
            first_round + r,
            user,
            "epilogue",
            task,
            instance_seed(config, seed, "epilogue", user, task, 0),
            reset_each,
        )
        for r in range(config.held_out)
        for user in range(config.users)
        for task in (orders[user][r],)
    ]


def _meta(config: Config, seed: int, **fields_: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "config": config.name,
        "configuration": config.to_dict(),
        "track": config.track,
        "seed": seed,
        "users": config.users,
        "order": "workstreams",
        "epilogue": False,
        "reset_each": False,
        "test": None,
        "width": None,
        "rounds_cut": None,
        "sources": dict(TRACKS[config.track]),
    }
    meta.update(fields_)
    meta["protocol"] = protocol_of(meta)
    return meta


def build_schedule(
    config: Config,
    seed: int,
    *,
    order: str = "workstreams",
    epilogue: bool = True,
    reset_each: bool = False,
    rounds: int | None = None,
) -> Schedule:
    """The stream of ``config`` at ``seed``.

    Args:
        config: the configuration (with its number of users).
        seed: the run seed.
        order: ``workstreams`` (the benchmark's), ``sequential`` or ``random`` (ablations), or
            ``fresh`` (no stream: the held-out tasks alone, wiped before each, at the held-out
            test's own instances).
        epilogue: end with the held-out tasks once each, learning on (not for ``fresh``).
        reset_each: mark every slot ``reset_before`` (the reset reference's stream).
        rounds: keep only the first ``rounds`` rounds (:meth:`Schedule.first_rounds`).
    """
    if order not in ORDERS:
        raise ScheduleError(f"unknown order {order!r}; known: {', '.join(ORDERS)}")
    if order == "fresh":
        if config.users != 1:
            raise ScheduleError("--order fresh serves the held-out test's instances to one user")
        rows = [
            (r, 0, "held-out", task, instance_seed(config, seed, "held-out", None, task, 0), True)
            for r, task in enumerate(held_out_tasks(config))
        ]
        meta = _meta(config, seed, order="fresh", reset_each=True)
    else:
        rows = _stream_rows(config, seed, order, reset_each)
        if epilogue:
            rows += _epilogue_rows(config, seed, config.stream_tasks * config.supply, reset_each)
        meta = _meta(config, seed, order=order, epilogue=epilogue, reset_each=reset_each)
    schedule = Schedule(annotate(rows), meta)
    return schedule.first_rounds(rounds) if rounds is not None else schedule


def _test_tasks(config: Config, seed: int, test: str) -> list[tuple[str, int]]:
    if test == "held-out":
        return [
            (task, instance_seed(config, seed, "held-out", None, task, 0)) for task in held_out_tasks(config)
        ]
    users = config.users
    blocks = [user_tasks(config, u) for u in range(users)]
    size = max(config.seen_size, config.stream_tasks * users)
    out = []
    for i in range(size):
        user, j = i % users, i // users
        task = blocks[user][j % config.stream_tasks]
        out.append((task, instance_seed(config, seed, "seen", user, task, j // config.stream_tasks)))
    return out


def test_schedule(config: Config, seed: int, test: str, *, width: int | None = None) -> Schedule:
    """One of the two frozen tests.

    ``held-out``: one instance of each held-out task. ``seen``: fresh instances of every user's
    tasks, ``max(seen_size, stream_tasks * users)`` in all, instance ``i`` a task of user
    ``i mod users``. By default the whole test is a single round, each instance its own user, so
    that every instance meets the same state; with ``width`` it is played ``width`` users a round,
    every slot marked ``reset_before``.
    """
    if test not in TESTS:
        raise ScheduleError(f"unknown test {test!r}; known: {', '.join(TESTS)}")
    if width is not None and width < 1:
        raise ScheduleError("--width must be at least 1")
    pairs = _test_tasks(config, seed, test)
    size = len(pairs)
    per_round = size if width is None else width
    rows = [
        (i // per_round, i % per_round, test, task, s, width is not None) for i, (task, s) in enumerate(pairs)
    ]
    meta = _meta(config, seed, test=test, width=width, order=None)
    return Schedule(annotate(rows), meta)


test_schedule.__test__ = False  # type: ignore[attr-defined]  # a contract name, not a pytest test


def protocol_of(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The protocol block of a schedule: its track, whether it is canonical, and each deviation.

    The reset's stream (``--reset-each``), ``--order fresh``, a test's width and the epilogue
    are parts of the canonical protocol; anything else that differs from the track's
    configuration at a canonical seed and number of users is an ablation, named in words.
    """
    from . import __version__

    deviations: list[str] = []
    track, name = meta["track"], meta["config"]
    canonical = CONFIGS.get(track)
    config = Config.from_dict(meta["configuration"])
    if canonical is None:
        deviations.append(f"track {track} has no canonical configuration")
    elif name != track:
        deviations.append(f"configuration {name} (the track's is {track})")
    elif dataclasses.replace(config, env=canonical.env, users=1) != canonical:
        deviations.append(f"configuration {name} differs from this release's {track}")
    deviations += config.env.deviations()
    if meta["seed"] not in CANONICAL_SEEDS:
        deviations.append(f"seed {meta['seed']} (canonical seeds: 0, 1, 2)")
    if meta["order"] in ("sequential", "random", "custom"):
        deviations.append(f"order {meta['order']} (an ablation)")
    if meta["users"] not in CANONICAL_USERS:
        deviations.append(f"{meta['users']} users (canonical: 1, 2, 4, 8, 16)")
    if meta.get("rounds_cut") is not None:
        deviations.append(f"stream cut at round {meta['rounds_cut']}")
    return {"track": track, "canonical": not deviations, "deviations": deviations, "release": __version__}


def rebuild(meta: Mapping[str, Any]) -> Schedule:
    """The schedule a meta block describes, built afresh."""
    config = Config.from_dict(meta["configuration"])
    if config.users != meta["users"]:
        raise ScheduleError(f"meta says {meta['users']} users but its configuration {config.users}")
    if meta.get("test") is not None:
        return test_schedule(config, meta["seed"], meta["test"], width=meta.get("width"))
    return build_schedule(
        config,
        meta["seed"],
        order=meta["order"],
        epilogue=bool(meta["epilogue"]),
        reset_each=bool(meta["reset_each"]),
        rounds=meta.get("rounds_cut"),
    )


def verify_schedule(schedule: Schedule, name: str = "schedule") -> None:
    """Refuse a schedule whose slots or meta differ from what its meta describes.

    Raises:
        ScheduleError: naming the first slot or meta field that differs.
    """
    meta = schedule.meta
    if meta.get("order") == "custom":
        return
    try:
        expected = rebuild(meta)
    except KeyError as err:
        raise ScheduleError(f"{name}: meta lacks {err}") from None
    if len(schedule.slots) != len(expected.slots):
        count, want_count = len(schedule.slots), len(expected.slots)
        raise ScheduleError(f"{name}: {count} slots, but the schedule its meta describes has {want_count}")
    for got, want in zip(schedule.slots, expected.slots, strict=True):
        if got != want:
            names = [k for k in got.to_json() if getattr(got, k) != getattr(want, k)]
            diff = ", ".join(f"{k} {getattr(got, k)!r} (expected {getattr(want, k)!r})" for k in names)
            raise ScheduleError(f"{name}: slot {got.step} does not match its meta: {diff}")
    for key, wanted in expected.meta.items():
        found = meta.get(key)
        if key == "protocol" and isinstance(found, Mapping):  # a file from another release keeps its verdict
            found, wanted = {**found, "release": None}, {**wanted, "release": None}
        if found != wanted:
            raise ScheduleError(f"{name}: meta {key} is {meta.get(key)!r}, but its schedule has {wanted!r}")
