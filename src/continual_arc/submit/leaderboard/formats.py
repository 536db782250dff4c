"""The leaderboard as Markdown (for people) and CSV (one line per result, for spreadsheets).

Both are read off a [Leaderboard][continual_arc.submit.leaderboard.board.Leaderboard]; its JSON is its own
``to_json()``. Markdown rounds as every command prints (points to a tenth, shares to a hundredth)
and shows the main tables first, the reported ones beneath, then the results not checked here and
the refused ones; CSV keeps every number at full precision, one line per result (each seed of a
pooled row on its own line, with the pooled row's rank).
"""

from __future__ import annotations

import csv
import io

from ...core.records import Phase
from ...measure.bootstrap import Estimate
from ...measure.report import SHARE_DIGITS, format_estimate, format_points
from .board import Leaderboard, Row, Table
from .documents import SavedOnTest
from .flags import RECORDS_ONLY
from .spend import Spend

__all__ = ["CSV_COLUMNS", "format_per_instance", "format_spend", "leaderboard_csv", "leaderboard_markdown"]

_HEADER = (
    "#",
    "Result",
    "Learner",
    "Student",
    "Teacher",
    "Effort",
    "Setting",
    "U ± SE",
    "P",
    "Reset U",
    "Reset P",
    "Seen: share saved",
    "Held-out: share saved",
    "Share learned",
    "Spent",
    "Per instance",
    "Training",
    "Flags",
    "Standing",
)

_LEGEND = (
    "U: the share of the budget the learner used on its stream, in points, lowest first, "
    "± its standard error over tasks; P: the share it solved. The shares saved on each test (its "
    "place on the plane) and the share learned are given with their 95 % intervals; a row pooling "
    "several seeds shows their mean, with the range of the seeds' values. Spent: what the learner "
    "spent on its stream and both tests (model cost and tokens, or searches and seconds inside its "
    "calls), per instance beside it; training compute apart, never in the score."
)

_EXPERIMENTS = (
    "# Experiments: a teacher played the instances first, uncharged",
    "",
    "Not learners: each instance was played twice, by the teacher with its demonstrations and verdicts "
    "uncharged, then by the student. An upper bound on what a teacher can pass on, never verified, "
    "ranked among themselves only.",
    "",
)

_REPORTED = (
    "# Reported: self-run results (not rerun by a trusted verifier)",
    "",
    "Ranked among themselves, never with the verified and reproduced results above. A stored run "
    "without trajectories is here too (marked records only) unless a trusted signature covers it.",
    "",
)


def _cell(value: object) -> str:
    """A Markdown cell: ``-`` for nothing, and no character that would end the cell or the row."""
    text = "-" if value is None or value == "" else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _plus_minus(row: Row) -> str:
    used, error = row.stream.budget_used, row.stream.standard_error
    return format_points(used) + (f" ± {format_points(error)}" if error is not None else "")


def _estimate(e: Estimate | None, pooled: bool) -> str:
    if e is None:
        return "-"
    if pooled and e.value is not None and e.low is not None and e.high is not None:
        d = SHARE_DIGITS
        return f"{e.value:.{d}f} (seeds {e.low:.{d}f} to {e.high:.{d}f})"
    return format_estimate(e)


def _amount(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}"


def format_spend(spend: Spend | None) -> str:
    """What the learner spent, in one cell: model cost and tokens, else searches and seconds."""
    if spend is None:
        return "-"
    parts: list[str] = []
    if spend.usd is not None:
        parts.append(f"${spend.usd:,.2f}")
    if spend.tokens is not None:
        parts.append(_amount(spend.tokens, "tokens"))
    if spend.usd is None and spend.tokens is None and spend.calls is not None:
        parts.append(_amount(spend.calls, "calls"))
    if spend.searches is not None:
        parts.append(_amount(spend.searches, "searches"))
    parts.append(f"{spend.learner_seconds:,.1f} s in the learner")
    return ", ".join(parts)


