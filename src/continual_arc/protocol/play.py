"""The whole canonical protocol in one call: the stream, the two frozen tests, the reset on each.

``play_protocol`` plays six runs into one directory, laid out as a submission holds them
(:data:`continual_arc.protocol.plays.PROTOCOL_PLAYS`):

* ``stream``: the learner on the configuration's stream (no epilogue);
* ``held-out``, ``seen``: each frozen test, played from the end of the stream with its own copy
  of the learner's state (``load_state`` of what the stream saved, or a deep copy for a learner
  that cannot save) in a directory holding the stream's ``alias-salt``;
* ``stream-reset``, ``held-out-reset``, ``seen-reset``: the same learner, built anew with the same
  arguments, reset before every instance (``--reset-each`` and width 1).

Independent plays run in parallel processes (``jobs``); the tests wait for the stream. Every play
resumes where it stopped, so the whole call does too. At the end it writes ``protocol.json`` (the
plane, the share learned, what was played) and the plots, and a ``submission.json`` to fill in.
"""

from __future__ import annotations

import copy
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.config import TESTS
from ..play.aliases import SALT_FILE
from ..play.learner import load_learner
from ..play.options import RunProgress
from ..play.runner import run
from ..play.session import saves_state
from ..stream.schedule import Schedule
from .conclude import conclude
from .plays import PROTOCOL_PLAYS, ProtocolError, protocol_schedules

__all__ = ["DEFAULT_LEARNER", "ProtocolError", "ProtocolOptions", "play_protocol"]

DEFAULT_LEARNER = "continual_arc_baselines.library:ProgramLibraryLearner"
"""The learner the protocol plays when none is named: the model-free program library."""


@dataclass(frozen=True)
class ProtocolOptions:
    """What to play.

    Attributes:
        out: the protocol directory.
        learner: ``module:Class``.
        learner_kwargs: its keyword arguments (the reset gets the same).
        config, seed, users: the configuration, the run seed, the number of users.
        jobs: plays run at once, each in a process of its own (1: all in this process).
        alias_style, max_concurrent, instance_time_limit: passed to every run.
        resamples: bootstrap resamples of the final numbers.
    """

    out: Path
    learner: str = DEFAULT_LEARNER
    learner_kwargs: Mapping[str, Any] = field(default_factory=dict)
    config: str = "arc1"
    seed: int = 0
    users: int = 1
    jobs: int = 1
    alias_style: str = "hash"
    max_concurrent: int | None = None
    instance_time_limit: float | None = None
    resamples: int = 10_000


@dataclass(frozen=True)
class _Job:
    """One play, as a worker process receives it (everything picklable)."""

    name: str
    out: Path
    schedule: Path
    learner: str
    learner_kwargs: dict[str, Any]
    state: Path | None
    salt: Path | None
    alias_style: str
    max_concurrent: int | None
    instance_time_limit: float | None


class _Lines:
    """Progress as prefixed lines, at most every few seconds: several processes share stderr."""

    def __init__(self, name: str, every: float = 5.0) -> None:
        self.name, self.every, self.last = name, every, 0.0

    def __call__(self, p: RunProgress) -> None:
        now = time.monotonic()
        if now - self.last < self.every and p.rounds_done < p.rounds_total:
            return
        self.last = now
        used = "-" if p.budget_used is None else f"{p.budget_used:.1f}"
        errored = f", {p.errored} errored" if p.errored else ""
        print(
            f"[{self.name}] round {p.rounds_done}/{p.rounds_total}, instances {p.instances_done}/"
            f"{p.instances_total}, U {used}{errored}",
            file=sys.stderr,
            flush=True,
        )


def _prepare(job: _Job) -> Any:
    learner = load_learner(job.learner, job.learner_kwargs)
    job.out.mkdir(parents=True, exist_ok=True)
    if job.salt is not None and not (job.out / SALT_FILE).exists():
        shutil.copy(job.salt, job.out / SALT_FILE)  # the names the stream gave its tasks
    if job.state is not None:
        # The stream's end state; once the test has committed its round, the runner's own resume
        # replaces it with the test's saved state.
        learner.load_state(job.state)  # type: ignore[attr-defined]  # checked by _saves_state
    return learner


