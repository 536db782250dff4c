"""The leaderboard's rows: one checked result as a row, a learner's seeds pooled into one, and its table.

A row's place comes from its standing ([Standing][continual_arc.submit.standing.Standing]), never
from a file a result carries: a verified or reproduced result ranks in the main tables only when a
trusted key signed it ([ranks_with_verified][continual_arc.submit.leaderboard.rows.ranks_with_verified]),
and everything else (self-run results, records-only rows unless their signature covers the
records-only form) is *reported*, in tables of its own.

Seeds of one learner (the same learner and arguments, models, effort, configuration and standing)
are pooled into one row ([pooled_row][continual_arc.submit.leaderboard.rows.pooled_row]) that keeps
each seed's row in ``by_seed``. The pooled ``U`` and ``P`` are over every seed's instances; its
standard error treats the seeds as independent samples, ``sqrt(sum_i (n_i SE_i)^2) / sum_i n_i``.
Every other pooled number is the mean of the seeds' values, its interval the range of those values
(its note says so): the seeds' bootstrap intervals do not combine into one without their records.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...core.jsonable import fields_json
from ...core.records import JSONObject, JSONValue
from ...core.result_files import Submission
from ...measure.bootstrap import Estimate
from ...measure.compare import TestComparison
from ...measure.pool import BudgetEstimate
from ..check import CheckNumbers
from ..standing import Standing, StandingKind
from .documents import SavedOnTest, Setting
from .flags import flags
from .here import NotHere
from .spend import Spend, pooled_spend

__all__ = ["Checked", "Public", "Row", "Table", "pooled_row", "ranks_with_verified", "row_of"]


@dataclass(frozen=True)
class Checked:
    """One result directory as the checker found it, with what the table reads beside its numbers.

    Attributes:
        path: the result directory.
        ok: whether every check held.
        problems: the checker's problems, one line each.
        numbers: the checker's numbers (``None`` when the runs they need are unusable).
        submission: ``submission.json`` (empty when it cannot be read).
        standing: what a trusted signature says the result is (reported when nothing does).
        setting: the stream's ``track``, ``config``, ``users`` and ``seed`` (empty when unreadable).
        stream: ``U`` with its standard error and ``P`` on the learner's stream (``None`` when unread).
        records_only: stored without trajectories, checked on everything but their replay.
        spend: what the learner spent on its own plays (``None`` when unread).
        learner_spec: the stream's learner, class and arguments, as one text (seeds of the same pool).
        learner_code: the digest of the learner's code its stream recorded (its fingerprint).
        not_here: why its track cannot run here (then it was not checked at all).
        experiment: the experiment its runs are marked with (its teacher played instances
            uncharged), ``None`` for a learner: an experiment is listed in a table of its own.
    """

    path: str
    ok: bool
    problems: tuple[str, ...]
    numbers: CheckNumbers | None
    submission: Submission
    standing: Standing
    setting: Setting
    stream: BudgetEstimate | None
    records_only: bool = False
    spend: Spend | None = None
    learner_spec: str = ""
    learner_code: str | None = None
    not_here: NotHere | None = None
    experiment: str | None = None


def ranks_with_verified(checked: Checked) -> tuple[bool, str]:
    """Whether a result ranks in the main tables, and the one sentence of its standing.

    Only a verified or reproduced standing signed by a trusted key ranks there; a records-only
    directory only when its signature covers the records-only form (``runs store --sign-with``).
    """
    standing = checked.standing
    if standing.kind is StandingKind.REPORTED:
        return False, standing.reason
    if standing.signer is None:
        return False, f"it claims to be {standing.kind}, but no trusted key signed it"
    if checked.records_only and not standing.records_only:
        return False, "its trajectories are absent, and its signature covers a directory that held them"
    return True, standing.reason


@dataclass(frozen=True)
class Public:
    """A self-run result of the same learner code, shown beside a verified row and never ranked."""

    name: str
    path: str
    budget_used: float | None
    share_solved: float | None

    def to_json(self) -> JSONObject:
        """As JSON (every field)."""
        return fields_json(self)


@dataclass(frozen=True)
class Row:
    """One ranked line: a result, or a learner's seeds pooled (each seed's row in ``by_seed``).

    Attributes:
        rank: its place in its table, from 1.
        path: the result directory (a pooled row's first seed's); name: the name ``submission.json``
            gives it (a pooled row's without its seed).
        learner: the learner's import path; student, teacher, effort: as the submission names them.
        config, seed: the stream's configuration and seed (``None`` for a pooled row).
        seeds: the seeds the row holds, one for a single result.
        stream: ``U`` with its standard error over tasks, and ``P``, on the learner's stream.
        reset: ``U`` and ``P`` of the reset on the same stream.
        learned: the share learned over the stream, with its interval (``None`` without it).
        seen, held_out: each test's share saved with its interval, T, and U and P of learner and reset.
        spend: what the learner spent on its own plays (``None`` when unread).
        flags: one line per flag.
        status: ``verified``, ``reproduced`` or ``reported``; standing_reason: why, in one sentence.
        signer: the trusted key that signed it; records_only: stored without trajectories.
        canonical: whether the runs are the track's canonical protocol.
        public: the self-run results of the same learner code shown beside this verified row.
        beside: the verified rows a reported row's learner code stands beside.
        by_seed: each seed's own row, for a pooled row (empty for a single result).
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
    seeds: tuple[int | None, ...]
    stream: BudgetEstimate
    reset: Mapping[str, float | None]
    learned: Estimate | None
    seen: SavedOnTest
    held_out: SavedOnTest
    spend: Spend | None
    flags: tuple[str, ...]
    status: str
    standing_reason: str
    signer: str | None
    records_only: bool
    canonical: bool
    public: tuple[Public, ...] = ()
    beside: tuple[str, ...] = ()
    by_seed: tuple[Row, ...] = ()

    def to_json(self) -> JSONObject:
        """The row as JSON (every field, by [fields_json][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


@dataclass(frozen=True)
class Table:
    """The rows of one track at one number of users: the ranked ones, the reported ones, or the experiments.

    ``experiment``: a table of experiments (a teacher played instances uncharged), never learners,
    ranked among themselves only.
    """

    track: str
    users: int
    reported: bool
    rows: tuple[Row, ...]
    experiment: bool = False

    def to_json(self) -> JSONObject:
        """The table as JSON (every field, by [fields_json][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


def _test(comparison: TestComparison) -> SavedOnTest:
    return {
        "share_saved": comparison.share_saved,
        "saving": comparison.saving,
        "learner": comparison.learner,
        "reset": comparison.reset,
        "instances": comparison.instances,
        "tasks": comparison.tasks,
    }


def _text(value: JSONValue) -> str | None:
    """A name ``submission.json`` gives (a model, a teacher, an effort) as text, ``None`` if none."""
    return None if value is None else str(value)


def row_of(checked: Checked, rank: int = 0) -> Row:
    """The row of one checked, rankable result (its numbers and stream read)."""
    numbers, submission = checked.numbers, checked.submission
    if numbers is None or checked.stream is None:
        raise ValueError(f"{checked.path} has no numbers to show")
    learned, protocol = numbers.get("learned"), numbers.get("protocol")
    main, reason = ranks_with_verified(checked)
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
        seeds=(checked.setting.get("seed"),),
        stream=checked.stream,
        reset=dict(learned.reset) if learned else {"budget_used": None, "share_solved": None},
        learned=learned.share_learned if learned else None,
        seen=_test(numbers["seen"]),
        held_out=_test(numbers["held-out"]),
        spend=checked.spend,
        flags=flags(numbers),
        status=str(checked.standing.kind) if main else str(StandingKind.REPORTED),
        standing_reason=reason,
        signer=checked.standing.signer if main else None,
        records_only=checked.records_only,
        canonical=bool(protocol and protocol.get("canonical")),
    )


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _weighted(pairs: Sequence[tuple[float | None, int]]) -> float | None:
    present = [(v, n) for v, n in pairs if v is not None and n]
    total = sum(n for _, n in present)
    return sum(v * n for v, n in present) / total if total else None


def _pooled_stream(estimates: Sequence[BudgetEstimate]) -> BudgetEstimate:
    """``U`` and ``P`` over every seed's instances; the standard error of seeds taken as independent."""
    n = sum(e.instances for e in estimates)
    errors = [e.standard_error for e in estimates]
    error = (
        math.sqrt(
            sum((e.instances * s) ** 2 for e, s in zip(estimates, errors, strict=True) if s is not None)
        )
        / n
        if n and all(s is not None for s in errors)
        else None
    )
    return BudgetEstimate(
        budget_used=_weighted([(e.budget_used, e.instances) for e in estimates]),
        standard_error=error,
        share_solved=_weighted([(e.share_solved, e.instances) for e in estimates]),
        instances=n,
        tasks=max(e.tasks for e in estimates),
    )


def _pooled_estimate(estimates: Sequence[Estimate | None]) -> Estimate | None:
    """The mean of the seeds' values, with the range of those values as its interval."""
    values = [e.value for e in estimates if e is not None and e.value is not None]
    if not values:
        return estimates[0]
    return Estimate(
        value=sum(values) / len(values),
        low=min(values),
        high=max(values),
        note=f"the mean of {len(values)} seeds, with the range of their values",
    )


def _sides(sides: Sequence[Mapping[str, float | None]]) -> dict[str, float | None]:
    return {key: _mean([side.get(key) for side in sides]) for key in ("budget_used", "share_solved")}


def _pooled_test(tests: Sequence[SavedOnTest]) -> SavedOnTest:
    share_saved = _pooled_estimate([t["share_saved"] for t in tests])
    saving = _pooled_estimate([t["saving"] for t in tests])
    assert share_saved is not None and saving is not None  # each test has both estimates
    return {
        "share_saved": share_saved,
        "saving": saving,
        "learner": _sides([t["learner"] for t in tests]),
        "reset": _sides([t["reset"] for t in tests]),
        "instances": sum(t["instances"] for t in tests),
        "tasks": max(t["tasks"] for t in tests),
    }


def _unseeded(name: str, seed: int | None) -> str:
    """A result's name without the seed its protocol wrote into it (``..., seed 0``)."""
    suffix = f", seed {seed}"
    return name[: -len(suffix)] if seed is not None and name.endswith(suffix) else name


def pooled_row(rows: Sequence[Row]) -> Row:
    """The seeds of one learner as one row, each seed's row kept in ``by_seed`` (ordered by seed).

    A single row is returned as it is.
    """
    if len(rows) == 1:
        return rows[0]
    ordered = sorted(rows, key=lambda r: (r.seed is None, r.seed or 0, r.path))
    first = ordered[0]
    names = {_unseeded(r.name, r.seed) for r in ordered}
    shown_flags = tuple(dict.fromkeys(f for r in ordered for f in r.flags))
    return replace(
        first,
        name=names.pop() if len(names) == 1 else first.name,
        seed=None,
        seeds=tuple(r.seed for r in ordered),
        stream=_pooled_stream([r.stream for r in ordered]),
        reset=_sides([r.reset for r in ordered]),
        learned=_pooled_estimate([r.learned for r in ordered]),
        seen=_pooled_test([r.seen for r in ordered]),
        held_out=_pooled_test([r.held_out for r in ordered]),
        spend=pooled_spend([r.spend for r in ordered]),
        flags=shown_flags,
        records_only=any(r.records_only for r in ordered),
        canonical=all(r.canonical for r in ordered),
        public=tuple(p for r in ordered for p in r.public),
        beside=tuple(dict.fromkeys(b for r in ordered for b in r.beside)),
        by_seed=tuple(ordered),
    )
