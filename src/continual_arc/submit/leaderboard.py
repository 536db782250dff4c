"""The leaderboard over submitted results: each one checked, then ranked within its track and users.

``continual-arc leaderboard DIR...`` reads result directories (what ``continual-arc check``
accepts: a protocol directory holding ``submission.json``). Each is checked first
(:func:`~continual_arc.submit.check.check_submission`, :func:`check_result`); a result the checker
refuses is listed with its reason and never ranked. The rest are grouped by track and number of
users, and ranked there as the sweep's table ranks (:mod:`continual_arc.sweep.table`): by ``U``
on the learner's stream, lowest first, shown with its standard error over tasks
(:func:`~continual_arc.measure.pool.budget_estimate`). Beside it each row holds the learner, the
student and teacher models and the effort the submission names, the place on the plane (the
share saved on each test with its 95 % interval), ``U`` and ``P`` of learner and reset, the share
learned over the stream, the flags and the status.

The status is the result's standing, from its signature alone
(:func:`~continual_arc.submit.standing.standing_of`): *reported* unless a key the reader trusts
signed it as *reproduced* (a rerun on a track's public tasks) or *verified* (a rerun on a rule
pack), over exactly the files it holds. :func:`leaderboard` is pure: it reads nothing but
the :class:`Checked` results it is given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ..core.errors import ContinualArcError
from ..core.files import RecordsError, read_json
from ..core.jsonable import fields_json
from ..core.records import JSONValue, Phase, Play
from ..measure.bootstrap import EstimateJSON
from ..measure.compare import TestComparisonJSON
from ..measure.pool import BudgetEstimate, budget_estimate
from ..play.rundir import read_meta, read_records
from .check import CheckNumbers, check_submission
from .leaderboard_flags import RECORDS_ONLY, flags, status
from .leaderboard_json import (
    LeaderboardJSON,
    RefusalJSON,
    RowJSON,
    SavedOnTest,
    Setting,
    TableJSON,
)
from .standing import Standing, TrustedKeys

__all__ = [
    "SUBMISSION",
    "Checked",
    "Leaderboard",
    "LeaderboardError",
    "Refusal",
    "Row",
    "Table",
    "check_result",
    "find_results",
    "flags",
    "leaderboard",
    "status",
]

SUBMISSION = "submission.json"
"""The file that makes a directory a result."""


class LeaderboardError(ContinualArcError):
    """A path given to the leaderboard that is not a result, nor a folder holding any."""


@dataclass(frozen=True)
class Checked:
    """One result directory as the checker found it, with what the table reads beside its numbers.

    Attributes:
        path: the result directory.
        ok: whether every check held.
        problems: the checker's problems, one line each.
        numbers: the checker's numbers (``None`` when the runs they need are unusable).
        submission: ``submission.json`` (empty when it cannot be read).
        verification: ``verification.json`` (``None`` without one).
        setting: the stream's ``track``, ``config``, ``users`` and ``seed`` (empty when unreadable).
        stream: ``U`` with its standard error and ``P`` on the learner's stream (``None`` when unread).
        records_only: stored without trajectories, checked on everything but their replay.
        standing: its standing, from its signature (``None``: not read).
    """

    path: str
    ok: bool
    problems: tuple[str, ...]
    numbers: CheckNumbers | None
    submission: Mapping[str, JSONValue]
    verification: Mapping[str, JSONValue] | None
    setting: Setting
    stream: BudgetEstimate | None
    records_only: bool = False
    standing: Standing | None = None


def _read_object(path: Path) -> Mapping[str, JSONValue] | None:
    """A JSON object file, or ``None`` when it is missing, unreadable or not an object (check says why)."""
    try:
        value = read_json(path)
    except (FileNotFoundError, RecordsError):
        return None
    return value if isinstance(value, Mapping) else None


def _setting(stream_dir: Path | None) -> tuple[Setting, BudgetEstimate | None]:
    """The stream's setting (from its meta) and ``U`` with its standard error over its records."""
    if stream_dir is None:
        return {}, None
    try:
        schedule = read_meta(stream_dir)["schedule"]
        records = read_records(stream_dir)
    except (ContinualArcError, OSError):
        return {}, None  # the checker has already said why the stream is unusable
    setting: Setting = {
        "track": schedule.get("track"),
        "config": schedule.get("config"),
        "users": schedule.get("users"),
        "seed": schedule.get("seed"),
    }
    return setting, budget_estimate(records, Phase.STREAM)


