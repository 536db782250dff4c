"""The teacher's compute in a learner's spend: summed over its plays, apart from the score, never twice."""

from __future__ import annotations

from typing import Any, cast

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.records import Record
from continual_arc.measure.spend import spend_of_runs


def _play(teacher_calls: list[int], trained: dict[str, float] | None = None) -> list[Record]:
    """A play's records: each instance's cumulative teacher counters (and training ones, if any)."""
    records: list[dict[str, Any]] = []
    for step, calls in enumerate(teacher_calls):
        record: dict[str, Any] = {
            "step": step,
            "user": 0,
            "learner_time": 0.0,
            "resources": {"calls": float(step + 1)},
            "instance_resources": {"calls": 1.0},
            "teacher_resources": {"calls": float(calls), "cost": 0.5 * calls},
        }
        if trained is not None:
            record["training_resources"] = dict(trained)
        records.append(record)
    return cast(list[Record], records)


@given(st.lists(st.lists(st.integers(0, 50), min_size=1, max_size=5).map(sorted), min_size=1, max_size=3))
def test_each_plays_last_teacher_counters_are_summed(plays: list[list[int]]) -> None:
    runs = [(_play(calls), False) for calls in plays]
    spend = spend_of_runs(runs, runs[0][0])
    want = sum(calls[-1] for calls in plays)
    assert spend.training == {"teacher_calls": want, "teacher_cost": 0.5 * want}
    assert spend.calls == sum(len(calls) for calls in plays)  # the student's calls, apart


def test_a_learner_reporting_its_teacher_among_training_counters_is_not_counted_twice() -> None:
    stream = _play([2, 4], trained={"device_seconds": 3.0, "teacher_calls": 4.0})
    spend = spend_of_runs([(stream, False)], stream)
    assert spend.training == {"device_seconds": 3.0, "teacher_calls": 4.0, "teacher_cost": 2.0}


def test_a_learner_without_a_teacher_spends_as_before() -> None:
    plain = [cast(dict[str, Any], r) for r in _play([1])]
    del plain[0]["teacher_resources"]
    spend = spend_of_runs([(cast(list[Record], plain), False)])
    assert spend.training is None
