"""The run directory: what the runner writes, in what order, and how a resumed run reads it back.

::

    meta.json        written first: the schedule's meta and protocol block, the learner, versions
    schedule.json    the schedule played (replaced by a longer one when a cut run is resumed)
    alias-salt       the salt of the task names the learner saw
    run-id           the run's id, handed to a learner with join_run (the same when resumed)
    records.jsonl    one line per instance, appended a whole round at a time, flushed and fsynced
    i/<step>.json    one trajectory per instance: every observation, action and feedback
    i/addon-<n>.json the trajectory of the run's n-th auxiliary episode (asked for by a plug-in)
    state/round-<r>/ the learner's saved state after the last committed round (save_state)
    memory.json      what the learner says it kept (its optional memory() hook), at the end
    plugins.json     with plug-ins, at the end: what their run-level hooks said, totals, any stop
    stopped.json     when the spend cap stopped the run: the round in progress (not committed), why
    summary.json     written last: the run's measures, recomputable from records.jsonl

A round is committed in this order: the learner's state is saved to ``state/round-<r>/`` (a
marker naming the round written last), the trajectories are written, the round's records are
appended in one write and fsynced, and the states of earlier rounds are deleted. Rounds played
while the disk was busy are committed together ([`write_rounds`][continual_arc.play.rundir.write_rounds]): all
their trajectories, then all their records in one write and one fsync. A crash anywhere leaves whole rounds
only: [`committed_rounds`][continual_arc.play.rundir.committed_rounds] drops a partial round from the records,
and [`state_for_round`][continual_arc.play.rundir.state_for_round] finds the state saved after the last
committed round (it is deleted only once a later round's records are durable).

A round's records are its slots' (``episode_type: "primary"``) followed by the auxiliary episodes
plug-ins asked for (``episode_type: "addon"``). When there are any, every record of the round
carries their number in ``round_addons``, so that a round cut after its primary records is seen
to be partial.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..core.documents import (
    DocumentError,
    parse_document_as_written,
    parse_records,
    parse_run_meta,
    parse_trajectory,
)
from ..core.errors import ContinualArcError
from ..core.files import (
    RecordsError,
    append_jsonl,
    atomic_write_json,
    atomic_write_text,
    fsync_dir,
    read_json,
    truncate_partial_line,
)
from ..core.records import (
    Record,
    RunMeta,
    Trajectory,
    is_primary,
    records_text,
    trajectory_text,
)
from ..measure.summary import Stopped, Summary
from .aliases import RUN_ID_FILE, SALT_FILE
from .learner import SavesState

__all__ = [
    "META",
    "PLUGINS",
    "RECORDS",
    "SCHEDULE",
    "STOPPED",
    "SUMMARY",
    "CommittedRound",
    "Run",
    "RunDirError",
    "committed_rounds",
    "invalid_reasons",
    "is_empty_run_dir",
    "prune_states",
    "read_meta",
    "read_records",
    "read_run",
    "read_trajectory",
    "save_learner_state",
    "setup_complete",
    "state_for_round",
    "trajectory_name",
    "write_rounds",
    "write_trajectory",
]

META, RECORDS, SUMMARY, SCHEDULE = "meta.json", "records.jsonl", "summary.json", "schedule.json"
PLUGINS = "plugins.json"
STOPPED = "stopped.json"
_STATE, _MARKER = "state", "_round.json"

T = TypeVar("T")


class RunDirError(ContinualArcError, RuntimeError):
    """A run directory that cannot be used as asked."""


@dataclass(frozen=True)
class Run:
    """A run directory read back, each file validated against its declaration.

    Attributes:
        path: the run directory.
        meta: its ``meta.json``.
        records: its ``records.jsonl`` (empty when read with ``header_only``, or before any round).
        summary: its ``summary.json`` (``None`` until the run has finished).
        stopped: its ``stopped.json``, when the spend cap stopped it (else ``None``).
    """

    path: Path
    meta: RunMeta
    records: list[Record]
    summary: Summary | None
    stopped: Stopped | None = None

    def trajectory(self, record: Record) -> Trajectory | None:
        """A record's trajectory (``i/<name>.json``), or ``None`` when it is missing or unreadable."""
        return read_trajectory(self.path, record)


def _optional(path: Path, kind: type[T]) -> T | None:
    """A file validated as ``kind`` and read as written (``report`` prints it), or ``None`` if absent."""
    try:
        return parse_document_as_written(kind, path.read_bytes(), str(path))
    except FileNotFoundError:
        return None
    except DocumentError as err:
        raise RecordsError(str(err)) from None


