"""The six plays of a protocol: the learner's stream and tests, and its reset on each, with their schedules.

A protocol directory (what ``continual-arc protocol`` writes, and what a submission holds) has one
subdirectory per play, named in :data:`PROTOCOL_PLAYS`, and their schedules in ``schedules/``.
"""

from __future__ import annotations

from ..core.config import TESTS
from ..stream.schedule import Schedule, build_schedule, test_schedule
from ..stream.users import with_users
from ..tracks.registry import get_config

__all__ = ["PROTOCOL_PLAYS", "protocol_schedules"]

PROTOCOL_PLAYS = {
    "stream": "stream",
    "stream-reset": "stream-reset",
    "held-out": "held-out",
    "held-out-reset": "held-out-reset",
    "seen": "seen",
    "seen-reset": "seen-reset",
}
"""The plays of a protocol directory: the learner's stream and tests, and its reset on each."""


def protocol_schedules(config_name: str, seed: int, users: int) -> dict[str, Schedule]:
    """The schedule of each play: the stream (no epilogue), its reset, each test and its reset (width 1)."""
    config = with_users(get_config(config_name), users)
    out = {
        "stream": build_schedule(config, seed, epilogue=False),
        "stream-reset": build_schedule(config, seed, epilogue=False, reset_each=True),
    }
    for test in TESTS:
        out[test] = test_schedule(config, seed, test)
        out[f"{test}-reset"] = test_schedule(config, seed, test, width=1)
    return out
