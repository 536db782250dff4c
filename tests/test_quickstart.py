"""The README's quickstart, command by command, on arc1-smoke with a trivial learner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from continual_arc.cli import main

LEARNER = "continual_arc.testing:RandomLearner"


def test_the_quickstart_flow_runs_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    make = ["schedule", "make", "--config", "arc1-smoke", "--seed", "0"]
    steps = [
        [*make, "--no-epilogue", "--out", "stream.json"],
        [*make, "--test", "held-out", "--out", "held-out.json"],
        [*make, "--test", "seen", "--out", "seen.json"],
        ["schedule", "show", "stream.json", "--head", "40"],
        ["run", "--learner", LEARNER, "--schedule", "stream.json", "--out", "runs/my-stream"],
        ["report", "runs/my-stream", "--plots"],
        [*make, "--no-epilogue", "--reset-each", "--out", "stream-reset.json"],
        ["run", "--learner", LEARNER, "--schedule", "stream-reset.json", "--out", "runs/my-stream-reset"],
        ["learned", "runs/my-stream", "runs/my-stream-reset", "--resamples", "200"],
        [*make, "--test", "held-out", "--width", "1", "--out", "held-out-1.json"],
        [*make, "--test", "seen", "--width", "1", "--out", "seen-1.json"],
        ["run", "--learner", LEARNER, "--schedule", "held-out-1.json", "--out", "runs/my-reset-held-out"],
        ["run", "--learner", LEARNER, "--schedule", "seen-1.json", "--out", "runs/my-reset-seen"],
    ]
    for argv in steps:
        assert main(argv) == 0, argv
    for test in ("held-out", "seen"):  # each test from the end of the stream, under the stream's names
        Path(f"runs/my-stream-{test}").mkdir()
        shutil.copy("runs/my-stream/alias-salt", f"runs/my-stream-{test}")
        args = ["run", "--learner", LEARNER, "--schedule", f"{test}.json", "--out", f"runs/my-stream-{test}"]
        assert main(args) == 0
    capsys.readouterr()
    assert (
        main(
            ["transfer", "runs/my-stream-held-out", "runs/my-reset-held-out", "--json", "--resamples", "200"]
        )
        == 0
    )
    held = json.loads(capsys.readouterr().out)
    assert held["instances"] == 4 and held["test"] == "held-out"
    seen_args = [
        "transfer",
        "--test",
        "seen",
        "runs/my-stream-seen",
        "runs/my-reset-seen",
        "--resamples",
        "200",
    ]
    assert main(seen_args) == 0
    assert "share saved" in capsys.readouterr().out
    assert (tmp_path / "runs" / "my-stream" / "plots" / "learning_curve.png").exists()
