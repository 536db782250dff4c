"""The worked examples of docs/METRICS.md, "Pooling seeds, and the standard error over tasks"."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.measure.compare import share_saved
from continual_arc.measure.pool import PoolError, budget_estimate, pool_plays
from metrics_example import SEED0, SEED1, rec


def test_the_standard_error_example() -> None:
    pooled = pool_plays([SEED0, SEED1])
    estimate = budget_estimate(pooled)
    assert estimate.budget_used == pytest.approx(325 / 6)
    assert estimate.share_solved == pytest.approx(400 / 6)
    residuals = [-87.5, 150 - 325 / 6 * 2, 100 - 325 / 6]
    assert sum(r * r for r in residuals) == pytest.approx(11493.06, abs=0.01)
    assert estimate.standard_error == pytest.approx(math.sqrt(1.5 * 11493.0555) / 6)
    assert round(estimate.standard_error, 2) == 21.88
    assert (estimate.tasks, estimate.instances) == (3, 6)


def test_equal_counts_give_the_sd_of_task_means_over_root_t() -> None:
    charges = [("A", 8), ("A", 0), ("B", 16), ("B", 8), ("C", 4), ("C", 4)]
    records = [rec(task, i, charge) for i, (task, charge) in enumerate(charges)]
    means = [25.0, 75.0, 25.0]
    centre = sum(means) / 3
    sd = math.sqrt(sum((m - centre) ** 2 for m in means) / 2)
    assert budget_estimate(records).standard_error == pytest.approx(sd / math.sqrt(3))


def test_degenerate_budget_estimates() -> None:
    assert budget_estimate([]).budget_used is None
    one = budget_estimate([rec("A", 1, 8), rec("A", 2, 16)])
    assert one.budget_used == 75.0 and one.standard_error is None
    assert budget_estimate([rec("A", 1, 8, phase="seen")]).instances == 0
    assert budget_estimate([rec("A", 1, 8, phase="seen")], phase=None).instances == 1


def test_a_seed_pooled_twice_is_refused() -> None:
    with pytest.raises(PoolError, match="the same seed pooled twice"):
        pool_plays([SEED0, SEED0])


def test_the_pooled_share_saved_example() -> None:
    learner = pool_plays([[rec("A", 1, 0, "seen")], [rec("A", 11, 4, "seen"), rec("B", 12, 16, "seen")]])
    reset = pool_plays([[rec("A", 1, 8, "seen")], [rec("A", 11, 8, "seen"), rec("B", 12, 16, "seen")]])
    result = share_saved([learner], [reset], test="seen")
    assert result.share_saved.value == 0.375
    assert (result.share_saved.low, result.share_saved.high) == (0.0, 0.75)  # never 1.0: A stays whole


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABCDE"), st.integers(0, 16)), min_size=2, max_size=30))
def test_the_standard_error_is_the_cluster_formula(draws: list[tuple[str, int]]) -> None:
    records = [rec(task, i, charge) for i, (task, charge) in enumerate(draws)]
    estimate = budget_estimate(records)
    totals: dict[str, list[float]] = {}
    for task, charge in draws:
        totals.setdefault(task, []).append(100 * charge / 16)
    u = sum(sum(v) for v in totals.values()) / len(draws)
    assert estimate.budget_used == pytest.approx(u)
    if len(totals) < 2:
        assert estimate.standard_error is None
        return
    t = len(totals)
    spread = sum((sum(v) - u * len(v)) ** 2 for v in totals.values())
    assert estimate.standard_error == pytest.approx(math.sqrt(t / (t - 1) * spread) / len(draws))
