"""QT, QTE and QETE: the teacher plays an uncharged copy of each instance first, in the same harness.

Against the fake server behind a real tracking proxy serving two models (the student and the
teacher), with the scripted stand-in harness: the records' student and teacher counts each equal
what the server billed that model, the student plays every instance from the notes the teacher
left, and every record is marked as the experiment it is.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.core.records import Record
from continual_arc.core.teacher import UNCHARGED_TEACHER, experiment_of
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.submit.taught import EXPERIMENT_REFUSAL
from continual_arc.submit.verify import ExperimentRefusedError, VerifyOptions, verify
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

sys.path.insert(0, str(Path(__file__).parent))
from harness_rig import MODEL, ROWS, TEACHER, FakeHarnessLearner, answers, records, scripted_model

SMOKE = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)
GUIDANCE = "Keep one tested program per task"


@contextmanager
def two_models() -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    fake = FakeModelServer(scripted_model(answers(SMOKE))).start()
    try:
        with serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL, TEACHER))) as proxy:
            yield fake, proxy
    finally:
        fake.close()


def billed(fake: FakeModelServer, model: str) -> dict[str, float]:
    """What the server itself billed one model: the truth each side's counts are held to."""
    mine = [entry for entry in fake.bill if entry["model"] == model]
    return {
        "calls": float(len(mine)),
        "prompt_tokens": float(sum(e["tokens_prompt"] for e in mine)),
        "completion_tokens": float(sum(e["tokens_completion"] for e in mine)),
    }


def trajectories(out: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(out.glob("i/*.json"), key=lambda p: int(p.stem))]


@pytest.mark.parametrize("row", sorted(ROWS))
def test_the_teacher_plays_first_and_each_sides_counts_equal_the_servers(row: str, tmp_path: Path) -> None:
    variant, teacher_plays = ROWS[row]
    out = tmp_path / row
    with two_models() as (fake, proxy):
        learner = FakeHarnessLearner(
            MODEL, variant=variant, base_url=proxy.url, teacher=TEACHER, teacher_plays=teacher_plays
        )
        try:
            run(learner, SMOKE, out)
        finally:
            learner.close()
        student, teacher = billed(fake, MODEL), billed(fake, TEACHER)
    played = records(out)
    assert len(played) == len(SMOKE.slots) and all(r["experiment"] == UNCHARGED_TEACHER for r in played)
    # the student's own play is as without a teacher: a demonstration, a wrong answer, the right one
    assert all([a["action"] for a in r["actions"]] == ["request_demos", "submit", "submit"] for r in played)
    counted = {k: sum(r["instance_resources"][k] for r in played) for k in student}
    assert counted == student and student["calls"] == 5 * len(SMOKE.slots)
    last = max(played, key=lambda r: r["step"])["teacher_resources"]
    assert {k: last[k] for k in teacher} == teacher and teacher["calls"] == 5 * len(SMOKE.slots)
    assert [r["teacher_resources"]["uncharged_plays"] for r in played] == [n + 1 for n in range(len(played))]
    for record, trajectory in zip(played, trajectories(out), strict=True):
        copy = trajectory["teacher_play"]  # the runner's account of the copy, beside the student's events
        assert [e["action"]["action"] for e in copy["events"]] == ["request_demos", "submit", "submit"]
        assert copy["result"]["solved"] is True and copy["fault"] is None
        log = trajectory["learner_log"]
        assert log["teacher"]["model"] == TEACHER and len(log["teacher"]["tool_calls"]) == 3
        # on a task's first instance the teacher writes its note, and the student starts from it (it
        # is folded in with the student's own changes); on its return the note is there already
        note = f"notes/{record['alias']}.md"
        first = record["exposure_index"] == 0
        assert {f["path"] for f in log["teacher"]["workspace"]["written"]} == ({note} if first else set())
        assert (note in {f["path"] for f in log["workspace"]["written"]}) is first
        assert (note in {f["path"] for f in log["workspace"]["at_start"]}) is not first
        assert (GUIDANCE in log["teacher"]["prompt"]) is (teacher_plays == "keep_one_program")
        assert (GUIDANCE in log["prompt"]) is (variant == "keep_one_program")


def test_a_teacher_that_plays_nothing_is_counted_and_is_no_experiment(tmp_path: Path) -> None:
    with two_models() as (fake, proxy):
        learner = FakeHarnessLearner(MODEL, base_url=proxy.url, teacher=TEACHER)
        try:
            run(learner, SMOKE.first_rounds(2), tmp_path / "run")
        finally:
            learner.close()
        assert billed(fake, TEACHER)["calls"] == 0
    played = records(tmp_path / "run")
    assert all("experiment" not in r and r["teacher_resources"]["calls"] == 0 for r in played)


