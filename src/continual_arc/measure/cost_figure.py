"""The numbers of the cost figure: each learner's share saved on each test against its cost per instance.

One point per learner and setting, its seeds pooled: the share saved on each test from every seed's
runs together ([share_saved][continual_arc.measure.compare.share_saved]), and what one instance
cost the learner over its stream and both tests ([spend][continual_arc.measure.spend]), in one
unit for every point ([cost_unit][continual_arc.measure.cost_figure.cost_unit]): dollars of model
calls where any point counts them; else, for model-free learners, searches where every point counts
them (a count the records give the same on any machine, where seconds are the machine's clock and
shrink under a search cache); else seconds inside the learner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from ..core.config import TESTS
from ..core.records import Phase, Play, Record
from .bootstrap import Estimate
from .compare import share_saved
from .spend import pooled_spend, spend_of_runs

__all__ = ["COST_LABELS", "CostPoint", "CostProtocol", "cost_of", "cost_points", "cost_unit"]


@dataclass(frozen=True)
class CostProtocol:
    """One finished protocol as the cost figure reads it.

    Attributes:
        label, users, seed: its point's label and users, and its seed.
        plays: its plays' records, by play.
        concurrent: whether its learner's counters are per user (its stream's ``concurrent_users``).
    """

    label: str
    users: int
    seed: int
    plays: Mapping[str, Sequence[Record]]
    concurrent: bool


class CostPoint(TypedDict):
    """One learner's point: its label, users and seeds, cost per instance, and each test's share saved."""

    label: str
    users: int
    seeds: list[int]
    usd_per_instance: float | None
    searches_per_instance: float | None
    seconds_per_instance: float | None
    seen: Estimate
    held_out: Estimate


def cost_points(protocols: Sequence[CostProtocol], *, resamples: int, seed: int = 0) -> list[CostPoint]:
    """The cost figure's points, one per label and users (seeds pooled), in order of label then users."""
    groups: dict[tuple[str, int], list[CostProtocol]] = {}
    for protocol in protocols:
        groups.setdefault((protocol.label, protocol.users), []).append(protocol)
    points: list[CostPoint] = []
    for (label, users), members in sorted(groups.items()):
        members = sorted(members, key=lambda p: p.seed)
        spend = pooled_spend(
            [
                spend_of_runs(
                    [(p.plays[play], p.concurrent) for play in (Play.STREAM, Play.SEEN, Play.HELD_OUT)],
                    p.plays[Play.STREAM],
                )
                for p in members
            ]
        )
        shares = {
            test: share_saved(
                [p.plays[Play.of(test)] for p in members],
                [p.plays[Play.of(test, reset=True)] for p in members],
                seed=seed,
                test=test,
                resamples=resamples,
            ).share_saved
            for test in TESTS
        }
        points.append(
            {
                "label": label,
                "users": users,
                "seeds": [p.seed for p in members],
                "usd_per_instance": spend.usd_per_instance if spend else None,
                "searches_per_instance": spend.searches_per_instance if spend else None,
                "seconds_per_instance": spend.seconds_per_instance if spend else None,
                "seen": shares[Phase.SEEN],
                "held_out": shares[Phase.HELD_OUT],
            }
        )
    return points


def cost_unit(points: Sequence[CostPoint]) -> str:
    """The cost axis's unit (``usd``, ``searches`` or ``seconds``).

    ``usd`` when any point counts model cost, else ``searches`` when every point counts them.
    """
    if any(p["usd_per_instance"] is not None for p in points):
        return "usd"
    if points and all(p["searches_per_instance"] is not None for p in points):
        return "searches"
    return "seconds"


def cost_of(point: CostPoint, unit: str) -> float | None:
    """A point's cost per instance in ``unit`` (a model-free point costs no dollars: 0)."""
    if unit == "usd":
        return point["usd_per_instance"] or 0.0
    return point["searches_per_instance"] if unit == "searches" else point["seconds_per_instance"]


COST_LABELS = {
    "usd": "model cost per instance, US dollars",
    "searches": "searches per instance (model-free)",
    "seconds": "seconds inside the learner per instance",
}
"""The cost axis's label in each unit."""
