"""The sweep's table: one row per learner and setting, its seeds pooled, ranked like the leaderboard.

A row pools every seed of a learner at a setting (configuration and users): ``U`` on the stream
with its standard error over tasks and ``P``
([`budget_estimate`][continual_arc.measure.pool.budget_estimate]), the share learned over the stream and the
share saved on each frozen test with their 95 % intervals ([`compare`][continual_arc.measure.compare] over the
pooled records: the bootstrap resamples tasks, each task's instances from every seed kept together). Rows are
ranked within each setting by ``U``, lowest first, as the leaderboard ranks them; the table is written as
Markdown and CSV, and the plane with every learner on it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.records import Phase, Play
from ..measure.bootstrap import Estimate
from ..measure.budget import Record
from ..measure.compare import LearnedResult, TestComparison, share_learned, share_saved
from ..measure.plots import LabelledPoint, PlotPoint, plane_plot
from ..measure.pool import BudgetEstimate, budget_estimate, pool_plays
from ..measure.report import POINT_DIGITS, SHARE_DIGITS, format_estimate

__all__ = ["Row", "markdown", "pooled_row", "ranked", "row_cells", "table_csv", "write_table"]

Plays = Mapping[str, Sequence[Record]]
"""One protocol's records, by play (``stream``, ``stream-reset``, ``seen``, ``seen-reset``, ...)."""


@dataclass(frozen=True)
class Row:
    """One learner at one setting, its seeds pooled.

    Attributes:
        label: the learner (and its variant).
        config, users: the setting.
        seeds: the seeds pooled; missing: the seeds asked for whose protocol is not complete.
        stream: ``U`` with its standard error, and ``P``, on the learner's stream.
        learned: the share learned over the stream (``None`` without the reset's stream).
        seen, held_out: the share saved on each test (``None`` without the test and its reset).
    """

    label: str
    config: str
    users: int
    seeds: tuple[int, ...]
    missing: tuple[int, ...]
    stream: BudgetEstimate
    learned: LearnedResult | None
    seen: TestComparison | None
    held_out: TestComparison | None

    @property
    def setting(self) -> str:
        """The setting in words."""
        return f"{self.config}, {self.users} user{'s' if self.users != 1 else ''}"


def _pooled(protocols: Sequence[Plays], play: str) -> list[Record] | None:
    if not protocols or any(play not in p for p in protocols):
        return None
    return pool_plays(p[play] for p in protocols)


def pooled_row(
    label: str,
    config: str,
    users: int,
    protocols: Mapping[int, Plays],
    *,
    missing: Sequence[int] = (),
    seed: int = 0,
    resamples: int = 10_000,
) -> Row:
    """The row of a learner at a setting, from the records of its protocols by seed."""
    chosen = [protocols[s] for s in sorted(protocols)]
    stream, stream_reset = _pooled(chosen, Play.STREAM), _pooled(chosen, Play.STREAM_RESET)
    learned = None
    if stream and stream_reset:
        learned = share_learned(stream, stream_reset, seed=seed, resamples=resamples)
    tests: dict[str, TestComparison | None] = {}
    for test in (Phase.SEEN, Phase.HELD_OUT):
        run, reset = _pooled(chosen, Play.of(test)), _pooled(chosen, Play.of(test, reset=True))
        tests[test] = None
        if run and reset:
            tests[test] = share_saved([run], [reset], seed=seed, test=test, resamples=resamples)
    return Row(
        label=label,
        config=config,
        users=users,
        seeds=tuple(sorted(protocols)),
        missing=tuple(sorted(missing)),
        stream=budget_estimate(stream or []),
        learned=learned,
        seen=tests[Phase.SEEN],
        held_out=tests[Phase.HELD_OUT],
    )


def ranked(rows: Sequence[Row]) -> list[tuple[int, Row]]:
    """The rows by setting (as first met), each setting ranked by ``U``, lowest first; their ranks."""
    settings = list(dict.fromkeys((r.config, r.users) for r in rows))
    out = []
    for setting in settings:
        group = [r for r in rows if (r.config, r.users) == setting]
        worst = float("inf")
        group.sort(key=lambda r: (worst if r.stream.budget_used is None else r.stream.budget_used, r.label))
        out += [(i, row) for i, row in enumerate(group, 1)]
    return out


