"""The units of a sweep: each play of each protocol, what it waits for, and how a worker runs it.

A protocol of a learner that can carry its state across processes (it saves it, or keeps none) is
seven units: one per play of [`PLAN`][continual_arc.protocol.plan.PLAN], waiting for what the play
waits for (the tests for the stream, whose end state and task names they start from), and
``conclude`` (which waits for the six and writes ``protocol.json``, the plots and ``submission.json``). A
learner that keeps state it cannot save plays its whole protocol as one unit, in one process.

A worker runs a unit with [`run_unit`][continual_arc.sweep.units.run_unit]. It holds an exclusive lock on the
play (``<protocol>/.sweep/<play>.lock``) while it plays, so two workers never write one run directory
(a worker of a killed driver still finishing, a retry racing a slow death); it skips a play that
is already finished, and resumes an unfinished one from its last committed round (every play runs
with ``resume=True``). While it plays it keeps ``<play>.progress`` up to date (the driver's progress
bar reads it), and a failure leaves its traceback in ``<play>.error``.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (read_progress validates).
from typing_extensions import TypedDict

from ..core.documents import DocumentError, parse_document
from ..core.files import atomic_write_text, read_json
from ..core.records import closed
from ..data.cache import NO_CACHE_ENV
from ..data.directory import DATA_ENV
from ..play.learner import Keeps
from ..play.options import RunProgress
from ..protocol.conclude import conclude
from ..protocol.jobs import play_job
from ..protocol.plan import PLAN
from ..protocol.play import ProtocolOptions, ProtocolSpec, planned_job, play_protocol
from ..protocol.plays import PROTOCOL_PLAYS, play_finished

__all__ = [
    "Unit",
    "UnitResult",
    "bookkeeping",
    "driver_env",
    "is_finished",
    "protocol_units",
    "read_progress",
    "run_unit",
]

_ENV_KEYS = (DATA_ENV, NO_CACHE_ENV)


@dataclass(frozen=True)
class Unit:
    """One unit of a sweep, as a worker receives it (everything picklable).

    Attributes:
        id: ``<protocol directory>/<play>``, unique in the sweep.
        kind: ``play`` (one play), ``conclude`` (a protocol's end) or ``protocol`` (a whole
            protocol in one process).
        play: the play's name (``stream``, ``held-out``, ...), or the kind for the others.
        spec: what the protocol plays.
        options: how (its directory, run options, resamples).
        after: the ids of the units it waits for.
        slots: the instances it plays (the progress bar's weight).
        stateless: the learner keeps nothing (a test then starts fresh, not from the stream's state).
        cpus, gpus: what it asks of the engine.
        env: the data directory and cache switch the driver runs with (``None``: unset).
        session: the driver's session, written in the progress file.
    """

    id: str
    kind: str
    play: str
    spec: ProtocolSpec
    options: ProtocolOptions
    after: tuple[str, ...] = ()
    slots: int = 0
    stateless: bool = False
    cpus: float = 1.0
    gpus: float = 0.0
    env: Mapping[str, str | None] = field(default_factory=dict)
    session: str = ""


@dataclass(frozen=True)
class UnitResult:
    """What a worker reports: ``done`` (played now), ``skipped`` (already finished) or ``failed``."""

    id: str
    status: str
    error: str | None = None
    seconds: float = 0.0


def driver_env() -> dict[str, str | None]:
    """The data directory and cache switch of this process, for the workers to run with."""
    return {key: os.environ.get(key) for key in _ENV_KEYS}


def bookkeeping(protocol: Path) -> Path:
    """The directory of a protocol's locks, progress files and errors."""
    return protocol / ".sweep"


def is_finished(unit: Unit) -> bool:
    """Whether the unit's work is already on disk (a finished play, or a written ``protocol.json``)."""
    out = unit.options.out
    if unit.kind == "play":
        return _play_finished(out / PROTOCOL_PLAYS[unit.play])
    concluded = out / "protocol.json"
    if not concluded.exists() or not all(_play_finished(out / p) for p in PROTOCOL_PLAYS.values()):
        return False
    newest = max((out / p / "summary.json").stat().st_mtime for p in PROTOCOL_PLAYS.values())
    return concluded.stat().st_mtime >= newest


def _play_finished(run_dir: Path) -> bool:
    # a play stopped at the spend cap has a summary too, and must be played on (resumed), not skipped
    if not play_finished(run_dir):
        return False  # the runner removes the summary when it resumes and writes it last
    summary = run_dir / "summary.json"
    try:
        return bool(read_json(summary).get("complete", True))
    except (OSError, ValueError):
        return False


def protocol_units(key: str, slots: Mapping[str, int], keeps: Keeps, base: Unit) -> list[Unit]:
    """The units of one protocol.

    Args:
        key: the protocol's id in the sweep (its directory, relative to the sweep's).
        slots: the instances of each play.
        keeps: whether the learner saves its state, and whether it is stateless.
        base: a unit holding the protocol's spec and options, and the fields every unit of the sweep
            shares (resources, env, session).
    """

    def unit(play: str, kind: str = "play") -> Unit:
        return replace(base, id=f"{key}/{play}", kind=kind, play=play)

    stateless = keeps.stateless
    if not keeps.crosses_processes:
        return [replace(unit("protocol", "protocol"), slots=sum(slots.values()))]
    units = [
        replace(
            unit(p.name), slots=slots[p.name], stateless=stateless, after=tuple(f"{key}/{a}" for a in p.after)
        )
        for p in PLAN
    ]
    plays = tuple(u.id for u in units)
    last = replace(unit("conclude", "conclude"), after=plays, cpus=min(base.cpus, 1.0), gpus=0.0)
    return [*units, last]


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # released by the kernel if this process dies
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class _Progress:
    """Keeps ``<play>.progress`` current, at most once a second (and at the end)."""

    def __init__(self, path: Path, unit: Unit) -> None:
        self.path, self.unit, self.last = path, unit, 0.0
        self.write(0, unit.slots)

    def write(self, done: int, total: int) -> None:
        record: PlayProgress = {
            "session": self.unit.session,
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "instances_done": done,
            "instances_total": total,
        }
        atomic_write_text(self.path, json.dumps(record) + "\n", fsync=False)

    def __call__(self, p: RunProgress) -> None:
        now = time.monotonic()
        if now - self.last >= 1.0 or p.rounds_done == p.rounds_total:
            self.last = now
            self.write(p.instances_done, p.instances_total)


@closed
class PlayProgress(TypedDict):
    """``<play>.progress``: which worker of which session plays it, and how far it has come."""

    session: str
    pid: int
    host: str
    instances_done: int
    instances_total: int


def read_progress(protocol: Path, play: str) -> PlayProgress | None:
    """The progress a worker last wrote for a play (`_Progress`), or ``None`` (none, or not one)."""
    path = bookkeeping(protocol) / f"{play}.progress"
    try:
        return parse_document(PlayProgress, path.read_bytes(), str(path))
    except (OSError, DocumentError):
        return None


def _apply_env(env: Mapping[str, str | None]) -> None:
    # A worker process (a Ray worker is reused) runs each unit under the driver's data directory.
    for key, value in env.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _play(unit: Unit, progress: _Progress) -> None:
    spec, options = unit.spec, unit.options
    if unit.kind == "conclude":
        conclude(spec, options)
        return
    if unit.kind == "protocol":
        play_protocol(spec, replace(options, jobs=1))
        return
    play_job(planned_job(spec, options, PLAN[unit.play], unit.stateless), progress=progress)


def run_unit(unit: Unit) -> UnitResult:
    """Run one unit in this process: skip it if finished, else play or resume it under its lock.

    A failure of the unit's own (a learner's fault that stops the run, a refused directory) is
    returned as ``failed`` with its message, its traceback left in ``<play>.error``; the death of
    the process is the engine's to see and retry.
    """
    _apply_env(unit.env)
    marks = bookkeeping(unit.options.out)
    start = time.monotonic()
    with _locked(marks / f"{unit.play}.lock"):
        if is_finished(unit):
            return UnitResult(unit.id, "skipped")
        (marks / f"{unit.play}.error").unlink(missing_ok=True)
        progress = _Progress(marks / f"{unit.play}.progress", unit)
        try:
            _play(unit, progress)
        except Exception as err:
            atomic_write_text(marks / f"{unit.play}.error", traceback.format_exc())
            return UnitResult(unit.id, "failed", f"{type(err).__name__}: {err}", time.monotonic() - start)
        progress.write(unit.slots, unit.slots)
    return UnitResult(unit.id, "done", None, time.monotonic() - start)
