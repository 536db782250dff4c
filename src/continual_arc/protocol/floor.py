"""The track's floor on each frozen test: played once per machine, cached, copied beside every result.

A learner's reset is read against the track's floor on the same instances
([below_floor][continual_arc.measure.reset_flags.below_floor]). For a model-free learner the floor
is the track's stateless floor: the learner an installed package declares as ``floor-<track>`` or
``floor-<kind>`` ([track_floor_learner][continual_arc.play.declared.track_floor_learner]; the
baselines declare their default learner's search keeping nothing), built with no arguments and
played on the test's instances one at a time, the schedule the learner's reset plays.

Its records depend only on that schedule (the configuration, seed, number of users and test), the
floor's code and the release and data that serve the instances, so it is played once and kept in
the data directory under ``floors/<key>/``, the key a SHA-256 over all of them
([floor_key][continual_arc.protocol.floor.floor_key]). ``protocol`` (and ``verify``, which ends the
same way) copies it into the protocol directory as ``held-out-floor/`` and ``seen-floor/``, named
in ``submission.json`` as each test's ``floor``, so a result carries the floor it was read against.

The copy is for the reader, never trusted: ``check`` reads its own floor (its cache, or played
there and then), and a copy that differs from it is a problem
([floor_differences][continual_arc.protocol.floor.floor_differences]).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.config import TESTS, Config
from ..core.learner_ref import LearnerRef
from ..core.records import Record
from ..data.directory import data_dir
from ..measure.budget import primary
from ..play.declared import track_floor_learner
from ..play.fingerprint import learner_fingerprint, package_digest
from ..play.learner import load_learner
from ..play.options import RunOptions
from ..play.rundir import read_meta, read_records
from ..stream.schedule import Schedule, test_schedule
from ..tracks.registry import get_track
from .jobs import PlayJob, play_job, release

__all__ = [
    "FLOOR_CACHE",
    "FLOOR_PLAYS",
    "TrackFloor",
    "copy_floor",
    "floor_differences",
    "floor_key",
    "floor_learner",
    "floor_name",
    "floor_schedule",
    "stream_floors",
    "track_floor",
]

FLOOR_CACHE = "floors"
"""The folder of the data directory that holds the floors played on this machine, one per key."""

FLOOR_PLAYS: dict[str, str] = {str(test): f"{test}-floor" for test in TESTS}
"""The floor's run directory in a protocol directory, by test."""


@dataclass(frozen=True)
class TrackFloor:
    """A floor played (or found in the cache) for one test.

    Attributes:
        learner: the floor's ``module:Class``.
        key: its cache key ([floor_key][continual_arc.protocol.floor.floor_key]).
        run: its run directory in the cache.
    """

    learner: str
    key: str
    run: Path

    def records(self) -> list[Record]:
        """Its records."""
        return read_records(self.run)


def floor_learner(config: Config) -> str | None:
    """The ``module:Class`` of ``config``'s track's stateless floor (``None``: none is declared)."""
    return track_floor_learner(get_track(config.track))


def floor_schedule(config: Config, seed: int, test: str) -> Schedule:
    """The floor's schedule: ``test`` at ``config`` and ``seed`` one instance at a time, as the reset's."""
    return test_schedule(config, seed, test, width=1)


def floor_key(schedule: Schedule, learner: str) -> str:
    """The cache key of ``learner``'s floor on ``schedule``: SHA-256 over everything its records depend on.

    The schedule's text (configuration, seed, users, test, every slot), the floor's import path
    and code (its package's fingerprint), the release, the versions of the track's data, and the
    sources of the packages that draw its instances (`Track.code`; arc3's games), so that a game
    edited without a new data version never reads a floor its old code drew.
    """
    built = load_learner(learner, {})
    try:
        code = learner_fingerprint(built)
    finally:
        release(built)
    track = schedule.track  # the schedule's own, resolved where it was built
    described = {
        "format": 1,
        "learner": learner,
        "code": code,
        "release": __version__,
        "sources": track.describe_sources(),
    }
    if track.code:  # only where a track names some: the other tracks' keys, and caches, stay as they were
        described["track_code"] = {name: package_digest(name) for name in track.code}
    digest = hashlib.sha256(json.dumps(described, sort_keys=True, default=str).encode())
    digest.update(b"\0" + schedule.dumps().encode())
    return digest.hexdigest()


