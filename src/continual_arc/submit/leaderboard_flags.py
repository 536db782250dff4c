"""A ranked result's status and flags, as the leaderboard shows them beside its numbers."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.config import TESTS
from ..core.records import JSONValue, Phase
from ..measure.reset_flags import floor_notes
from .check import CheckNumbers

__all__ = ["RECORDS_ONLY", "flags", "status"]

RECORDS_ONLY = "records only: rebuild to replay (continual-arc runs rebuild)"
"""The flag of a result stored without trajectories (the repository's ``runs/``): every check but
the replay of its instances held; ``continual-arc runs rebuild`` plays it again and replays it."""


def status(verification: Mapping[str, JSONValue] | None) -> str:
    """The status of a checked result: ``verified`` only when its rerun is tied to a pack manifest."""
    if verification is None:
        return "reported"
    about = verification.get("about")
    about = about if isinstance(about, Mapping) else {}
    if verification.get("mode") == "verified" and about.get("manifest_sha256"):
        return "verified"
    return "reproduced" if verification.get("mode") == "reproduced" else "reported"


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
    out += floor_notes(reset_flags) if reset_flags else []  # a result read against no floor says so
    return tuple(out)
