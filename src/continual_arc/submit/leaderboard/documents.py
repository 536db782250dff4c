"""The leaderboard's documents as types: a row, a table, a refusal, the whole board, and what a row reads.

Declared apart from [leaderboard][continual_arc.submit.leaderboard], which builds them, so that the
viewer and the formats read the same fields under strict typing.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ...measure.bootstrap import EstimateJSON
from ...measure.pool import BudgetEstimateJSON
from ...measure.spend import SpendJSON

__all__ = [
    "LeaderboardJSON",
    "NotHereJSON",
    "PublicJSON",
    "RefusalJSON",
    "RowJSON",
    "SavedOnTest",
    "Setting",
    "SpendJSON",
    "TableJSON",
]


class Setting(TypedDict, total=False):
    """The stream's setting a row is ranked in (empty when the stream's meta cannot be read)."""

    track: str | None
    config: str | None
    users: int | None
    seed: int | None


class SavedOnTest(TypedDict):
    """What a row shows of one test: the share saved and T with their intervals, U and P of each side."""

    share_saved: EstimateJSON
    saving: EstimateJSON
    learner: dict[str, float | None]
    reset: dict[str, float | None]
    instances: int
    tasks: int


class PublicJSON(TypedDict):
    """A self-run (reported) result of the same learner code, shown beside a verified row, unranked."""

    name: str
    path: str
    budget_used: float | None
    share_solved: float | None


class RowJSON(TypedDict):
    """A [Row][continual_arc.submit.leaderboard.rows.Row] as JSON (its fields in order)."""

    rank: int
    path: str
    name: str
    learner: str
    student: str | None
    teacher: str | None
    effort: str | None
    config: str | None
    seed: int | None
    seeds: list[int | None]
    stream: BudgetEstimateJSON
    reset: dict[str, float | None]
    learned: EstimateJSON | None
    seen: SavedOnTest
    held_out: SavedOnTest
    spend: SpendJSON | None
    flags: list[str]
    status: str
    standing_reason: str
    signer: str | None
    records_only: bool
    canonical: bool
    public: list[PublicJSON]
    beside: list[str]
    by_seed: list[RowJSON]


class TableJSON(TypedDict):
    """A [Table][continual_arc.submit.leaderboard.rows.Table] as JSON."""

    track: str
    users: int
    reported: bool
    rows: list[RowJSON]
    experiment: NotRequired[bool]


class RefusalJSON(TypedDict):
    """A [Refusal][continual_arc.submit.leaderboard.board.Refusal] as JSON."""

    path: str
    name: str | None
    reason: str
    problems: int


class NotHereJSON(TypedDict):
    """A [NotHere][continual_arc.submit.leaderboard.here.NotHere] result as JSON."""

    path: str
    name: str | None
    track: str | None
    reason: str
    command: str


class LeaderboardJSON(TypedDict):
    """The leaderboard's JSON file (``continual-arc leaderboard --json FILE``)."""

    format: int
    ranked_by: str
    tables: list[TableJSON]
    reported: list[TableJSON]
    experiments: NotRequired[list[TableJSON]]
    not_here: list[NotHereJSON]
    refused: list[RefusalJSON]