def test_a_learner_without_a_teacher_has_no_teacher_members() -> None:
    learner = FakeHarnessLearner(MODEL, base_url="http://127.0.0.1:9/v1")
    try:
        assert not hasattr(learner, "teacher_play") and not hasattr(learner, "teacher_resources")
    finally:
        learner.close()
    for bad in ({"teacher_plays": "as_shipped"}, {"teacher": TEACHER, "teacher_plays": "memory_wiped"}):
        with pytest.raises(ValueError, match="teacher_plays must be one of"):
            FakeHarnessLearner(MODEL, base_url="http://127.0.0.1:9/v1", **bad)


def test_the_teachers_run_name_follows_the_students_and_a_named_one_stays() -> None:
    drawn = FakeHarnessLearner(MODEL, base_url="http://127.0.0.1:9/v1", teacher=TEACHER)
    named = FakeHarnessLearner(MODEL, base_url="http://127.0.0.1:9/v1", teacher=TEACHER, run_id="mine")
    try:
        assert drawn.teacher is not None and named.teacher is not None
        assert drawn.teacher.run_id == f"{drawn.counts.run_id}-teacher"
        drawn.join_run("abc")  # the run directory's id: a resumed run is the same run at the proxy
        assert drawn.counts.run_id == "fake-harness-abc"
        assert drawn.teacher.run_id == drawn.teacher.session.client.run_id == "fake-harness-abc-teacher"
        named.join_run("abc")
        assert (named.counts.run_id, named.teacher.run_id) == ("mine", "mine-teacher")
    finally:
        drawn.close()
        named.close()


@pytest.mark.parametrize("row", sorted(ROWS))
def test_verify_refuses_each_teacher_row_in_one_sentence_before_it_plays(row: str, tmp_path: Path) -> None:
    tests = str(Path(__file__).parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))}
    options = VerifyOptions(
        learner=f"harness_rig:{row}Fake",
        config=with_users(get_config("arc1-smoke"), 1),
        out=tmp_path / "v",
        seed=7,
        env=env,
        teacher=TEACHER,
    )
    with pytest.raises(ExperimentRefusedError) as refused:
        verify(options)
    assert str(refused.value) == EXPERIMENT_REFUSAL and str(refused.value).count(". ") == 0
    assert not list((tmp_path / "v").glob("*/records.jsonl"))  # refused before a single instance


@pytest.mark.slow
def test_a_qt_protocol_passes_check_as_an_experiment_its_teacher_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tests = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")])))
    out = tmp_path / "qt"
    with two_models() as (fake, proxy):
        spec, options = (
            ProtocolSpec.named(
                "harness_rig:FakeHarnessLearner",
                "arc1-smoke",
                kwargs={
                    "model": MODEL,
                    "base_url": proxy.url,
                    "teacher": TEACHER,
                    "teacher_plays": "as_shipped",
                },
            ),
            ProtocolOptions(out=out, resamples=200, plots=False, floor=False),
        )
        play_protocol(spec, options)
        teacher_calls = billed(fake, TEACHER)["calls"]
    plays = [p for p in sorted(out.iterdir()) if (p / "records.jsonl").exists()]
    assert {"stream", "seen", "held-out"} <= {p.name for p in plays}
    # every play of it is the experiment, and its teacher's calls are every call the teacher was sent
    assert all(experiment_of(read_records(p)) == UNCHARGED_TEACHER for p in plays)
    assert sum(last_teacher(read_records(p))["calls"] for p in plays) == teacher_calls > 0
    submission = read_json(out / "submission.json")
    assert submission["teacher"] == TEACHER
    submission.update(student=MODEL, code="https://example.org/x@0", contact="x@y.z")
    atomic_write_json(out / "submission.json", submission)
    assert main(["check", str(out), "--resamples", "200", "--ablation"]) == 0
    printed = capsys.readouterr().out
    assert f"teacher: {TEACHER}" in printed and "experiment: an experiment, not a learner" in printed
    assert printed.rstrip().endswith("as an experiment: listed apart on the leaderboard, never verified")


def last_teacher(played: list[Record]) -> Mapping[str, float]:
    """A play's teacher counters at its end."""
    return max(played, key=lambda r: r["step"])["teacher_resources"]
