"""The leaderboard's documents as types: a row, a table, a refusal, the whole board, and what a row reads.

Declared apart from :mod:`.leaderboard`, which builds them, so that the viewer and the formats read
the same fields under strict typing.
"""

from __future__ import annotations

from typing import TypedDict

from ..measure.bootstrap import EstimateJSON
from ..measure.pool import BudgetEstimateJSON

__all__ = ["LeaderboardJSON", "RefusalJSON", "RowJSON", "SavedOnTest", "Setting", "TableJSON"]


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


class RowJSON(TypedDict):
    """A :class:`Row` as JSON (its fields in order; the stream's estimate as JSON, the flags a list)."""

    rank: int
    path: str
    name: str
    learner: str
    student: str | None
    teacher: str | None
    effort: str | None
    config: str | None
    seed: int | None
    stream: BudgetEstimateJSON
    reset: dict[str, float | None]
    learned: EstimateJSON | None
    seen: SavedOnTest
    held_out: SavedOnTest
    flags: list[str]
    status: str
    canonical: bool


class TableJSON(TypedDict):
    """A :class:`Table` as JSON."""

    track: str
    users: int
    rows: list[RowJSON]


class RefusalJSON(TypedDict):
    """A :class:`Refusal` as JSON."""

    path: str
    name: str | None
    reason: str
    problems: int


class LeaderboardJSON(TypedDict):
    """The leaderboard's JSON file (``continual-arc leaderboard --json FILE``)."""

    format: int
    ranked_by: str
    tables: list[TableJSON]
    refused: list[RefusalJSON]
