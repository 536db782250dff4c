"""A bootstrap over tasks: resample tasks with replacement, keep each task's instances together.

Every measure of the benchmark is a ratio of sums over instances (or a mean, a ratio with the
instance count below). Summing each quantity per task first makes a resample a weighted sum of
task totals, so ``B`` resamples of ``T`` tasks are one ``B x T`` matrix of task indices and a few
gathers: 10,000 resamples of a 100-task test take milliseconds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..core.jsonable import fields_json
from ..core.records import JSONObject
from ..core.seeding import stable_int

__all__ = ["RESAMPLES", "Estimate", "estimate_rng", "ratio_estimate"]

RESAMPLES = 10_000
"""The default number of bootstrap resamples."""

FloatArray = npt.NDArray[np.float64]


def estimate_rng(seed: int, estimate: str, instances: Iterable[tuple[str, int]]) -> np.random.Generator:
    """The random stream of one estimate, named by the estimate and the instances it reads.

    Every command that reads the same runs therefore prints the same interval for a measure,
    whatever else it computes before it and in whatever order.

    Args:
        seed: the bootstrap seed (``--bootstrap-seed``).
        estimate: what is estimated (``"share_saved/seen"``, ``"share_learned"``, ...).
        instances: the (real task id, instance seed) of every instance it reads.
    """
    digest = hashlib.sha256("\n".join(f"{task}\x1f{s}" for task, s in sorted(instances)).encode())
    return np.random.default_rng(stable_int("bootstrap", seed, estimate, digest.hexdigest()))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95 % bootstrap interval.

    Attributes:
        value: the estimate (``None`` when it is undefined: the note says why).
        low: the 2.5th percentile of the resampled estimates (``None`` when there is no interval).
        high: the 97.5th percentile.
        note: why a value or interval is missing, or how many resamples were undefined.
    """

    value: float | None
    low: float | None = None
    high: float | None = None
    note: str | None = None

    def to_json(self) -> JSONObject:
        """The estimate as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


def ratio_estimate(
    numerators: Sequence[float] | FloatArray,
    denominators: Sequence[float] | FloatArray,
    rng: np.random.Generator,
    *,
    scale: float = 1.0,
    resamples: int = RESAMPLES,
    undefined: str = "the denominator is zero",
) -> Estimate:
    """``scale * sum(numerators) / sum(denominators)`` over tasks, with a 95 % task bootstrap.

    Args:
        numerators: one total per task.
        denominators: one total per task, in the same order.
        rng: the random stream of the resamples (pass a seeded generator: the interval is then
            reproducible).
        scale: a factor applied to every ratio (e.g. 100 to express a mean charge in points).
        resamples: how many resamples.
        undefined: the note when the whole-sample denominator is zero.

    Returns:
        The estimate. With no tasks, or a zero denominator, the value is ``None`` with a note; with
        one task there is no interval (a note says so); resamples whose denominator is zero are left
        out of the interval and counted in the note.
    """
    num = np.asarray(numerators, dtype=np.float64)
    den = np.asarray(denominators, dtype=np.float64)
    if num.shape != den.shape or num.ndim != 1:
        raise ValueError("numerators and denominators need one value per task each")
    tasks = len(num)
    if tasks == 0:
        return Estimate(None, note="no instances")
    total = float(den.sum())
    if total == 0.0:
        return Estimate(None, note=undefined)
    value = scale * float(num.sum()) / total
    if tasks == 1:
        return Estimate(value, note="one task: no interval")
    picks = rng.integers(0, tasks, size=(resamples, tasks))
    num_b = num[picks].sum(axis=1)
    den_b = den[picks].sum(axis=1)
    defined = den_b != 0.0
    ratios = scale * num_b[defined] / den_b[defined]
    dropped = resamples - int(defined.sum())
    note = f"{dropped} of {resamples} resamples undefined ({undefined})" if dropped else None
    if ratios.size == 0:
        return Estimate(value, note=note)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return Estimate(value, float(low), float(high), note)
