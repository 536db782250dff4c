"""The numbers a checked result gives, as the checker, the leaderboard and ``protocol.json`` read them.

Declared apart from [check][continual_arc.submit.check], which computes them, so that
[bind][continual_arc.submit.bind] can compare ``protocol.json`` with them without importing the
checker that imports it.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..core.records import ProtocolBlock
from ..measure.compare import LearnedResult, TestComparison
from ..measure.ledger import OutsideJSON
from ..measure.reset_flags import ResetFlags

__all__ = ["CheckNumbers"]

CheckNumbers = TypedDict(
    "CheckNumbers",
    {
        "held-out": TestComparison,
        "seen": TestComparison,
        "learned": NotRequired[LearnedResult],
        "flags": ResetFlags,
        "protocol": ProtocolBlock | None,
        "outside_spend": NotRequired[OutsideJSON | None],
    },
)
"""The leaderboard's numbers of a checked result: each test's comparison, the share learned (with the
stream and its reset), the flags on the reset, the verdict recomputed, and the spend outside the
records (with a ledger). The functional form, since a test's key is ``held-out``. The
measures are held as themselves: what a command prints or a file holds is their JSON form
([`as_json`][continual_arc.core.jsonable.as_json])."""