def read_run(path: Path | str, *, header_only: bool = False) -> Run:
    """Read a run directory, every file validated where it is read (as inspect_ai's ``read_eval_log``).

    Args:
        path: the run directory.
        header_only: read its meta, summary and stop only, not its records (a large run's are many).

    Raises:
        RunDirError: it is not a run directory, or its ``meta.json`` is not a run's meta.
        RecordsError: ``records.jsonl``, ``summary.json`` or ``stopped.json`` is not valid JSON or
            not what it declares (one sentence naming the file, the line and the field).
    """
    path = Path(path)
    meta = read_meta(path)
    records = [] if header_only else read_records(path)
    return Run(path, meta, records, _optional(path / SUMMARY, Summary), _optional(path / STOPPED, Stopped))


def _leftover(name: str) -> bool:
    """A temporary file an atomic write left when its process was killed."""
    return name.startswith(".") and name.endswith(".tmp")


def is_empty_run_dir(path: Path, *, interrupted_setup: bool = False) -> bool:
    """Whether ``path`` holds no run.

    It may hold an ``alias-salt`` (a test's copied names), a ``run-id`` (of a run killed before its
    setup ended) and temporary files of writes a kill cut short. With ``interrupted_setup``, a
    ``meta.json`` and ``schedule.json`` without records (a run killed while it was being set up,
    before any round) count as empty too.
    """
    if not path.exists():
        return True
    allowed = {SALT_FILE, RUN_ID_FILE} | ({META, SCHEDULE} if interrupted_setup else set())
    if interrupted_setup and (path / RECORDS).exists():
        return False
    return all(child.name in allowed or _leftover(child.name) for child in path.iterdir())


def setup_complete(path: Path) -> bool:
    """Whether a run was set up whole: its ``meta.json`` and ``schedule.json`` both written."""
    return (path / META).exists() and (path / SCHEDULE).exists()


def read_meta(run_dir: Path) -> RunMeta:
    """The run's ``meta.json``."""
    try:
        return parse_run_meta((run_dir / META).read_bytes(), str(run_dir / META))
    except FileNotFoundError:
        raise RunDirError(f"{run_dir} has no {META}: not a run directory") from None
    except DocumentError as err:
        raise RunDirError(str(err)) from None


def read_records(run_dir: Path, *, allow_partial_tail: bool = False) -> list[Record]:
    """The run's records (empty when there are none yet).

    Raises:
        RecordsError: a line is not valid JSON, or not a record (naming the line and the field).
    """
    path = run_dir / RECORDS
    if not path.exists():
        return []
    try:
        return parse_records(
            path.read_text(encoding="utf-8"), str(path), allow_partial_tail=allow_partial_tail
        )
    except DocumentError as err:
        raise RecordsError(str(err)) from None


def _round_is_whole(path: Path, round_: int, group: Sequence[Record], size: int) -> bool:
    """Whether a round's records are whole (``size`` primary ones and every auxiliary one)."""
    primaries = sum(1 for r in group if is_primary(r))
    addons = max((int(r.get("round_addons", 0)) for r in group), default=0)
    if primaries > size or len(group) - primaries > addons:
        raise RunDirError(f"{path}: round {round_} holds more than its {size} records")
    return primaries == size and len(group) - primaries == addons


def committed_rounds(run_dir: Path, round_sizes: Sequence[int]) -> list[Record]:
    """Repair ``records.jsonl`` to whole rounds and return its records.

    Cuts a trailing line left incomplete by a crash, then any records of a round that is not
    complete (``round_sizes[r]`` primary records expected for round ``r``, and as many auxiliary
    ones as its ``round_addons`` says), rewriting nothing before them.

    Raises:
        RunDirError: a record lies outside the schedule, or rounds are out of order.
    """
    path = run_dir / RECORDS
    truncate_partial_line(path)
    records = read_records(run_dir)
    whole = 0
    index = 0
    while index < len(records):
        round_ = records[index].get("round")
        if not isinstance(round_, int) or round_ != whole or round_ >= len(round_sizes):
            raise RunDirError(f"{path}: record {index} is round {round_!r}, expected round {whole}")
        end = index
        while end < len(records) and records[end].get("round") == round_:
            end += 1
        if not _round_is_whole(path, round_, records[index:end], round_sizes[round_]):
            if end < len(records):
                raise RunDirError(f"{path}: round {round_} does not hold its {round_sizes[round_]} records")
            break
        index = end
        whole += 1
    if index < len(records):
        kept = records_text(records[:index])
        # Rewritten atomically: a crash here leaves the old file, which the next resume cuts again.
        atomic_write_text(path, kept)
    return records[:index]


