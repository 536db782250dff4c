"""The numbers behind the viewer's *Figures* page, computed from records alone.

* [`exposure_curve`][continual_arc.measure.figures.exposure_curve]: the learning curve by exposure, ``U``
  (mean ``u``, in points of the budget) of the stream instances that met their task for the k-th time, k = 0,
  1, ...;
* [`floor_level`][continual_arc.measure.figures.floor_level]: where a floor sits on that figure: its ``U``
  over the returns (``exposure_index >= 1``), once it has met each task, drawn as a horizontal line;
* [`share_saved_by_users`][continual_arc.measure.figures.share_saved_by_users]: the share saved on each test
  against the number of users, one series per learner of a sweep, each setting's seeds pooled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from ..core.records import Phase, Play, Record
from .bootstrap import RESAMPLES, Estimate
from .compare import share_saved
from .diagnostics import cost_by_exposure, stream_records
from .pool import pool_plays

__all__ = [
    "ExposurePoint",
    "SweepProtocol",
    "UsersPoint",
    "UsersSeries",
    "exposure_curve",
    "floor_level",
    "share_saved_by_users",
]


class ExposurePoint(TypedDict):
    """One point of the learning curve by exposure: the exposure index, its instances, their ``U``."""

    exposure: int
    instances: int
    budget_used: float


class UsersPoint(TypedDict):
    """One setting of a series: its users, the seeds pooled, and the share saved on each test."""

    users: int
    seeds: list[int]
    seen: Estimate
    held_out: Estimate


class UsersSeries(TypedDict):
    """One learner's points, by number of users (ascending)."""

    label: str
    points: list[UsersPoint]


@dataclass(frozen=True)
class SweepProtocol:
    """One finished protocol of a sweep: its row's label, users and seed, and its plays' records."""

    label: str
    users: int
    seed: int
    plays: Mapping[str, Sequence[Record]]


def exposure_curve(records: Iterable[Record]) -> list[ExposurePoint]:
    """``U`` per exposure index over the primary stream instances, in order of the index.

    An index no instance met is left out (the curve has no point there, rather than a zero).
    """
    return [
        {"exposure": int(k), "instances": group["instances"], "budget_used": group["mean_charge"]}
        for k, group in cost_by_exposure(records).items()
        if group["mean_charge"] is not None
    ]


def floor_level(records: Iterable[Record]) -> float | None:
    """A floor's ``U`` over the stream's returns (``None``: no task returned on its stream)."""
    returns = [r for r in stream_records(records) if (r["exposure_index"] or 0) >= 1]
    if not returns:
        return None
    return sum(100.0 * float(r["charge"]) / float(r["max_cost"]) for r in returns) / len(returns)


def _test_share(protocols: Sequence[SweepProtocol], test: Phase, seed: int, resamples: int) -> Estimate:
    """The share saved on ``test`` by the pooled plays (undefined, with a note, if one is missing)."""
    run, reset = Play.of(test), Play.of(test, reset=True)
    if any(run not in p.plays or reset not in p.plays for p in protocols):
        return Estimate(None, note=f"the {test} test or its reset is missing")
    learner = pool_plays(p.plays[run] for p in protocols)
    baseline = pool_plays(p.plays[reset] for p in protocols)
    return share_saved([learner], [baseline], seed=seed, test=test, resamples=resamples).share_saved


def share_saved_by_users(
    protocols: Iterable[SweepProtocol], *, seed: int = 0, resamples: int = RESAMPLES
) -> list[UsersSeries]:
    """The share saved on each test at each number of users, one series per label (in order first met).

    The protocols of one label at one number of users are pooled over their seeds, as a sweep's
    table pools them, and compared with their resets instance by instance
    ([`share_saved`][continual_arc.measure.compare.share_saved]).
    """
    groups: dict[str, dict[int, list[SweepProtocol]]] = {}
    for protocol in protocols:
        groups.setdefault(protocol.label, {}).setdefault(protocol.users, []).append(protocol)
    series: list[UsersSeries] = []
    for label, by_users in groups.items():
        points: list[UsersPoint] = []
        for users in sorted(by_users):
            chosen = sorted(by_users[users], key=lambda p: p.seed)
            points.append(
                {
                    "users": users,
                    "seeds": [p.seed for p in chosen],
                    "seen": _test_share(chosen, Phase.SEEN, seed, resamples),
                    "held_out": _test_share(chosen, Phase.HELD_OUT, seed, resamples),
                }
            )
        series.append({"label": label, "points": points})
    return series
