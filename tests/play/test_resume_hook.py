"""The learner's optional ``resume_from(records)``: called when a run is resumed, and only then."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.play.options import RunOptions
from continual_arc.play.remote import remote_learner
from continual_arc.play.rundir import read_records
from continual_arc.protocol.jobs import PlayJob, final_state, play_job, prepare
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")
STREAM = build_schedule(TOY, 0, epilogue=False)


class Resumable(ToyRuleLearner):
    """Notes each ``load_state`` and ``resume_from``; its counters say how many records it resumed from."""

    def __init__(self, keep: bool = True) -> None:
        super().__init__(keep)
        self.calls: list[tuple[str, int]] = []
        self.resumed_with = 0.0

    def load_state(self, directory: Any) -> None:
        super().load_state(directory)
        self.calls.append(("load_state", 0))

    def resume_from(self, records: list[dict[str, Any]]) -> None:
        self.calls.append(("resume_from", len(records)))
        self.resumed_with = float(len(records))
        records.clear()  # its own copy: the run's records stay as they are

    def resources(self) -> dict[str, float]:
        return {**super().resources(), "resumed_with": self.resumed_with}


def test_resume_from_gets_the_committed_records_when_a_run_resumes(tmp_path: Path) -> None:
    first = Resumable()
    run(first, STREAM.first_rounds(3), tmp_path / "run")
    assert first.calls == []  # a fresh run is not a resumed one
    committed = read_records(tmp_path / "run")
    again = Resumable()
    records = run(again, STREAM, tmp_path / "run", RunOptions(resume=True)).records
    assert again.calls == [("load_state", 0), ("resume_from", len(committed))]
    assert records[: len(committed)] == committed
    assert records[len(committed)]["resources"]["resumed_with"] == len(committed)


def test_resume_from_is_not_called_before_a_frozen_test(tmp_path: Path) -> None:
    run(Resumable(), STREAM, tmp_path / "stream")
    seen = test_schedule(TOY, 0, "seen")
    seen.first_rounds(2).save(tmp_path / "seen-cut.json")
    seen.save(tmp_path / "seen.json")

    def job(schedule: str) -> PlayJob:
        return PlayJob(
            "seen",
            tmp_path / "seen",
            tmp_path / schedule,
            LearnerRef(f"{__name__}:Resumable"),
            final_state(tmp_path / "stream"),
            tmp_path / "stream" / "alias-salt",
        )

    cut = prepare(job("seen-cut.json"))
    play_job(job("seen-cut.json"), cut, progress=lambda _: None)
    assert cut.calls == [("load_state", 0)]  # the stream's end state, and no resume
    resumed = prepare(job("seen.json"))
    play_job(job("seen.json"), resumed, progress=lambda _: None)
    committed = len([r for r in read_records(tmp_path / "seen") if r["round"] < 2])
    assert resumed.calls == [("load_state", 0), ("load_state", 0), ("resume_from", committed)]


REMOTE = """
from continual_arc.testing import ToyRuleLearner


class Resumable(ToyRuleLearner):
    resumed_with = 0.0

    def resume_from(self, records):
        self.resumed_with = float(len(records))

    def resources(self):
        return {**super().resources(), "resumed_with": self.resumed_with}
"""


def test_a_remote_learner_gets_resume_from_across_its_pipe(tmp_path: Path) -> None:
    (tmp_path / "resumable.py").write_text(REMOTE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    spec = LearnerRef("resumable:Resumable")
    for schedule, resume in ((STREAM.first_rounds(2), False), (STREAM, True)):
        learner = remote_learner(spec, tmp_path / "work", env=env)
        try:
            assert callable(getattr(learner, "resume_from", None))
            records = run(
                learner, schedule, tmp_path / "run", RunOptions(resume=resume, learner=spec)
            ).records
        finally:
            learner.close()
    assert [r["resources"]["resumed_with"] for r in records] == [0.0] * 2 + [2.0] * (len(records) - 2)
