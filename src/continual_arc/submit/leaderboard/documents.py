"""What a leaderboard row reads of a result: the stream's setting, and what it shows of each test.

Declared apart from [leaderboard][continual_arc.submit.leaderboard], which builds the rows, so that the
formats read the same fields under strict typing. The board's own documents are its dataclasses
([Row][continual_arc.submit.leaderboard.rows.Row], [Table][continual_arc.submit.leaderboard.rows.Table],
[Leaderboard][continual_arc.submit.leaderboard.board.Leaderboard]), written field for field.
"""

from __future__ import annotations

# the form pydantic reads on 3.11: the document is read back through its declaration
from typing_extensions import TypedDict

from ...measure.bootstrap import Estimate

__all__ = ["SavedOnTest", "Setting"]


class Setting(TypedDict, total=False):
    """The stream's setting a row is ranked in (empty when the stream's meta cannot be read)."""

    track: str | None
    config: str | None
    users: int | None
    seed: int | None


class SavedOnTest(TypedDict):
    """What a row shows of one test: the share saved and T with their intervals, U and P of each side."""

    share_saved: Estimate
    saving: Estimate
    learner: dict[str, float | None]
    reset: dict[str, float | None]
    instances: int
    tasks: int