def _u(row: Row) -> str:
    s = row.stream
    if s.budget_used is None:
        return "-"
    error = "" if s.standard_error is None else f" ± {s.standard_error:.{POINT_DIGITS}f}"
    return f"{s.budget_used:.{POINT_DIGITS}f}{error}"


def _share(estimate: Estimate | None) -> str:
    return "-" if estimate is None else format_estimate(estimate, SHARE_DIGITS)


def _seeds(row: Row) -> str:
    text = ", ".join(str(s) for s in row.seeds) or "-"
    return text + (f" (missing {', '.join(str(s) for s in row.missing)})" if row.missing else "")


def row_cells(row: Row) -> list[str]:
    """A row's cells after its rank: learner, setting, seeds, ``U`` ± s.e., ``P`` and the three shares."""
    p = "-" if row.stream.share_solved is None else f"{row.stream.share_solved:.{POINT_DIGITS}f}"
    cells = [
        row.label,
        row.setting,
        _seeds(row),
        _u(row),
        p,
        _share(row.learned.share_learned if row.learned else None),
        _share(row.seen.share_saved if row.seen else None),
        _share(row.held_out.share_saved if row.held_out else None),
    ]
    return [c.replace("|", "/") for c in cells]  # a label's bar would split its cell


def markdown(rows: Sequence[Row]) -> str:
    """The table as Markdown, with a line saying what its numbers are."""
    lines = [
        "| # | learner | setting | seeds | U ± s.e. | P | share learned | seen: share saved "
        "| held-out: share saved |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for rank, row in ranked(rows):
        lines.append("| " + " | ".join([str(rank), *row_cells(row)]) + " |")
    lines += [
        "",
        "U and P on the stream, in points of the budget (U lower is better), with the standard error "
        "over tasks; shares with 95 % bootstrap intervals over tasks. Each row pools its seeds, each "
        "task's instances from every seed together; rows are ranked by U within each setting.",
    ]
    return "\n".join(lines) + "\n"


_CSV_FIELDS = [
    "rank",
    "learner",
    "config",
    "users",
    "seeds",
    "missing_seeds",
    "tasks",
    "instances",
    "U",
    "U_se",
    "P",
    "learned",
    "learned_low",
    "learned_high",
    "learnable_budget",
    "seen_saved",
    "seen_low",
    "seen_high",
    "seen_T",
    "held_out_saved",
    "held_out_low",
    "held_out_high",
    "held_out_T",
]


def _num(value: float | None, digits: int = 4) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _estimate_cells(estimate: Estimate | None) -> list[str]:
    if estimate is None:
        return ["", "", ""]
    return [_num(estimate.value), _num(estimate.low), _num(estimate.high)]


def table_csv(rows: Sequence[Row]) -> str:
    """The table as CSV: one row per learner and setting, every number to four decimals."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_CSV_FIELDS)
    for rank, row in ranked(rows):
        s = row.stream
        learned = row.learned
        cells: list[object] = [
            rank,
            row.label,
            row.config,
            row.users,
            " ".join(map(str, row.seeds)),
            " ".join(map(str, row.missing)),
            s.tasks,
            s.instances,
            _num(s.budget_used),
            _num(s.standard_error),
            _num(s.share_solved),
        ]
        cells += _estimate_cells(learned.share_learned if learned else None)
        cells.append(_num(learned.learnable_budget) if learned else "")
        for test in (row.seen, row.held_out):
            cells += _estimate_cells(test.share_saved if test else None)
            cells.append(_num(test.saving.value) if test else "")
        writer.writerow(cells)
    return buffer.getvalue()


def plane_points(rows: Sequence[Row]) -> list[PlotPoint]:
    """Each row's place on the plane, as [`plane_plot`][continual_arc.measure.plots.plane_plot] draws it."""
    return [
        LabelledPoint(f"{row.label} ({row.setting})", row.seen, row.held_out)
        for _, row in ranked(rows)
        if row.seen is not None and row.held_out is not None
    ]


def write_table(rows: Sequence[Row], out: Path, *, plot: bool = True) -> list[Path]:
    """Write ``table.md``, ``table.csv`` and (with ``plot``) ``plane.png``/``.svg`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "table.md", out / "table.csv"]
    paths[0].write_text(markdown(rows), encoding="utf-8")
    paths[1].write_text(table_csv(rows), encoding="utf-8")
    points = plane_points(rows)
    if plot and points:
        paths += plane_plot(points, out, name="plane")
    return paths