def check_result(
    path: Path | str,
    *,
    regenerate: bool = True,
    resamples: int = 10_000,
    seed: int = 0,
    allow_ablation: bool = False,
    records_only: bool = True,
    trusted: TrustedKeys | None = None,
) -> Checked:
    """Check one result directory and read what its row needs beside the checker's numbers.

    Args:
        path: the result directory (holding ``submission.json``).
        regenerate: replay every instance (as ``check`` does unless ``--no-regenerate``).
        resamples: bootstrap resamples of the numbers.
        seed: the bootstrap's seed.
        allow_ablation: accept runs that are not canonical (ranked, flagged as an ablation).
        records_only: accept runs stored without trajectories (flagged :data:`RECORDS_ONLY`).
        trusted: the keys whose signatures give a standing (default: the repository's and local).
    """
    root = Path(path)
    result = check_submission(
        root,
        regenerate=regenerate,
        resamples=resamples,
        seed=seed,
        allow_ablation=allow_ablation,
        records_only=records_only,
        trusted=trusted,
    )
    stream = result.runs.get(Play.STREAM)
    setting, estimate = _setting(Path(stream) if stream else None)
    return Checked(
        path=str(root),
        ok=result.ok,
        problems=tuple(result.problems),
        numbers=result.numbers,
        submission=_read_object(root / SUBMISSION) or {},
        verification=_read_object(root / "verification.json"),
        setting=setting,
        stream=estimate,
        records_only=result.records_only,
        standing=result.standing,
    )


def _results_under(root: Path) -> list[Path]:
    """The result directories under ``root``, sorted; a result's own folders are not searched."""
    found: list[Path] = []
    for current, dirs, files in os.walk(root, followlinks=False):
        if SUBMISSION in files:
            found.append(Path(current))
            dirs.clear()  # its runs are its own, not other results
        else:
            dirs.sort()
    return sorted(found)


def find_results(paths: Iterable[Path | str]) -> list[Path]:
    """The result directories given: each path that holds ``submission.json``, or every one under it.

    Raises:
        LeaderboardError: a path that does not exist, or holds no result at any depth.
    """
    found: list[Path] = []
    for given in map(Path, paths):
        if not given.is_dir():
            raise LeaderboardError(
                f"{given} is not a directory: give result directories (holding {SUBMISSION})"
            )
        if (given / SUBMISSION).is_file():
            found.append(given)
            continue
        under = _results_under(given)
        if not under:
            raise LeaderboardError(
                f"{given} is not a result: neither it nor any folder under it holds {SUBMISSION} "
                "(continual-arc protocol writes one)"
            )
        found += under
    return list(dict.fromkeys(found))  # a result named twice (a folder and its parent) ranks once


@dataclass(frozen=True)
class Row:
    """One ranked result.

    Attributes:
        rank: its place in its table, from 1.
        path: the result directory; name: the name ``submission.json`` gives it.
        learner: the learner's import path; student, teacher, effort: as the submission names them.
        config, seed: the stream's configuration and seed.
        stream: ``U`` with its standard error over tasks, and ``P``, on the learner's stream.
        reset: ``U`` and ``P`` of the reset on the same stream.
        learned: the share learned over the stream, with its interval (``None`` without it).
        seen, held_out: each test's share saved with its interval, T, and U and P of learner and reset.
        flags: one line per flag; status: ``reported``, ``reproduced`` or ``verified``.
        canonical: whether the runs are the track's canonical protocol.
    """

    rank: int
    path: str
    name: str
    learner: str
    student: str | None
    teacher: str | None
    effort: str | None
    config: str | None
    seed: int | None
    stream: BudgetEstimate
    reset: Mapping[str, float | None]
    learned: EstimateJSON | None
    seen: SavedOnTest
    held_out: SavedOnTest
    flags: tuple[str, ...]
    status: str
    canonical: bool

    def to_json(self) -> RowJSON:
        """The row as JSON (every field, by :func:`~continual_arc.core.jsonable.fields_json`)."""
        return cast(RowJSON, fields_json(self))


