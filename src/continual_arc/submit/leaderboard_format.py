"""The leaderboard as Markdown (for people) and CSV (one line per result, for spreadsheets).

Both are read off a :class:`~continual_arc.submit.leaderboard.Leaderboard`; its JSON is its own
``to_json()``. Markdown rounds as every command prints (points to a tenth, shares to a hundredth);
CSV keeps every number at full precision.
"""

from __future__ import annotations

import csv
import io

from ..core.records import Phase
from ..measure.bootstrap import EstimateJSON
from ..measure.report import format_estimate, format_points
from .leaderboard import Leaderboard, Row, Table
from .leaderboard_json import SavedOnTest

__all__ = ["CSV_COLUMNS", "leaderboard_csv", "leaderboard_markdown"]

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
    "Flags",
    "Status",
)

_LEGEND = (
    "U: the share of the budget the learner used on its stream, in points, lowest first, "
    "± its standard error over tasks; P: the share it solved. The shares saved on each test (its "
    "place on the plane) and the share learned are given with their 95 % intervals."
)


def _cell(value: object) -> str:
    """A Markdown cell: ``-`` for nothing, and no character that would end the cell or the row."""
    text = "-" if value is None or value == "" else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _plus_minus(row: Row) -> str:
    used, error = row.stream.budget_used, row.stream.standard_error
    return format_points(used) + (f" ± {format_points(error)}" if error is not None else "")


def _estimate(e: EstimateJSON | None) -> str:
    return "-" if e is None else format_estimate(e)


def _line(row: Row) -> str:
    cells = (
        row.rank,
        row.name,
        row.learner,
        row.student,
        row.teacher,
        row.effort,
        f"{row.config}, seed {row.seed}",
        _plus_minus(row),
        format_points(row.stream.share_solved),
        format_points(row.reset.get("budget_used")),
        format_points(row.reset.get("share_solved")),
        _estimate(row.seen["share_saved"]),
        _estimate(row.held_out["share_saved"]),
        _estimate(row.learned),
        "; ".join(row.flags),
        row.status,
    )
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _table(table: Table) -> list[str]:
    users = f"{table.users} user{'s' if table.users != 1 else ''}"
    return [
        f"## {table.track}, {users}",
        "",
        "| " + " | ".join(_HEADER) + " |",
        "|" + "---|" * len(_HEADER),
        *(_line(row) for row in table.rows),
        "",
    ]


def leaderboard_markdown(board: Leaderboard) -> str:
    """The leaderboard as Markdown: a ranked table per track and users, then the refused results."""
    lines: list[str] = []
    for table in board.tables:
        lines += _table(table)
    if board.tables:
        lines += [_LEGEND, ""]
    else:
        lines += ["No result passed the checks: nothing is ranked.", ""]
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
    "rank",
    "status",
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
    "flags",
    "reason",
)
"""The CSV's columns, in order: one line per result, a refused one with its reason and no numbers."""


def _test_columns(name: str, test: SavedOnTest) -> dict[str, object]:
    saved, saving = test["share_saved"], test["saving"]
    learner, reset = test["learner"], test["reset"]
    return {
        f"{name}_saved": saved["value"],
        f"{name}_saved_low": saved["low"],
        f"{name}_saved_high": saved["high"],
        f"{name}_T": saving["value"],
        f"{name}_learner_U": learner["budget_used"],
        f"{name}_learner_P": learner["share_solved"],
        f"{name}_reset_U": reset["budget_used"],
        f"{name}_reset_P": reset["share_solved"],
    }


def _csv_row(table: Table, row: Row) -> dict[str, object]:
    return {
        "track": table.track,
        "users": table.users,
        "rank": row.rank,
        "status": row.status,
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
        "learned": row.learned["value"] if row.learned else None,
        "learned_low": row.learned["low"] if row.learned else None,
        "learned_high": row.learned["high"] if row.learned else None,
        **_test_columns(Phase.SEEN, row.seen),
        **_test_columns("held_out", row.held_out),
        "flags": "; ".join(row.flags),
    }


def leaderboard_csv(board: Leaderboard) -> str:
    """The leaderboard as CSV: every ranked result, table by table, then every refused one."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for table in board.tables:
        writer.writerows(_csv_row(table, row) for row in table.rows)
    for refusal in board.refused:
        writer.writerow(
            {"status": "refused", "name": refusal.name, "path": refusal.path, "reason": refusal.reason}
        )
    return out.getvalue()