def _play(
    job: _Job, learner: Any = None, progress: Callable[[RunProgress], None] | None = None
) -> dict[str, Any]:
    """Play one run (in a worker process, or here); its summary."""
    learner = learner if learner is not None else _prepare(job)
    result = run(
        learner,
        Schedule.load(job.schedule),
        job.out,
        resume=True,
        alias_style=job.alias_style,
        max_concurrent=job.max_concurrent,
        instance_time_limit=job.instance_time_limit,
        learner_spec={"class": job.learner, "kwargs": job.learner_kwargs},
        progress=progress or _Lines(job.name),
    )
    return result.summary


def _job(options: ProtocolOptions, name: str, state: Path | None = None, salt: Path | None = None) -> _Job:
    return _Job(
        name=name,
        out=options.out / PROTOCOL_PLAYS[name],
        schedule=options.out / "schedules" / f"{name}.json",
        learner=options.learner,
        learner_kwargs=dict(options.learner_kwargs),
        state=state,
        salt=salt,
        alias_style=options.alias_style,
        max_concurrent=options.max_concurrent,
        instance_time_limit=options.instance_time_limit,
    )


def _saves_state(options: ProtocolOptions) -> tuple[bool, bool]:
    probe = load_learner(options.learner, options.learner_kwargs)
    return saves_state(probe), bool(getattr(probe, "stateless", False))


def _final_state(options: ProtocolOptions) -> Path | None:
    root = options.out / PROTOCOL_PLAYS["stream"] / "state"
    states = sorted(root.glob("round-*")) if root.is_dir() else []
    return states[-1] if states else None


def _run_all(options: ProtocolOptions, saves: bool, stateless: bool) -> None:
    """Play the six runs: in parallel processes where the learner can carry its state across."""
    if options.jobs <= 1 or not (saves or stateless):
        _run_here(options, saves, stateless)
        return
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        stream = pool.submit(_play, _job(options, "stream"))
        others: list[Future[dict[str, Any]]] = [
            pool.submit(_play, _job(options, name))
            for name in ("stream-reset", "held-out-reset", "seen-reset")
        ]
        stream.result()
        state = None if stateless else _final_state(options)
        salt = options.out / PROTOCOL_PLAYS["stream"] / SALT_FILE
        others += [pool.submit(_play, _job(options, test, state, salt)) for test in TESTS]
        for future in others:
            future.result()


def _run_here(options: ProtocolOptions, saves: bool, stateless: bool) -> None:
    stream_job = _job(options, "stream")
    learner = load_learner(options.learner, options.learner_kwargs)
    _play(stream_job, learner)
    salt = options.out / PROTOCOL_PLAYS["stream"] / SALT_FILE
    for test in TESTS:
        if saves or stateless:
            _play(_job(options, test, None if stateless else _final_state(options), salt))
        else:
            test_job = _job(options, test, None, salt)
            if (test_job.out / "meta.json").exists():
                raise ProtocolError(
                    f"{test_job.out} was left unfinished, and the learner cannot save its state: "
                    f"delete that directory and run again to replay the test from the stream's end"
                )
            test_job.out.mkdir(parents=True, exist_ok=True)
            shutil.copy(salt, test_job.out / SALT_FILE)
            _play(test_job, copy.deepcopy(learner))
    for name in ("stream-reset", "held-out-reset", "seen-reset"):
        _play(_job(options, name))


def play_protocol(options: ProtocolOptions) -> dict[str, Any]:
    """Play (or resume) the whole protocol; ``protocol.json``'s content.

    Raises:
        ProtocolError: the directory holds another protocol, or a test cannot get the stream's
            state.
    """
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    schedules = protocol_schedules(options.config, options.seed, options.users)
    for name, schedule in schedules.items():
        path = out / "schedules" / f"{name}.json"
        if path.exists() and Schedule.load(path, verify=False) != schedule:
            raise ProtocolError(f"{out} holds another protocol ({path} differs); choose another --out")
        schedule.save(path)
    saves, stateless = _saves_state(options)
    if (out / PROTOCOL_PLAYS["stream"] / "meta.json").exists() and not (saves or stateless):
        stream_summary = out / PROTOCOL_PLAYS["stream"] / "summary.json"
        if not stream_summary.exists():
            raise ProtocolError(
                f"{options.learner} cannot save its state, so an unfinished protocol cannot resume"
            )
    _run_all(options, saves, stateless)
    return conclude(options)
