"""The leaderboard over submitted results: each one checked, then placed by its standing and ranked by U.

``continual-arc leaderboard DIR...`` reads result directories (what ``continual-arc check``
accepts: a protocol directory holding ``submission.json``). Each is checked first
([check_submission][continual_arc.submit.check.check_submission],
[check_result][continual_arc.submit.leaderboard.board.check_result]), unless its track cannot run here
(arc2's data not fetched, arc3 on a Python without its engine, a rule pack not given): such a result
is listed as *not checked here*, with one short reason and the command that would check it
([here][continual_arc.submit.leaderboard.here]). A result the checker refuses is listed
with its reason and never ranked.

The rest are placed by their standing ([standing_of][continual_arc.submit.standing.standing_of],
from a signature by a key the reader trusts, never from a file the result carries): verified and
reproduced results rank in the main tables, one per track and number of users; every other result
(self-run, or stored without trajectories and signed by nobody trusted) is *reported*, in tables of
their own beneath, never interleaved with the main ones. A reported result whose learner code (the
fingerprint its stream recorded) is the code a verified result's signed statement names stands
beside that verified row, unranked. Within a table, the seeds of one learner are pooled into one
row ([rows][continual_arc.submit.leaderboard.rows]) ranked by ``U`` on the learner's
stream, lowest first, shown with its standard error over tasks, beside what the learner spent
([spend][continual_arc.submit.leaderboard.spend]).

[leaderboard][continual_arc.submit.leaderboard.board.leaderboard] is pure: it reads nothing but the
[Checked][continual_arc.submit.leaderboard.rows.Checked] results it is given.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...core.documents import DocumentError
from ...core.errors import ContinualArcError
from ...core.files import RecordsError
from ...core.jsonable import fields_json
from ...core.records import JSONObject, Phase, Play
from ...core.result_files import Submission, read_submission
from ...measure.pool import BudgetEstimate, budget_estimate
from ...play.rundir import read_meta, read_records
from ..check import check_submission
from ..standing import TrustedKeys, load_trusted, standing_of
from .documents import Setting
from .flags import RECORDS_ONLY, flags
from .here import NotHere, not_checked_here
from .rows import Checked, Public, Row, Table, pooled_row, ranks_with_verified, row_of
from .spend import spend_of

__all__ = [
    "RECORDS_ONLY",
    "SUBMISSION",
    "Checked",
    "Leaderboard",
    "LeaderboardError",
    "NotChecked",
    "Refusal",
    "Row",
    "Table",
    "check_result",
    "find_results",
    "flags",
    "leaderboard",
]

SUBMISSION = "submission.json"
"""The file that makes a directory a result."""


class LeaderboardError(ContinualArcError):
    """A path given to the leaderboard that is not a result, nor a folder holding any."""


def _read_submission(path: Path) -> Submission:
    """``submission.json``, or nothing (``{}``) when it is missing or not one (the checker says why)."""
    try:
        return read_submission(path)
    except (FileNotFoundError, RecordsError, DocumentError):
        return {}


def _setting(stream_dir: Path | None) -> tuple[Setting, BudgetEstimate | None, str, str | None]:
    """The stream's setting (its meta), ``U`` with its standard error, its learner and code digest."""
    if stream_dir is None:
        return {}, None, "", None
    try:
        meta = read_meta(stream_dir)
        records = read_records(stream_dir)
    except (ContinualArcError, OSError):
        return {}, None, "", None  # the checker has already said why the stream is unusable
    schedule = meta["schedule"]
    setting: Setting = {
        "track": schedule.get("track"),
        "config": schedule.get("config"),
        "users": schedule.get("users"),
        "seed": schedule.get("seed"),
    }
    fingerprint = meta.get("learner_fingerprint")
    code = fingerprint.get("sources_sha256") if isinstance(fingerprint, Mapping) else None
    spec = json.dumps(meta.get("learner"), sort_keys=True)
    return setting, budget_estimate(records, Phase.STREAM), spec, code if isinstance(code, str) else None