def format_per_instance(spend: Spend | None) -> str:
    """What one instance cost: dollars of model calls where counted, else seconds inside the learner."""
    if spend is None or not spend.instances:
        return "-"
    per = spend.usd_per_instance
    if per is not None:
        return f"${per:.4f}"
    seconds = spend.seconds_per_instance
    return "-" if seconds is None else f"{seconds:.3f} s"


def _training(spend: Spend | None) -> str:
    if spend is None or not spend.training:
        return "-"
    return ", ".join(f"{key} {value:g}" for key, value in spend.training.items())


def _standing(row: Row) -> str:
    text = row.status + (f" (signed by {row.signer})" if row.signer else "")
    if row.records_only:
        text += ", records only"
    if row.public:
        text += "; its public-stream result beside it: " + ", ".join(
            f"{p.name}, U {format_points(p.budget_used)}" for p in row.public
        )
    if row.beside:
        text += "; stands beside the verified " + ", ".join(row.beside)
    return text


def _setting(row: Row) -> str:
    if len(row.seeds) > 1:
        return f"{row.config}, {len(row.seeds)} seeds ({', '.join(str(s) for s in row.seeds)})"
    return f"{row.config}, seed {row.seed}"


def _line(row: Row, *, rank: str | None = None, name: str | None = None) -> str:
    pooled = len(row.seeds) > 1
    cells = (
        row.rank if rank is None else rank,
        row.name if name is None else name,
        row.learner,
        row.student,
        row.teacher,
        row.effort,
        _setting(row),
        _plus_minus(row),
        format_points(row.stream.share_solved),
        format_points(row.reset.get("budget_used")),
        format_points(row.reset.get("share_solved")),
        _estimate(row.seen["share_saved"], pooled),
        _estimate(row.held_out["share_saved"], pooled),
        _estimate(row.learned, pooled),
        format_spend(row.spend),
        format_per_instance(row.spend),
        _training(row.spend),
        "; ".join(row.flags),
        _standing(row),
    )
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _table(table: Table, by_seed: bool) -> list[str]:
    users = f"{table.users} user{'s' if table.users != 1 else ''}"
    lines = [
        f"## {table.track}, {users}"
        + (" (experiment)" if table.experiment else " (reported)" if table.reported else ""),
        "",
        "| " + " | ".join(_HEADER) + " |",
        "|" + "---|" * len(_HEADER),
    ]
    for row in table.rows:
        lines.append(_line(row))
        if by_seed:
            lines += [_line(seed, rank="", name=f"seed {seed.seed}: {seed.name}") for seed in row.by_seed]
    return [*lines, ""]


def leaderboard_markdown(board: Leaderboard, *, by_seed: bool = False) -> str:
    """The leaderboard as Markdown: the main tables, the reported ones beneath, then what was not ranked.

    Args:
        board: the leaderboard.
        by_seed: under each pooled row, each seed's own row.
    """
    lines: list[str] = []
    for table in board.tables:
        lines += _table(table, by_seed)
    if not board.tables:
        lines += ["No verified or reproduced result: the main tables are empty.", ""]
    if board.reported:
        lines += list(_REPORTED)
        for table in board.reported:
            lines += _table(table, by_seed)
    if board.experiments:
        lines += list(_EXPERIMENTS)
        for table in board.experiments:
            lines += _table(table, by_seed)
    shown = (*board.tables, *board.reported, *board.experiments)
    if shown:
        lines += [_LEGEND, ""]
        if any(row.records_only for t in shown for row in t.rows):
            lines += [f"{RECORDS_ONLY[0].upper()}{RECORDS_ONLY[1:]}.", ""]
    if board.not_here:
        lines += ["## Not checked here (their tracks cannot run on this install)", ""]
        for entry in board.not_here:
            name = f" ({entry.name})" if entry.name else ""
            lines.append(
                f"- {_cell(entry.path)}{_cell(name) if name else ''}: {entry.reason}; to check it: "
                f"{entry.command}"
            )
        lines.append("")
    if board.refused:
        lines += ["## Refused by the checker (not ranked)", ""]
        for refusal in board.refused:
            name = f" ({refusal.name})" if refusal.name else ""
            more = f" (and {refusal.problems - 1} more problem(s))" if refusal.problems > 1 else ""
            lines.append(f"- {_cell(refusal.path)}{_cell(name) if name else ''}: {refusal.reason}{more}")
        lines.append("")
    return "\n".join(lines)


