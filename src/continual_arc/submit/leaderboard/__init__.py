"""The leaderboard over submitted results, one concept in one package.

Modules: [`board`][continual_arc.submit.leaderboard.board] (results checked, placed by standing and
ranked by U), [`rows`][continual_arc.submit.leaderboard.rows] (a row, a learner's seeds pooled),
[`here`][continual_arc.submit.leaderboard.here] (a track that cannot be checked here),
[`spend`][continual_arc.submit.leaderboard.spend] (what a learner spent),
[`flags`][continual_arc.submit.leaderboard.flags] (a row's marks),
[`documents`][continual_arc.submit.leaderboard.documents] (the board as JSON) and
[`formats`][continual_arc.submit.leaderboard.formats] (Markdown and CSV).
"""

from __future__ import annotations

from .board import (
    RECORDS_ONLY,
    SUBMISSION,
    Checked,
    Leaderboard,
    LeaderboardError,
    NotChecked,
    Refusal,
    Row,
    Table,
    check_result,
    find_results,
    leaderboard,
)

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
    "leaderboard",
]
