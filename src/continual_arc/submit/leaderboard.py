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

The status is *reported* until a rerun says otherwise: a ``verification.json`` that the checker
accepted makes it *reproduced* (a rerun on a track's public tasks) or *verified* (a rerun on a
rule pack, tied to the pack's manifest digest). :func:`leaderboard` is pure: it reads nothing but
the :class:`Checked` results it is given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypedDict

from ..core.config import TESTS
from ..core.errors import ContinualArcError
from ..core.files import RecordsError, read_json
from ..measure.bootstrap import EstimateJSON
from ..measure.pool import BudgetEstimate, budget_estimate
from ..play.rundir import read_meta, read_records
from .check import check_submission

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
    """

    path: str
    ok: bool
    problems: tuple[str, ...]
    numbers: Mapping[str, Any] | None
    submission: Mapping[str, Any]
    verification: Mapping[str, Any] | None
    setting: Mapping[str, Any]
    stream: BudgetEstimate | None


def _read_object(path: Path) -> Mapping[str, Any] | None:
    """A JSON object file, or ``None`` when it is missing, unreadable or not an object (check says why)."""
    try:
        value = read_json(path)
    except (FileNotFoundError, RecordsError):
        return None
    return value if isinstance(value, Mapping) else None


def _setting(stream_dir: Path | None) -> tuple[dict[str, Any], BudgetEstimate | None]:
    """The stream's setting (from its meta) and ``U`` with its standard error over its records."""
    if stream_dir is None:
        return {}, None
    try:
        schedule = dict(read_meta(stream_dir)["schedule"])
        records = read_records(stream_dir)
    except (ContinualArcError, OSError):
        return {}, None  # the checker has already said why the stream is unusable
    setting = {key: schedule.get(key) for key in ("track", "config", "users", "seed")}
    return setting, budget_estimate(records, "stream")


def check_result(
    path: Path | str,
    *,
    regenerate: bool = True,
    resamples: int = 10_000,
    seed: int = 0,
    allow_ablation: bool = False,
) -> Checked:
    """Check one result directory and read what its row needs beside the checker's numbers.

    Args:
        path: the result directory (holding ``submission.json``).
        regenerate: replay every instance (as ``check`` does unless ``--no-regenerate``).
        resamples: bootstrap resamples of the numbers.
        seed: the bootstrap's seed.
        allow_ablation: accept runs that are not canonical (ranked, flagged as an ablation).
    """
    root = Path(path)
    result = check_submission(
        root, regenerate=regenerate, resamples=resamples, seed=seed, allow_ablation=allow_ablation
    )
    stream = result.runs.get("stream")
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


class SavedOnTest(TypedDict):
    """What a row shows of one test: the share saved and T with their intervals, U and P of each side."""

    share_saved: EstimateJSON
    saving: EstimateJSON
    learner: dict[str, float | None]
    reset: dict[str, float | None]
    instances: int
    tasks: int


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

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        out = asdict(self)
        out["stream"], out["flags"] = self.stream.to_json(), list(self.flags)
        return out


@dataclass(frozen=True)
class Table:
    """The ranked results of one track at one number of users."""

    track: str
    users: int
    rows: tuple[Row, ...]

    def to_json(self) -> dict[str, Any]:
        """The table as JSON."""
        return {"track": self.track, "users": self.users, "rows": [row.to_json() for row in self.rows]}


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

    def to_json(self) -> dict[str, Any]:
        """The refusal as JSON."""
        return asdict(self)


@dataclass(frozen=True)
class Leaderboard:
    """Every table, by track then users, and every refused result."""

    tables: tuple[Table, ...]
    refused: tuple[Refusal, ...]

    def to_json(self) -> dict[str, Any]:
        """The leaderboard as JSON (what ``--json FILE`` writes)."""
        return {
            "format": 1,
            "ranked_by": "U on the learner's stream, lowest first",
            "tables": [table.to_json() for table in self.tables],
            "refused": [refusal.to_json() for refusal in self.refused],
        }


def status(verification: Mapping[str, Any] | None) -> str:
    """The status of a checked result: ``verified`` only when its rerun is tied to a pack manifest."""
    if verification is None:
        return "reported"
    about = verification.get("about")
    about = about if isinstance(about, Mapping) else {}
    if verification.get("mode") == "verified" and about.get("manifest_sha256"):
        return "verified"
    return "reproduced" if verification.get("mode") == "reproduced" else "reported"


def flags(numbers: Mapping[str, Any]) -> tuple[str, ...]:
    """A checked result's flags: not canonical, a reset below the bare model, the reset reference's flags."""
    out: list[str] = []
    protocol = numbers.get("protocol") or {}
    if not protocol.get("canonical"):
        out.append("ablation: " + "; ".join(protocol.get("deviations") or ["not canonical"]))
    out += [
        f"the reset plays below the bare model on the {t} test"
        for t in TESTS
        if numbers[t]["reset_below_bare"]
    ]
    out += list((numbers.get("flags") or {}).get("messages", []))
    return tuple(out)


def _test(comparison: Mapping[str, Any]) -> SavedOnTest:
    return {
        "share_saved": comparison["share_saved"],
        "saving": comparison["saving"],
        "learner": comparison["learner"],
        "reset": comparison["reset"],
        "instances": comparison["instances"],
        "tasks": comparison["tasks"],
    }


def _row(checked: Checked, rank: int) -> Row:
    numbers, submission = checked.numbers or {}, checked.submission
    learned = numbers.get("learned")
    assert checked.stream is not None  # a checked result's stream was read (see _rankable)
    return Row(
        rank=rank,
        path=checked.path,
        name=str(submission.get("name") or Path(checked.path).name),
        learner=str(submission.get("learner") or ""),
        student=submission.get("student"),
        teacher=submission.get("teacher"),
        effort=submission.get("effort"),
        config=checked.setting.get("config"),
        seed=checked.setting.get("seed"),
        stream=checked.stream,
        reset=dict(learned["reset"]) if learned else {"budget_used": None, "share_solved": None},
        learned=learned["share_learned"] if learned else None,
        seen=_test(numbers["seen"]),
        held_out=_test(numbers["held-out"]),
        flags=flags(numbers),
        status=status(checked.verification),
        canonical=bool((numbers.get("protocol") or {}).get("canonical")),
    )


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