@dataclass(frozen=True)
class Table:
    """The ranked results of one track at one number of users."""

    track: str
    users: int
    rows: tuple[Row, ...]

    def to_json(self) -> TableJSON:
        """The table as JSON (every field, by :func:`~continual_arc.core.jsonable.fields_json`)."""
        return cast(TableJSON, fields_json(self))


@dataclass(frozen=True)
class Refusal:
    """A result the checker refused: never ranked.

    Attributes:
        path: the result directory; name: its name, when ``submission.json`` gives one.
        reason: the checker's first problem; problems: how many it found.
    """

    path: str
    name: str | None
    reason: str
    problems: int

    def to_json(self) -> RefusalJSON:
        """The refusal as JSON (every field, by :func:`~continual_arc.core.jsonable.fields_json`)."""
        return cast(RefusalJSON, fields_json(self))


@dataclass(frozen=True)
class Leaderboard:
    """Every table, by track then users, and every refused result."""

    tables: tuple[Table, ...]
    refused: tuple[Refusal, ...]

    def to_json(self) -> LeaderboardJSON:
        """The leaderboard as JSON (what ``--json FILE`` writes)."""
        return {
            "format": 1,
            "ranked_by": "U on the learner's stream, lowest first",
            "tables": [table.to_json() for table in self.tables],
            "refused": [refusal.to_json() for refusal in self.refused],
        }


def _test(comparison: TestComparisonJSON) -> SavedOnTest:
    return {
        "share_saved": comparison["share_saved"],
        "saving": comparison["saving"],
        "learner": comparison["learner"],
        "reset": comparison["reset"],
        "instances": comparison["instances"],
        "tasks": comparison["tasks"],
    }


def _row(checked: Checked, rank: int) -> Row:
    numbers, submission = checked.numbers, checked.submission
    assert numbers is not None and checked.stream is not None  # read for a ranked result (see _rankable)
    learned, protocol = numbers.get("learned"), numbers.get("protocol")
    return Row(
        rank=rank,
        path=checked.path,
        name=str(submission.get("name") or Path(checked.path).name),
        learner=str(submission.get("learner") or ""),
        student=_text(submission.get("student")),
        teacher=_text(submission.get("teacher")),
        effort=_text(submission.get("effort")),
        config=checked.setting.get("config"),
        seed=checked.setting.get("seed"),
        stream=checked.stream,
        reset=dict(learned["reset"]) if learned else {"budget_used": None, "share_solved": None},
        learned=learned["share_learned"] if learned else None,
        seen=_test(numbers["seen"]),
        held_out=_test(numbers["held-out"]),
        flags=flags(numbers) + ((RECORDS_ONLY,) if checked.records_only else ()),
        status=status(checked.standing),
        canonical=bool(protocol and protocol.get("canonical")),
    )


def _text(value: JSONValue) -> str | None:
    """A name ``submission.json`` gives (a model, a teacher, an effort) as text, ``None`` if none."""
    return None if value is None else str(value)


def _rankable(checked: Checked) -> bool:
    return checked.ok and checked.numbers is not None and checked.stream is not None and bool(checked.setting)


def _refusal(checked: Checked) -> Refusal:
    problems = checked.problems or ("its numbers could not be computed",)
    name = checked.submission.get("name")
    return Refusal(checked.path, str(name) if name else None, problems[0], len(checked.problems))


def _order(checked: Checked) -> tuple[float, str, str]:
    used = checked.stream.budget_used if checked.stream is not None else None
    name = str(checked.submission.get("name") or "")
    return (float("inf") if used is None else used, name, checked.path)


def leaderboard(results: Sequence[Checked]) -> Leaderboard:
    """The leaderboard of checked results: a table per track and users, ranked by ``U``, lowest first.

    Ties in ``U`` are broken by name, then path, so the order never depends on the order given.
    A result the checker refused is listed in ``refused`` and appears in no table.
    """
    groups: dict[tuple[str, int], list[Checked]] = {}
    for checked in results:
        if _rankable(checked):
            key = (str(checked.setting.get("track")), int(checked.setting.get("users") or 1))
            groups.setdefault(key, []).append(checked)
    tables = tuple(
        Table(track, users, tuple(_row(c, i) for i, c in enumerate(sorted(members, key=_order), 1)))
        for (track, users), members in sorted(groups.items())
    )
    refused = tuple(_refusal(c) for c in sorted(results, key=lambda c: c.path) if not _rankable(c))
    return Leaderboard(tables, refused)
