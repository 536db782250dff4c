"""Pooling runs of several seeds, and the budget used with its standard error over tasks.

The leaderboard pools the three canonical seeds (orders) of a learner: its row reads every seed's
instances together. Tasks are fixed by the configuration, not by the run seed, so the seeds are
replicates over the same tasks, and pooling keeps each task's instances from every seed together:

* [`pool_plays`][continual_arc.measure.pool.pool_plays] joins the records of several plays into one, refusing
  two plays that share an instance (the same task and instance seed: a seed pooled twice);
* [`budget_estimate`][continual_arc.measure.pool.budget_estimate] gives ``U`` with its standard error over
  tasks, and ``P``;
* the shares saved and learned of pooled records are [`compare`][continual_arc.measure.compare]'s, whose
  bootstrap resamples tasks, so each task's instances from every seed stay together.

docs/METRICS.md gives the formulas with a worked example, which ``tests/measure/test_pool.py`` checks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.errors import ContinualArcError
from ..core.jsonable import fields_json
from ..core.records import JSONObject, Phase
from .budget import Record, instance_charge, primary, share_solved

__all__ = ["BudgetEstimate", "PoolError", "budget_estimate", "pool_plays"]


class PoolError(ContinualArcError, ValueError):
    """Plays that cannot be pooled: two of them hold the same instance."""


def pool_plays(plays: Iterable[Sequence[Record]]) -> list[Record]:
    """The primary records of several plays as one play.

    Raises:
        PoolError: two plays hold the same instance (real task id and instance seed), so pooling
            would count it twice.
    """
    pooled: list[Record] = []
    owner: dict[tuple[str, int, str], int] = {}
    for i, play in enumerate(plays):
        for record in primary(play):
            key = (record["task_id"], int(record["seed"]), record["phase"])
            if owner.setdefault(key, i) != i:
                raise PoolError(
                    f"plays {owner[key] + 1} and {i + 1} both hold {key[2]} instance {key[1]} of task "
                    f"{key[0]}: the same seed pooled twice?"
                )
            pooled.append(record)
    return pooled


@dataclass(frozen=True)
class BudgetEstimate:
    """``U`` with its standard error over tasks, and ``P``.

    Attributes:
        budget_used: ``U``, the mean charge in points of the budget (``None`` without instances).
        standard_error: its standard error over tasks (``None`` with fewer than two tasks).
        share_solved: ``P``.
        instances, tasks: what was read.
    """

    budget_used: float | None
    standard_error: float | None
    share_solved: float | None
    instances: int
    tasks: int

    def to_json(self) -> JSONObject:
        """The estimate as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


def budget_estimate(records: Sequence[Record], phase: str | None = Phase.STREAM) -> BudgetEstimate:
    """``U`` and its standard error over tasks, and ``P``, over the primary records of ``phase``.

    ``U = sum_t C_t / sum_t n_t``, where task ``t`` holds ``n_t`` instances (from every pooled
    seed) whose charges in points sum to ``C_t``. Tasks are the sampled units, so the standard
    error is the ratio estimator's over clusters:
    ``SE = sqrt(T / (T - 1) * sum_t (C_t - U * n_t) ** 2) / sum_t n_t`` over ``T`` tasks; when
    every task holds as many instances, it is the standard deviation of the task means over
    ``sqrt(T)``.

    Args:
        records: the records (one play, or several pooled by
            [`pool_plays`][continual_arc.measure.pool.pool_plays]).
        phase: the phase read (``None``: every primary record).
    """
    chosen = [r for r in primary(records) if phase is None or r["phase"] == phase]
    totals: dict[str, list[float]] = {}
    for record in chosen:
        entry = totals.setdefault(record["task_id"], [0.0, 0.0])
        entry[0] += instance_charge(record)
        entry[1] += 1.0
    tasks = len(totals)
    if not chosen:
        return BudgetEstimate(None, None, None, 0, 0)
    count = float(len(chosen))
    used = sum(c for c, _ in totals.values()) / count
    error = None
    if tasks > 1:
        spread = sum((c - used * n) ** 2 for c, n in totals.values())
        error = math.sqrt(tasks / (tasks - 1) * spread) / count
    return BudgetEstimate(used, error, share_solved(chosen), len(chosen), tasks)
