"""A ranked result's status and flags, as the leaderboard shows them beside its numbers."""

from __future__ import annotations

from ..core.config import TESTS
from ..core.records import Phase
from .check import CheckNumbers
from .standing import Standing, StandingKind

__all__ = ["RECORDS_ONLY", "flags", "status"]

RECORDS_ONLY = "records only: rebuild to replay (continual-arc runs rebuild)"
"""The flag of a result stored without trajectories (the repository's ``runs/``): every check but
the replay of its instances held; ``continual-arc runs rebuild`` plays it again and replays it."""


def status(standing: Standing | None) -> str:
    """The status of a checked result: its standing (``reported`` when none was read).

    Only a trusted signature raises it (:func:`~continual_arc.submit.standing.standing_of`).
    """
    return str(standing.kind if standing is not None else StandingKind.REPORTED)


def flags(numbers: CheckNumbers) -> tuple[str, ...]:
    """A checked result's flags: not canonical, a reset below the bare model, the reset reference's flags."""
    out: list[str] = []
    protocol = numbers.get("protocol")
    if not (protocol is not None and protocol.get("canonical")):
        deviations = protocol.get("deviations") if protocol is not None else None
        out.append("ablation: " + "; ".join(deviations or ["not canonical"]))
    tests = {Phase.HELD_OUT: numbers["held-out"], Phase.SEEN: numbers["seen"]}
    out += [
        f"the reset plays below the bare model on the {t} test" for t in TESTS if tests[t]["reset_below_bare"]
    ]
    reset_flags = numbers.get("flags")
    out += list(reset_flags.get("messages", []) if reset_flags else [])
    return tuple(out)
