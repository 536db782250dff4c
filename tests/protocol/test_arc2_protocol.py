from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.play.rundir import read_records
from continual_arc.stream.users import user_tasks
from continual_arc.submit.check import check_submission
from continual_arc.tracks.registry import get_config

pytestmark = [pytest.mark.network, pytest.mark.slow]


def test_the_arc2_smoke_protocol_runs_offline_and_checks(
    arc2_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "p"
    args = ["protocol", "--config", "arc2-smoke", "--out", str(out), "--jobs", "2", "--resamples", "300"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "ProgramLibraryLearner on arc2-smoke, seed 0, 1 user(s)" in text
    document = read_json(out / "protocol.json")
    assert document["protocol"]["track"] == "arc2"
    stream = read_records(out / "stream")
    assert {r["task_id"] for r in stream} == set(user_tasks(get_config("arc2-smoke"), 0))
    # the smoke configuration's task seed is chosen so that the model-free library solves something
    assert any(r["solved"] for r in stream)
    assert any(r["solved"] and r["charge"] == 0 for r in stream)  # a kept program answered a return
    meta = read_json(out / "stream" / "meta.json")
    assert meta["versions"]["sources"]["stream"]["versions"]["arcgen_sha256"].startswith("168f29eb")
    submission = read_json(out / "submission.json")
    submission.update(student="none", code="continual_arc_baselines", contact="the test")
    atomic_write_json(out / "submission.json", submission)
    result = check_submission(out, resamples=200, allow_ablation=True)  # arc2-smoke: an ablation
    assert result.ok, result.problems