def trajectory_name(record: Record) -> str:
    """The name of a record's trajectory in ``i/``: its step, or ``addon-<n>`` for an auxiliary episode."""
    if is_primary(record):
        return str(record["step"])
    return f"addon-{record['addon_index']}"


def write_trajectory(run_dir: Path, step: int | str, trajectory: Trajectory, *, fsync: bool = True) -> None:
    """Write ``i/<step>.json`` atomically ([`trajectory_text`][continual_arc.core.records.trajectory_text]).

    ``step`` is the slot's step, or the name [`trajectory_name`][continual_arc.play.rundir.trajectory_name]
    gives.
    """
    atomic_write_text(run_dir / "i" / f"{step}.json", trajectory_text(trajectory), fsync=fsync)


def read_trajectory(run_dir: Path, record: Record) -> Trajectory | None:
    """A record's trajectory (``i/<step>.json``), or ``None`` when it is missing or unreadable."""
    path = run_dir / "i" / f"{trajectory_name(record)}.json"
    try:
        return parse_trajectory(path.read_bytes(), str(path))
    except (FileNotFoundError, DocumentError):
        return None


def invalid_reasons(run_dir: Path, records: Sequence[Record]) -> list[str]:
    """Why each invalid submission of the run was refused, from the trajectories (without the place)."""
    reasons: list[str] = []
    for record in records:
        if not any(action.get("invalid") for action in record.get("actions", [])):
            continue
        trajectory = read_trajectory(run_dir, record)
        for event in trajectory["events"] if trajectory else []:
            why = (event["feedback"] or {}).get("invalid")
            if why:
                reasons.append(str(why).split(" at row")[0])
    return reasons


def _state_dir(run_dir: Path, round_: int) -> Path:
    return run_dir / _STATE / f"round-{round_:06d}"


def save_learner_state(learner: SavesState, run_dir: Path, round_: int) -> None:
    """Save the learner's state after ``round_`` into ``state/round-<round_>/`` (marker written last)."""
    target = _state_dir(run_dir, round_)
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    learner.save_state(target)
    atomic_write_json(target / _MARKER, {"round": round_})


@dataclass(frozen=True)
class CommittedRound:
    """A played round, as it is committed: its number, its records and their trajectories, in order."""

    round: int
    records: Sequence[Record]
    trajectories: Sequence[Trajectory]


def write_rounds(run_dir: Path, rounds: Sequence[CommittedRound]) -> None:
    """Commit played rounds, in order: trajectories, then the records in one fsynced write, then prune states.

    Once the records are durable, the states of earlier rounds are no longer needed; a state saved
    meanwhile for a later round (the caller's thread saves it before the next round) is kept.
    """
    if not rounds:
        return
    for played in rounds:
        for record, trajectory in zip(played.records, played.trajectories, strict=True):
            write_trajectory(run_dir, trajectory_name(record), trajectory, fsync=False)
    if any(played.trajectories for played in rounds):
        fsync_dir(run_dir / "i")  # one flush for the rounds' renames, before their records
    # append_jsonl writes each line as records_text does (one fsynced write); tests cut it to crash.
    append_jsonl(run_dir / RECORDS, [record for played in rounds for record in played.records])
    prune_states(run_dir, keep=rounds[-1].round, later=True)


def prune_states(run_dir: Path, keep: int, *, later: bool = False) -> None:
    """Delete every saved state but the one after round ``keep`` (and, with ``later``, those after it)."""
    root = run_dir / _STATE
    if not root.is_dir():
        return
    for child in root.iterdir():
        number = _state_round(child.name)
        if number is None or number < keep or (number > keep and not later):
            shutil.rmtree(child, ignore_errors=True)


def _state_round(name: str) -> int | None:
    """The round of a state directory's name (``round-000012``: 12), ``None`` for another name."""
    head, _, digits = name.partition("-")
    return int(digits) if head == "round" and digits.isdigit() else None


def state_for_round(run_dir: Path, round_: int) -> Path | None:
    """The saved state after ``round_``, if it was saved whole (its marker names the round)."""
    target = _state_dir(run_dir, round_)
    try:
        if read_json(target / _MARKER).get("round") == round_:
            return target
    except (FileNotFoundError, RecordsError, AttributeError):
        pass
    return None
