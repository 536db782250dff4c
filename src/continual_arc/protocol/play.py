"""The whole canonical protocol in one call: the stream, the two frozen tests, the reset on each.

``play_protocol`` plays six runs into one directory, laid out as a submission holds them
(:data:`continual_arc.protocol.plays.PROTOCOL_PLAYS`):

* ``stream``: the learner on the configuration's stream (no epilogue);
* ``held-out``, ``seen``: each frozen test, played from the end of the stream with its own copy
  of the learner's state (``load_state`` of what the stream saved, or a deep copy for a learner
  that cannot save) in a directory holding the stream's ``alias-salt``;
* ``stream-reset``, ``held-out-reset``, ``seen-reset``: the same learner, built anew with the same
  arguments, reset before every instance (``--reset-each`` and width 1).

Independent plays run in parallel processes (``jobs``); the tests wait for the stream, and this
process draws the stream's plots while they play. Every play resumes where it stopped, so the
whole call does too. At the end it writes ``protocol.json`` (the plane, the share learned, what was
played) and the plots, and a ``submission.json`` to fill in.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.config import TESTS
from ..measure.plots import load_matplotlib
from ..play.aliases import SALT_FILE
from ..play.declared import track_default_learner
from ..play.learner import is_stateless, load_learner
from ..play.session import saves_state
from ..stream.schedule import Schedule
from ..tracks.registry import get_config, get_track
from .conclude import conclude, stream_plots
from .jobs import PlayJob, final_state, play_job
from .plays import PROTOCOL_PLAYS, ProtocolError, protocol_schedules

__all__ = [
    "PARALLEL_RESETS",
    "ProtocolError",
    "ProtocolOptions",
    "default_learner",
    "learner_keeps",
    "play_protocol",
    "protocol_job",
    "write_schedules",
]


def default_learner(config: str) -> str:
    """The learner the protocol plays on ``config`` when none is named: the one declared for its track.

    Raises:
        LearnerSpecError: no installed package declares one
            (:func:`~continual_arc.play.declared.track_default_learner`).
    """
    return track_default_learner(get_track(get_config(config).track))


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
        plots: draw the plane and the stream's plots into ``plots/``.
    """

    out: Path
    learner: str
    learner_kwargs: Mapping[str, Any] = field(default_factory=dict)
    config: str = "arc1"
    seed: int = 0
    users: int = 1
    jobs: int = 1
    alias_style: str = "hash"
    max_concurrent: int | None = None
    instance_time_limit: float | None = None
    resamples: int = 10_000
    plots: bool = True


PARALLEL_RESETS = ("held-out-reset", "stream-reset", "seen-reset")
"""The order in which parallel processes take up the reset plays, after the stream.

A play that repeats another's searches should run after it, not beside it, so that a learner
whose searches are cached (the program library) serves them rather than running them twice: the
stream's reset repeats the stream's first searches of every task, so the held-out test's reset,
which shares nothing with the stream, runs beside the stream first; the frozen tests, queued once
the stream ends, then come after the resets that repeat them. The order changes no result.
"""


def protocol_job(
    options: ProtocolOptions, name: str, state: Path | None = None, salt: Path | None = None
) -> PlayJob:
    """The job of play ``name`` of the protocol (from ``state`` under the names in ``salt``, if given)."""
    return PlayJob(
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


def learner_keeps(learner: str, kwargs: Mapping[str, Any]) -> tuple[bool, bool]:
    """Whether the learner saves its state, and whether it is stateless (built once to see)."""
    probe = load_learner(learner, kwargs)
    return saves_state(probe), is_stateless(probe)


def _final_state(options: ProtocolOptions) -> Path | None:
    return final_state(options.out / PROTOCOL_PLAYS["stream"])


def _run_all(options: ProtocolOptions, saves: bool, stateless: bool) -> list[Path] | None:
    """Play the six runs: in parallel processes where the learner can carry its state across.

    Returns:
        The stream's plots when they were drawn here while the tests played (``None``: not drawn).
    """
    if options.jobs <= 1 or not (saves or stateless):
        _run_here(options, saves, stateless)
        return None
    drawn = None
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        stream = pool.submit(play_job, protocol_job(options, "stream"))
        plays: dict[str, Future[dict[str, Any]]] = {
            name: pool.submit(play_job, protocol_job(options, name)) for name in PARALLEL_RESETS
        }
        # This process only waits while the workers play (they are forked by now): it spends that
        # time on the end's work that needs no test, instead of after the last play.
        if options.plots:
            load_matplotlib()
        stream.result()
        state = None if stateless else _final_state(options)
        salt = options.out / PROTOCOL_PLAYS["stream"] / SALT_FILE
        for test in TESTS:
            plays[test] = pool.submit(play_job, protocol_job(options, test, state, salt))
        if options.plots:
            plays["stream-reset"].result()  # the stream's plots read it
            drawn = stream_plots(options.out)
        for future in plays.values():
            future.result()
    return drawn


def _run_here(options: ProtocolOptions, saves: bool, stateless: bool) -> None:
    stream_job = protocol_job(options, "stream")
    learner = load_learner(options.learner, options.learner_kwargs)
    play_job(stream_job, learner)
    salt = options.out / PROTOCOL_PLAYS["stream"] / SALT_FILE
    for test in TESTS:
        if saves or stateless:
            play_job(protocol_job(options, test, None if stateless else _final_state(options), salt))
        else:
            test_job = protocol_job(options, test, None, salt)
            if (test_job.out / "meta.json").exists():
                raise ProtocolError(
                    f"{test_job.out} was left unfinished, and the learner cannot save its state: "
                    f"delete that directory and run again to replay the test from the stream's end"
                )
            test_job.out.mkdir(parents=True, exist_ok=True)
            shutil.copy(salt, test_job.out / SALT_FILE)
            play_job(test_job, copy.deepcopy(learner))
    for name in ("stream-reset", "held-out-reset", "seen-reset"):
        play_job(protocol_job(options, name))


def write_schedules(options: ProtocolOptions) -> dict[str, Schedule]:
    """Write the six plays' schedules into the protocol directory; the schedules, by play.

    Raises:
        ProtocolError: the directory holds another protocol's schedules.
    """
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    schedules = protocol_schedules(options.config, options.seed, options.users)
    for name, schedule in schedules.items():
        path = out / "schedules" / f"{name}.json"
        if path.exists() and Schedule.load(path, verify=False) != schedule:
            raise ProtocolError(f"{out} holds another protocol ({path} differs); choose another --out")
        schedule.save(path)
    return schedules


def play_protocol(options: ProtocolOptions) -> dict[str, Any]:
    """Play (or resume) the whole protocol; ``protocol.json``'s content.

    Raises:
        ProtocolError: the directory holds another protocol, or a test cannot get the stream's
            state.
    """
    out = options.out
    write_schedules(options)
    saves, stateless = learner_keeps(options.learner, options.learner_kwargs)
    if (out / PROTOCOL_PLAYS["stream"] / "meta.json").exists() and not (saves or stateless):
        stream_summary = out / PROTOCOL_PLAYS["stream"] / "summary.json"
        if not stream_summary.exists():
            raise ProtocolError(
                f"{options.learner} cannot save its state, so an unfinished protocol cannot resume"
            )
    drawn = _run_all(options, saves, stateless)
    return conclude(options, drawn)