_SIDES = ("learner_U", "learner_P", "reset_U", "reset_P")

CSV_COLUMNS = (
    "track",
    "users",
    "table",
    "rank",
    "status",
    "standing_reason",
    "signer",
    "records_only",
    "name",
    "path",
    "learner",
    "student",
    "teacher",
    "effort",
    "config",
    "seed",
    "U",
    "U_se",
    "P",
    "reset_U",
    "reset_P",
    "learned",
    "learned_low",
    "learned_high",
    *(
        f"{t}_{f}"
        for t in (Phase.SEEN, "held_out")
        for f in ("saved", "saved_low", "saved_high", "T", *_SIDES)
    ),
    "spend_usd",
    "spend_tokens",
    "spend_calls",
    "spend_searches",
    "spend_learner_seconds",
    "spend_instances",
    "usd_per_instance",
    "seconds_per_instance",
    "flags",
    "reason",
)
"""The CSV's columns, in order: one line per result (each seed its own), then those not ranked."""


def _test_columns(name: str, test: SavedOnTest) -> dict[str, object]:
    saved, saving = test["share_saved"], test["saving"]
    learner, reset = test["learner"], test["reset"]
    return {
        f"{name}_saved": saved.value,
        f"{name}_saved_low": saved.low,
        f"{name}_saved_high": saved.high,
        f"{name}_T": saving.value,
        f"{name}_learner_U": learner["budget_used"],
        f"{name}_learner_P": learner["share_solved"],
        f"{name}_reset_U": reset["budget_used"],
        f"{name}_reset_P": reset["share_solved"],
    }


def _spend_columns(spend: Spend | None) -> dict[str, object]:
    if spend is None:
        return {}
    return {
        "spend_usd": spend.usd,
        "spend_tokens": spend.tokens,
        "spend_calls": spend.calls,
        "spend_searches": spend.searches,
        "spend_learner_seconds": spend.learner_seconds,
        "spend_instances": spend.instances,
        "usd_per_instance": spend.usd_per_instance,
        "seconds_per_instance": spend.seconds_per_instance,
    }


def _csv_row(table: Table, row: Row) -> dict[str, object]:
    return {
        "track": table.track,
        "users": table.users,
        "table": "experiment" if table.experiment else "reported" if table.reported else "main",
        "rank": row.rank,
        "status": row.status,
        "standing_reason": row.standing_reason,
        "signer": row.signer,
        "records_only": row.records_only,
        "name": row.name,
        "path": row.path,
        "learner": row.learner,
        "student": row.student,
        "teacher": row.teacher,
        "effort": row.effort,
        "config": row.config,
        "seed": row.seed,
        "U": row.stream.budget_used,
        "U_se": row.stream.standard_error,
        "P": row.stream.share_solved,
        "reset_U": row.reset.get("budget_used"),
        "reset_P": row.reset.get("share_solved"),
        "learned": row.learned.value if row.learned else None,
        "learned_low": row.learned.low if row.learned else None,
        "learned_high": row.learned.high if row.learned else None,
        **_test_columns(Phase.SEEN, row.seen),
        **_test_columns("held_out", row.held_out),
        **_spend_columns(row.spend),
        "flags": "; ".join(row.flags),
    }


def leaderboard_csv(board: Leaderboard) -> str:
    """The leaderboard as CSV: every result (main, reported, experiments), then the unranked ones."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for table in (*board.tables, *board.reported, *board.experiments):
        for row in table.rows:
            writer.writerows(_csv_row(table, seed) for seed in (row.by_seed or (row,)))
    for entry in board.not_here:
        writer.writerow(
            {
                "track": entry.track,
                "status": "not checked here",
                "name": entry.name,
                "path": entry.path,
                "reason": f"{entry.reason}; to check it: {entry.command}",
            }
        )
    for refusal in board.refused:
        writer.writerow(
            {"status": "refused", "name": refusal.name, "path": refusal.path, "reason": refusal.reason}
        )
    return out.getvalue()