def track_floor(
    schedule: Schedule, learner: str, *, cache: Path | None = None, play: bool = True
) -> TrackFloor | None:
    """``learner``'s floor on ``schedule``, from the cache or played into it.

    Args:
        schedule: the floor's schedule ([floor_schedule][continual_arc.protocol.floor.floor_schedule]).
        learner: the floor's ``module:Class`` (built with no arguments).
        cache: the folder of floors (default: ``floors/`` in the data directory).
        play: play it when the cache lacks it (``False``: ``None`` then).

    Returns:
        The floor, or ``None`` when it is not cached and ``play`` is false.
    """
    root = cache if cache is not None else data_dir() / FLOOR_CACHE
    key = floor_key(schedule, learner)
    done = root / key
    if (done / "summary.json").exists():
        return TrackFloor(learner, key, done)
    if not play:
        return None
    # Played aside under this process's name, then moved in whole: a floor in the cache is finished.
    partial = root / f"{key}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        schedule.save(partial / "floor-schedule.json")
        job = PlayJob(
            name=f"{schedule.meta.get('test')}-floor",
            out=partial / "run",
            schedule=partial / "floor-schedule.json",
            learner=LearnerRef(learner),
            state=None,
            salt=None,
            options=RunOptions(),
        )
        play_job(job)
        try:
            os.replace(partial / "run", done)
        except OSError:
            if not (done / "summary.json").exists():  # not another process's floor, moved in first
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return TrackFloor(learner, key, done)


def stream_floors(
    stream_meta: Mapping[str, object], *, cache: Path | None = None, play: bool = True
) -> dict[str, TrackFloor | None]:
    """Each test's floor for the protocol whose stream's ``meta.json`` is ``stream_meta``.

    The configuration (with its users) and seed are the stream's, as its meta block records them;
    a test's entry is ``None`` when no installed package declares the track's floor, or when it is
    not cached and ``play`` is false.
    """
    block = stream_meta["schedule"]
    assert isinstance(block, Mapping)
    config, seed = Config.from_dict(block["configuration"]), int(block["seed"])
    learner = floor_learner(config)
    if learner is None:
        return {str(test): None for test in TESTS}
    return {
        str(test): track_floor(floor_schedule(config, seed, test), learner, cache=cache, play=play)
        for test in TESTS
    }


def copy_floor(floor: TrackFloor, out: Path) -> None:
    """Copy the floor's run into ``out`` (a protocol directory's ``<test>-floor/``), replacing any there."""
    staged = out.with_name(out.name + ".partial")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(floor.run, staged, ignore=shutil.ignore_patterns("state"))
    shutil.rmtree(out, ignore_errors=True)
    os.replace(staged, out)


def _outcomes(records: Sequence[Record]) -> dict[tuple[str, int], tuple[float, float, bool]]:
    """What the flag reads of each instance: its charge, its budget and whether it was solved."""
    return {
        (str(r["task_id"]), int(r["seed"])): (float(r["charge"]), float(r["max_cost"]), bool(r["solved"]))
        for r in primary(records)
    }


def floor_differences(theirs: Sequence[Record], ours: Sequence[Record]) -> list[str]:
    """How a result's copy of the floor differs from the floor played here (empty: it does not).

    Only what the flag reads is compared (each instance's charge, budget and solve); timings and
    the names the instances were shown under differ between any two plays.
    """
    mine, copied = _outcomes(ours), _outcomes(theirs)
    missing = sorted(set(mine) - set(copied))
    extra = sorted(set(copied) - set(mine))
    changed = sorted(k for k in set(mine) & set(copied) if mine[k] != copied[k])
    out = []
    if missing or extra:
        out.append(f"{len(missing)} instance(s) of the floor missing, {len(extra)} not the floor's")
    if changed:
        first = changed[0]
        out.append(
            f"{len(changed)} of {len(mine)} instance(s) differ from the floor played here (first: task "
            f"{first[0]}, seed {first[1]}: charge {copied[first][0]:g}, not {mine[first][0]:g})"
        )
    return out


def floor_name(run: Path) -> str:
    """What a floor run's flag line calls it: its learner's class, from its ``meta.json``."""
    learner: Mapping[str, object] = read_meta(run).get("learner", {})
    return str(learner.get("class", "the stateless floor"))
