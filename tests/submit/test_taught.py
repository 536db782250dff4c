"""A teacher in every layer: records, report, submission, check, leaderboard and verify.

The toy learners of tests/learners/taught_learner.py count one teacher call (ten prompt tokens, a
thousandth of a dollar) for every instance they open; ``UnchargedToy``'s teacher also "plays" each
instance first with nothing charged, so its runs are experiments.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.core.teacher import UNCHARGED_TEACHER, experiment_of
from continual_arc.measure.report import format_run, run_report
from continual_arc.play.learner import load_object
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.leaderboard import check_result, leaderboard
from continual_arc.submit.leaderboard.formats import leaderboard_csv, leaderboard_markdown
from continual_arc.submit.taught import EXPERIMENT_REFUSAL
from continual_arc.submit.verify import ExperimentRefusedError, VerifyOptions, verify
from continual_arc.tracks.registry import get_config

LEARNERS = Path(__file__).resolve().parents[1] / "learners"
TOY = get_config("toy-smoke")
TEACHER = "z-ai/glm-5.3-flash"
"""The teacher the toy learners name (taught_learner.TEACHER)."""


@pytest.fixture(autouse=True)
def _learners_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(LEARNERS), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.syspath_prepend(str(LEARNERS))


def _protocol(root: Path, learner: str) -> Path:
    out = root / learner.rsplit(":", 1)[-1]
    spec, options = (
        ProtocolSpec.named(f"taught_learner:{learner}", "toy-smoke", kwargs={"teacher": TEACHER}),
        ProtocolOptions(out=out, jobs=1, resamples=200),
    )
    play_protocol(spec, options)
    submission = read_json(out / "submission.json")
    submission.update(student="none", code="https://example.org/learner@abc123", contact="a@example.org")
    atomic_write_json(out / "submission.json", submission)
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("taught")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(LEARNERS))
        return {name: _protocol(root, name) for name in ("TaughtToy", "UnchargedToy")}


@pytest.mark.parametrize("name", ["TaughtToy", "UnchargedToy"])
def test_records_count_the_teacher_apart_and_mark_uncharged_play(name: str, tmp_path: Path) -> None:
    cls = load_object(f"taught_learner:{name}", what="toy learner").__class__
    assert cls().teacher == TEACHER
    records = run(cls(), build_schedule(TOY, 0, epilogue=False), tmp_path / "t").records
    for n, record in enumerate(sorted(records, key=lambda r: r["step"]), start=1):
        # one user: the nth record closes the nth instance opened, so the counters are n's
        assert record["teacher_resources"]["calls"] == n
        assert record["teacher_resources"]["prompt_tokens"] == 10 * n
        assert "prompt_tokens" not in record["resources"]  # the student's counters hold none of it
        assert record.get("experiment") == (UNCHARGED_TEACHER if cls.uncharged else None)
    meta = read_json(tmp_path / "t" / "meta.json")
    text = format_run(run_report(tmp_path / "t", meta, records))
    assert f"calls {len(records)}, prompt_tokens {10 * len(records)}" in text
    assert text.index("resources:") < text.index("teacher (unnamed): training compute")
    assert ("EXPERIMENT:" in text) is cls.uncharged


def test_a_learner_without_a_teacher_leaves_its_records_as_they_were(tmp_path: Path) -> None:
    from continual_arc.testing import ToyRuleLearner

    records = run(ToyRuleLearner(), build_schedule(TOY, 0, epilogue=False), tmp_path / "t").records
    assert all("teacher_resources" not in r and "experiment" not in r for r in records)
    assert experiment_of(records) is None


def test_the_submission_names_the_teacher_and_check_accepts_a_taught_learner(
    results: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = results["TaughtToy"]
    assert read_json(out / "submission.json")["teacher"] == TEACHER
    result = check_submission(out, resamples=200, allow_ablation=True)
    assert result.ok, result.problems
    assert (result.teacher, result.experiment) == (TEACHER, None)
    assert main(["check", str(out), "--resamples", "200", "--ablation"]) == 0
    printed = capsys.readouterr().out
    assert f"teacher: {TEACHER}" in printed and "experiment" not in printed
    assert printed.rstrip().endswith("every check holds")


def test_check_accepts_an_uncharged_teacher_as_an_experiment_and_says_so(
    results: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = results["UnchargedToy"]
    result = check_submission(out, resamples=200, allow_ablation=True)
    assert result.ok, result.problems
    assert result.experiment == UNCHARGED_TEACHER and result.to_json()["experiment"] == UNCHARGED_TEACHER
    assert main(["check", str(out), "--resamples", "200", "--ablation"]) == 0
    printed = capsys.readouterr().out
    assert "experiment: an experiment, not a learner" in printed
    assert "as an experiment: listed apart on the leaderboard, never verified" in printed


def test_a_submission_naming_another_teacher_than_its_learner_played_is_refused(
    results: dict[str, Path], tmp_path: Path
) -> None:
    import shutil

    out = tmp_path / "edited"
    shutil.copytree(results["TaughtToy"], out)
    submission = read_json(out / "submission.json")
    atomic_write_json(out / "submission.json", {**submission, "teacher": "openai/gpt-5"})
    result = check_submission(out, resamples=200, allow_ablation=True, regenerate=False)
    assert not result.ok
    assert any(
        "the learner's teacher is 'z-ai/glm-5.3-flash' but submission.json names" in p
        for p in result.problems
    )
    atomic_write_json(out / "submission.json", {**submission, "teacher": "glm flash"})
    result = check_submission(out, resamples=200, allow_ablation=True, regenerate=False)
    assert any("teacher 'glm flash' names no published model" in p for p in result.problems)


def test_the_leaderboard_lists_experiments_in_a_table_of_their_own(results: dict[str, Path]) -> None:
    checked = [
        check_result(p, resamples=200, allow_ablation=True, regenerate=False) for p in results.values()
    ]
    board = leaderboard(checked)
    reported = [row.name for table in board.reported for row in table.rows]
    tried = [row for table in board.experiments for row in table.rows]
    assert [row.teacher for row in tried] == [TEACHER] and all(t.experiment for t in board.experiments)
    assert len(reported) == 1 and tried[0].name not in reported
    assert [row.spend.training["teacher_calls"] for row in tried if row.spend and row.spend.training]
    text = leaderboard_markdown(board)
    assert text.index("# Reported") < text.index("# Experiments") < text.index("(experiment)")
    tables = [row["table"] for row in csv.DictReader(io.StringIO(leaderboard_csv(board)))]
    assert sorted(tables) == ["experiment", "reported"]
    json_board = board.to_json()
    assert len(json_board["experiments"]) == 1 and json_board["experiments"][0]["experiment"] is True


def test_the_teacher_compute_is_summed_over_the_learners_plays(results: dict[str, Path]) -> None:
    checked = check_result(results["TaughtToy"], resamples=200, allow_ablation=True, regenerate=False)
    plays = [results["TaughtToy"] / name for name in ("stream", "seen", "held-out")]
    want = sum(len(read_records(p)) for p in plays)  # one call for each instance the learner opened
    assert checked.spend is not None and checked.spend.training is not None
    assert checked.spend.training["teacher_calls"] == want
    assert checked.spend.training["teacher_prompt_tokens"] == 10 * want


def test_verify_refuses_an_experiment_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {**os.environ, "PYTHONPATH": str(LEARNERS)}
    options = VerifyOptions(
        learner="taught_learner:UnchargedToy",
        config=with_users(TOY, 1),
        out=tmp_path / "v",
        seed=7,
        env=env,
        resamples=200,
        teacher=TEACHER,
    )
    with pytest.raises(ExperimentRefusedError) as refused:
        verify(options)
    assert str(refused.value) == EXPERIMENT_REFUSAL and str(refused.value).count(". ") == 0
    code = main(["verify", "--learner", "taught_learner:UnchargedToy", "--config", "toy-smoke", "--seed", "8",
                 "--out", str(tmp_path / "w"), "--resamples", "200"])  # fmt: skip
    assert code != 0
    err = capsys.readouterr().err
    assert EXPERIMENT_REFUSAL in err and "Traceback" not in err


def test_verify_refuses_a_learner_whose_teacher_plays_first_before_it_plays(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(LEARNERS)}
    options = VerifyOptions(
        learner="taught_learner:RehearsedToy", config=with_users(TOY, 1), out=tmp_path / "v", seed=7, env=env
    )
    with pytest.raises(ExperimentRefusedError, match="not a learner the benchmark verifies"):
        verify(options)
    assert not list((tmp_path / "v").glob("*/records.jsonl"))  # refused before a single instance
