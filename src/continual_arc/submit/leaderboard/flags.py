"""A ranked result's flags, as the leaderboard shows them beside its numbers (its standing is apart)."""

from __future__ import annotations

from ...core.config import TESTS
from ...core.records import Phase
from ...measure.reset_flags import floor_notes
from ..check import CheckNumbers

__all__ = ["RECORDS_ONLY", "flags"]

RECORDS_ONLY = "records only: rebuild to replay (continual-arc runs rebuild)"
"""The mark of a result stored without trajectories (the repository's ``runs/``): every check but
the replay of its instances held; ``continual-arc runs rebuild`` plays it again and replays it.
Shown beside its standing, as information: such a result is reported like any self-run one unless a
trusted signature covers its records-only form."""


def flags(numbers: CheckNumbers) -> tuple[str, ...]:
    """A checked result's flags: not canonical, a reset below the bare model, the reset reference's flags."""
    out: list[str] = []
    protocol = numbers.get("protocol")
    if not (protocol is not None and protocol.get("canonical")):
        deviations = protocol.get("deviations") if protocol is not None else None
        out.append("ablation: " + "; ".join(deviations or ["not canonical"]))
    tests = {Phase.HELD_OUT: numbers["held-out"], Phase.SEEN: numbers["seen"]}
    out += [
        f"the reset plays below the bare model on the {t} test" for t in TESTS if tests[t].reset_below_bare
    ]
    reset_flags = numbers.get("flags")
    out += reset_flags.messages() if reset_flags else []
    out += floor_notes(reset_flags) if reset_flags else []  # a result read against no floor says so
    return tuple(out)
