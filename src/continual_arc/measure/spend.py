"""What a learner spent over its own plays, read from their records: model cost and tokens, or search.

The leaderboard shows it beside the score, never in it, and the ``cost`` figure draws the share
saved against it. The learner's own plays are counted (its stream and both tests; the reset and the
bare model are what it is read against, not what it spends), each play's counters read as
``report`` reads them
([run_resources][continual_arc.measure.report.run_resources]: per-instance counters summed, or the
cumulative ones at the end). ``learner_seconds`` sums the time spent inside the learner's calls
(each record's ``learner_time``): for a model-free learner, its search. Training compute
([run_training][continual_arc.measure.report.run_training]) is kept apart, and with it a teacher
model's calls over the learner's plays
([teacher_compute][continual_arc.measure.report.teacher_compute]), each counter prefixed ``teacher_``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.jsonable import fields_json
from ..core.records import JSONObject, Record
from .budget import primary
from .report import run_resources, run_training, teacher_compute

__all__ = ["Spend", "pooled_spend", "spend_of_runs"]


_TOKENS = ("prompt_tokens", "completion_tokens")
"""The token counters summed as tokens (reasoning tokens are part of the completion's)."""


@dataclass(frozen=True)
class Spend:
    """What the learner spent on its own plays.

    Attributes:
        instances: the primary instances those plays hold.
        usd: model cost in US dollars (the ``cost`` counter; ``None`` when no record counts it).
        tokens: prompt and completion tokens (``None`` when not counted).
        calls: model calls (``None`` when not counted).
        searches: searches of a model-free learner (``None`` when not counted).
        learner_seconds: seconds spent inside the learner's calls, every instance.
        training: training compute at the stream's end, with the teacher's counters over the
            learner's plays prefixed ``teacher_`` (``None`` for a learner that trains nothing and has
            no teacher).
    """

    instances: int
    usd: float | None
    tokens: float | None
    calls: float | None
    searches: float | None
    learner_seconds: float
    training: dict[str, float] | None = None

    @property
    def usd_per_instance(self) -> float | None:
        """Model cost per instance (``None`` without a cost counter or instances)."""
        return None if self.usd is None or not self.instances else self.usd / self.instances

    @property
    def searches_per_instance(self) -> float | None:
        """Searches per instance (``None`` without a search counter or instances)."""
        return None if self.searches is None or not self.instances else self.searches / self.instances

    @property
    def seconds_per_instance(self) -> float | None:
        """Learner seconds per instance (``None`` without instances)."""
        return self.learner_seconds / self.instances if self.instances else None

    def to_json(self) -> JSONObject:
        """The spend as JSON (every field)."""
        return fields_json(self)


def _maybe(totals: Sequence[dict[str, float]], keys: Iterable[str]) -> float | None:
    """The sum of ``keys`` over every play's totals; ``None`` when no play counts any of them."""
    wanted = tuple(keys)
    if not any(key in t for t in totals for key in wanted):
        return None
    return sum(t.get(key, 0.0) for t in totals for key in wanted)


def spend_of_runs(runs: Sequence[tuple[Sequence[Record], bool]], training: Sequence[Record] = ()) -> Spend:
    """The spend of plays given as their records and whether their users ran concurrently.

    Args:
        runs: each play's records, with its ``concurrent_users`` flag.
        training: the records whose last ``training_resources`` is the training compute (the stream's).
    """
    totals = [run_resources(records, concurrent) for records, concurrent in runs]
    # The teacher's counters are read from teacher_resources alone, over every play of the learner:
    # a learner that also reports them among its training counters (prefixed) is not counted twice.
    trained = run_training(training) or {}
    compute = {key: value for key, value in trained.items() if not key.startswith("teacher_")}
    for records, _ in runs:  # each play's teacher counters start afresh in its own process
        for key, value in (teacher_compute(records) or {}).items():
            compute[f"teacher_{key}"] = compute.get(f"teacher_{key}", 0.0) + value
    return Spend(
        instances=sum(len(primary(records)) for records, _ in runs),
        usd=_maybe(totals, ("cost",)),
        tokens=_maybe(totals, _TOKENS),
        calls=_maybe(totals, ("calls",)),
        searches=_maybe(totals, ("searches",)),
        learner_seconds=sum(float(r.get("learner_time") or 0.0) for records, _ in runs for r in records),
        training=compute or None,
    )


def _sum(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) if present else None


def pooled_spend(spends: Sequence[Spend | None]) -> Spend | None:
    """The spend of several seeds' results together (``None`` when any is unknown)."""
    if not spends or any(s is None for s in spends):
        return None
    known = [s for s in spends if s is not None]
    training: dict[str, float] = {}
    for s in known:
        for key, value in (s.training or {}).items():
            training[key] = training.get(key, 0.0) + value
    return Spend(
        instances=sum(s.instances for s in known),
        usd=_sum(s.usd for s in known),
        tokens=_sum(s.tokens for s in known),
        calls=_sum(s.calls for s in known),
        searches=_sum(s.searches for s in known),
        learner_seconds=sum(s.learner_seconds for s in known),
        training=training or None,
    )
