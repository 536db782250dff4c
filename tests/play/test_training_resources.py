"""``training_resources()``: training compute in every record, apart from ``resources``, and in ``report``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from continual_arc.core.files import read_json
from continual_arc.measure.report import format_run, run_report
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")


class Training(ToyRuleLearner):
    """The toy learner, "training" one second and ten tokens at every round's end."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds = 0

    def end_round(self) -> None:
        super().end_round()
        self.rounds += 1

    def training_resources(self) -> Mapping[str, float]:
        return {"device_seconds": 1.0 * self.rounds, "tokens_trained": 10.0 * self.rounds}


def test_records_carry_the_training_compute_and_report_shows_it_apart(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, epilogue=False)
    records = run(Training(), schedule, tmp_path / "t").records
    for record in records:  # each instance's record holds the compute after its round's training
        rounds = record["round"] + 1
        assert record["training_resources"] == {"device_seconds": rounds, "tokens_trained": 10 * rounds}
        assert "tokens_trained" not in record["resources"]
    report = run_report(tmp_path / "t", read_json(tmp_path / "t" / "meta.json"), records)
    rounds = max(r["round"] for r in records) + 1
    assert report["training"] == {"device_seconds": rounds, "tokens_trained": 10 * rounds}
    text = format_run(report)
    assert f"device_seconds {rounds}, tokens_trained {10 * rounds}" in text
    assert text.index("resources:") < text.index("training compute")


def test_a_learner_that_trains_nothing_leaves_records_and_report_as_they_were(tmp_path: Path) -> None:
    records = run(ToyRuleLearner(), build_schedule(TOY, 0, epilogue=False), tmp_path / "t").records
    assert all("training_resources" not in r for r in records)
    report = run_report(tmp_path / "t", read_json(tmp_path / "t" / "meta.json"), records)
    assert "training" not in report and "training compute" not in format_run(report)