def check_result(
    path: Path | str,
    *,
    trusted: TrustedKeys | None = None,
    regenerate: bool = True,
    resamples: int = 10_000,
    seed: int = 0,
    allow_ablation: bool = False,
    records_only: bool = True,
) -> Checked:
    """Check one result directory and read what its row needs beside the checker's numbers.

    A result whose track cannot run here is not checked: it comes back with ``not_here`` set.

    Args:
        path: the result directory (holding ``submission.json``).
        trusted: the keys whose signatures give a standing (default: the repository's verifiers).
        regenerate: replay every instance (as ``check`` does unless ``--no-regenerate``).
        resamples: bootstrap resamples of the numbers.
        seed: the bootstrap's seed.
        allow_ablation: accept runs that are not canonical (ranked, flagged as an ablation).
        records_only: accept runs stored without trajectories (marked records only).
    """
    root = Path(path)
    trusted = trusted if trusted is not None else load_trusted()
    standing = standing_of(root, trusted)
    submission = _read_submission(root / SUBMISSION)
    missing = not_checked_here(root)
    if missing is not None:
        return Checked(str(root), False, (), None, submission, standing, {}, None, not_here=missing)
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
    setting, estimate, spec, code = _setting(Path(stream) if stream else None)
    learner_plays = [result.runs[p] for p in (Play.STREAM, Play.SEEN, Play.HELD_OUT) if p in result.runs]
    return Checked(
        path=str(root),
        ok=result.ok,
        problems=tuple(result.problems),
        numbers=result.numbers,
        submission=submission,
        standing=standing,
        setting=setting,
        stream=estimate,
        records_only=result.records_only,
        experiment=result.experiment,
        spend=spend_of([Path(p) for p in learner_plays], Path(stream) if stream else None),
        learner_spec=spec,
        learner_code=code,
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

    def to_json(self) -> JSONObject:
        """The refusal as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


@dataclass(frozen=True)
class NotChecked:
    """A result whose track cannot run here: listed with why and how to check it, never refused.

    Attributes:
        path: the result directory; name: its name, when ``submission.json`` gives one.
        track: the stream's track; reason: one short sentence; command: what would check it.
    """

    path: str
    name: str | None
    track: str | None
    reason: str
    command: str

    def to_json(self) -> JSONObject:
        """As JSON (every field)."""
        return fields_json(self)


@dataclass(frozen=True)
class Leaderboard:
    """The main tables (verified and reproduced), the reported ones, and what was not ranked.

    Attributes:
        tables: per track then users, the results a trusted signature places, ranked.
        reported: per track then users, every other checked result, ranked among themselves.
        experiments: per track then users, the checked experiments (a teacher played instances
            uncharged), whatever their standing: never learners, never in the other tables.
        not_here: results whose track cannot run here, not checked.
        refused: results the checker refused.
    """

    tables: tuple[Table, ...]
    reported: tuple[Table, ...]
    not_here: tuple[NotChecked, ...]
    refused: tuple[Refusal, ...]
    experiments: tuple[Table, ...] = ()

    def to_json(self) -> JSONObject:
        """The leaderboard as JSON (what ``--json FILE`` writes): its format, what ranks, every field."""
        return {"format": 2, "ranked_by": "U on the learner's stream, lowest first", **fields_json(self)}


def _rankable(checked: Checked) -> bool:
    return (
        checked.not_here is None
        and checked.ok
        and checked.numbers is not None
        and checked.stream is not None
        and bool(checked.setting)
    )


def _refusal(checked: Checked) -> Refusal:
    problems = checked.problems or ("its numbers could not be computed",)
    name = checked.submission.get("name")
    return Refusal(checked.path, str(name) if name else None, problems[0], len(checked.problems))


def _not_checked(checked: Checked, missing: NotHere) -> NotChecked:
    name = checked.submission.get("name")
    return NotChecked(
        checked.path, str(name) if name else None, missing.track, missing.reason, missing.command
    )


def _order(row: Row) -> tuple[float, str, str]:
    used = row.stream.budget_used
    return (float("inf") if used is None else used, row.name, row.path)


def _pool_key(checked: Checked, row: Row) -> tuple[object, ...]:
    """What the seeds of one pooled row share; a result whose learner is unread pools with nothing."""
    learner = checked.learner_spec or checked.path
    return (learner, row.student, row.teacher, row.effort, row.config, row.status, row.signer)


def _public(checked: Checked) -> Public:
    stream = checked.stream
    name = checked.submission.get("name")
    return Public(
        str(name) if name else Path(checked.path).name,
        checked.path,
        stream.budget_used if stream is not None else None,
        stream.share_solved if stream is not None else None,
    )


def _tables(
    members: Mapping[tuple[str, int], Sequence[tuple[Checked, Row]]], reported: bool, experiment: bool = False
) -> tuple[Table, ...]:
    tables: list[Table] = []
    for (track, users), placed in sorted(members.items()):
        pools: dict[tuple[object, ...], list[Row]] = {}
        for checked, row in placed:
            pools.setdefault(_pool_key(checked, row), []).append(row)
        pooled = sorted((pooled_row(rows) for rows in pools.values()), key=_order)
        ranked = tuple(
            replace(row, rank=i, by_seed=tuple(replace(r, rank=i) for r in row.by_seed))
            for i, row in enumerate(pooled, 1)
        )
        tables.append(Table(track, users, reported, ranked, experiment))
    return tuple(tables)


def leaderboard(results: Sequence[Checked]) -> Leaderboard:
    """The leaderboard of checked results: main and reported tables per track and users, ranked by ``U``.

    A result ranks in a main table only when its standing is verified or reproduced by a trusted
    signature ([ranks_with_verified][continual_arc.submit.leaderboard.rows.ranks_with_verified]);
    every other checked result is in the reported tables, and an experiment (its teacher played
    instances uncharged) in the experiments' tables whatever its standing. Ties in ``U`` are broken
    by name, then path, so the order never depends on the order given. A result whose track cannot run here is
    in ``not_here``, one the checker refused in ``refused``; neither appears in any table.
    """
    # An experiment (its teacher played instances uncharged) is no learner: a table of its own.
    experiments = [c for c in results if _rankable(c) and c.experiment is not None]
    rankable = [c for c in results if _rankable(c) and c.experiment is None]
    main = [c for c in rankable if ranks_with_verified(c)[0]]
    verified_codes: dict[str, list[Checked]] = {}
    for c in main:
        if c.standing.learner_code:
            verified_codes.setdefault(c.standing.learner_code, []).append(c)
    self_run: dict[str, list[Checked]] = {}
    for c in rankable:
        if c not in main and c.learner_code:
            self_run.setdefault(c.learner_code, []).append(c)
    groups: tuple[dict[tuple[str, int], list[tuple[Checked, Row]]], ...] = ({}, {})
    for c in sorted(rankable, key=lambda c: c.path):
        row = row_of(c)
        if c in main:
            code = c.standing.learner_code
            row = replace(row, public=tuple(_public(p) for p in self_run.get(code or "", [])))
        else:
            beside = [
                str(v.submission.get("name") or v.path) for v in verified_codes.get(c.learner_code or "", [])
            ]
            row = replace(row, beside=tuple(beside))
        key = (str(c.setting.get("track")), int(c.setting.get("users") or 1))
        groups[0 if c in main else 1].setdefault(key, []).append((c, row))
    tried: dict[tuple[str, int], list[tuple[Checked, Row]]] = {}
    for c in sorted(experiments, key=lambda c: c.path):
        key = (str(c.setting.get("track")), int(c.setting.get("users") or 1))
        tried.setdefault(key, []).append((c, row_of(c)))
    ordered = sorted(results, key=lambda c: c.path)
    return Leaderboard(
        tables=_tables(groups[0], reported=False),
        reported=_tables(groups[1], reported=True),
        not_here=tuple(_not_checked(c, c.not_here) for c in ordered if c.not_here is not None),
        refused=tuple(_refusal(c) for c in ordered if c.not_here is None and not _rankable(c)),
        experiments=_tables(tried, reported=True, experiment=True),
    )
