"""The Figures page's numbers (continual_arc.measure.figures), each worked out by hand beside the call."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.records import Record
from continual_arc.measure.figures import SweepProtocol, exposure_curve, floor_level, share_saved_by_users


def rec(task: str, seed: int, charge: int, phase: str = "stream", exposure: int = 0, step: int = 0) -> Record:
    """A primary record with a budget of 16 (u = charge * 100 / 16)."""
    return {"task_id": task, "seed": seed, "charge": charge, "max_cost": 16, "solved": charge < 16,
            "phase": phase, "exposure_index": exposure, "step": step, "episode_type": "primary"}  # fmt: skip


STREAM = [
    rec("A", 1, 8, exposure=0, step=0),  # u 50
    rec("B", 2, 16, exposure=0, step=1),  # u 100
    rec("A", 3, 4, exposure=1, step=2),  # u 25
    rec("B", 4, 0, exposure=1, step=3),  # u 0
    rec("A", 5, 2, exposure=2, step=4),  # u 12.5
    rec("A", 6, 16, phase="seen", step=5),  # a test: never on the curve
    {**rec("C", 7, 16, exposure=0, step=6), "episode_type": "auxiliary"},  # an add-on: in no measure
]


def test_the_curve_by_exposure_by_hand() -> None:
    assert exposure_curve(STREAM) == [
        {"exposure": 0, "instances": 2, "budget_used": 75.0},
        {"exposure": 1, "instances": 2, "budget_used": 12.5},
        {"exposure": 2, "instances": 1, "budget_used": 12.5},
    ]


def test_a_floor_sits_at_its_mean_u_over_returns() -> None:
    assert floor_level(STREAM) == pytest.approx((25 + 0 + 12.5) / 3)
    assert floor_level([rec("A", 1, 8)]) is None  # nothing returned


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 16)), min_size=1, max_size=40))
def test_the_curve_weighted_by_its_counts_is_the_streams_u(draws: list[tuple[int, int]]) -> None:
    records = [rec(f"T{i % 3}", i, charge, exposure=k, step=i) for i, (k, charge) in enumerate(draws)]
    curve = exposure_curve(records)
    assert sum(p["instances"] for p in curve) == len(records)
    assert [p["exposure"] for p in curve] == sorted({k for k, _ in draws})
    overall = sum(100 * c / 16 for _, c in draws) / len(draws)
    assert sum(p["budget_used"] * p["instances"] for p in curve) / len(records) == pytest.approx(overall)


def _protocol(label: str, users: int, seed: int, learner: list[int], reset: list[int]) -> SweepProtocol:
    """A protocol whose seen and held-out tests have one task per charge (the same on both tests)."""
    plays: dict[str, list[Record]] = {}
    for test in ("seen", "held-out"):
        for play, charges in ((test, learner), (f"{test}-reset", reset)):
            plays[play] = [rec(f"{label}{i}", seed * 100 + i, c, phase=test) for i, c in enumerate(charges)]
    return SweepProtocol(label, users, seed, plays)


def test_share_saved_by_users_pools_the_seeds_of_a_setting() -> None:
    sweep = [
        _protocol("x", 2, 1, [4, 8], [8, 8]),
        _protocol("x", 1, 0, [0], [16]),
        _protocol("x", 2, 0, [0, 16], [16, 16]),
        _protocol("y", 1, 0, [16], [8]),
    ]
    series = share_saved_by_users(sweep, resamples=200)
    assert [s["label"] for s in series] == ["x", "y"]
    x = series[0]["points"]
    assert [(p["users"], p["seeds"]) for p in x] == [(1, [0]), (2, [0, 1])]
    assert x[0]["seen"].value == pytest.approx(1.0)  # saved all 16 of 16
    # two users: the learner spent 0 + 16 + 4 + 8 = 28 of the reset's 16 + 16 + 8 + 8 = 48
    assert x[1]["seen"].value == pytest.approx(1 - 28 / 48)
    assert x[1]["held_out"].value == pytest.approx(1 - 28 / 48)
    assert series[1]["points"][0]["held_out"].value == pytest.approx(1 - 16 / 8)  # spent twice the reset's


def test_a_missing_test_is_an_undefined_point_with_its_reason() -> None:
    partial = SweepProtocol("z", 4, 0, {"seen": [rec("A", 1, 0, phase="seen")]})
    point = share_saved_by_users([partial], resamples=50)[0]["points"][0]
    assert point["seen"].value is None and point["seen"].note == "the seen test or its reset is missing"
