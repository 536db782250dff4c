"""The trained learner's arc1-smoke protocol on CPU: deterministic, resumable after a kill, checked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc_baselines.serve import resolve_model

pytestmark = pytest.mark.slow


def records(play: Path) -> list[dict[str, Any]]:
    lines = (play / "records.jsonl").read_text().splitlines()
    varying = (*TIMING_FIELDS, "alias")  # the task aliases are salted afresh in every protocol directory
    return [{k: v for k, v in json.loads(line).items() if k not in varying} for line in lines]


def command(tiny_model: Path, out: Path) -> list[str]:
    kwargs = {"model": resolve_model(str(tiny_model)).name, "weights": str(tiny_model), "max_tokens": 16}
    return [
        sys.executable, "-m", "continual_arc.cli", "protocol", "--config", "arc1-smoke", "--jobs", "1",
        "--resamples", "300", "--no-plots", "-v", "--out", str(out),  # -v: the per-play lines read below
        "--learner", "continual_arc_baselines.trained:TrainedLearner",
        "--learner-kwargs", json.dumps({**kwargs, "max_calls": 2}),
    ]  # fmt: skip


def test_the_trained_protocol_is_deterministic_resumable_and_checked(
    tiny_model: Path, tmp_path: Path
) -> None:
    killed, straight = tmp_path / "killed", tmp_path / "straight"
    # its own session, so that the kill takes the whole process group, as a crash would
    proc = subprocess.Popen(
        command(tiny_model, killed), stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("[stream] round") and int(line.split()[2].split("/")[0]) >= 3:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert not (killed / "protocol.json").exists() and (killed / "stream" / "state").is_dir()
    for out in (killed, straight):
        done = subprocess.run(command(tiny_model, out), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
    plays = sorted(p.name for p in straight.iterdir() if (p / "records.jsonl").exists())
    # the stream and its reset, each test with its reset and its floor (floors play since issue 37)
    expected = {"stream", "stream-reset"} | {
        f"{t}{suffix}" for t in ("seen", "held-out") for suffix in ("", "-reset", "-floor")
    }
    assert set(plays) == expected
    for play in plays:  # every record equal, but for the time it took (and the training's seconds)
        assert records(killed / play) == records(straight / play), play
    states = [sorted((out / "stream" / "state").glob("round-*"))[-1] for out in (killed, straight)]
    for name in ("adapter.safetensors", "optimizer.pt"):
        assert (states[0] / name).read_bytes() == (states[1] / name).read_bytes()
    stream = [json.loads(line) for line in (straight / "stream" / "records.jsonl").read_text().splitlines()]
    trained = stream[-1]["training_resources"]
    # A round is trained when a step was taken on it: at the shipped max_train_tokens some rounds'
    # examples are all too long for the tiny model, and each such round says so (issue 38, item 8).
    rounds = 1 + max(r["round"] for r in stream)
    assert 0 < trained["rounds_trained"] <= rounds and trained["tokens_trained"] > 0
    assert trained["steps_trained"] == trained["examples_trained"]  # one example a step
    untrained = json.loads((straight / "stream" / "memory.json").read_text())["untrained_rounds"]
    assert 0 < len(untrained) <= rounds - trained["rounds_trained"]
    assert all(line.endswith("the round trained nothing") for line in untrained)
    report = subprocess.run(
        [sys.executable, "-m", "continual_arc.cli", "report", str(straight / "stream")],
        capture_output=True,
        text=True,
    )
    assert f"tokens_trained {trained['tokens_trained']:g}" in report.stdout
    submission = json.loads((straight / "submission.json").read_text())
    submission.update(
        student=resolve_model(str(tiny_model)).name, code="https://example.org/x@0", contact="x@y.z"
    )
    (straight / "submission.json").write_text(json.dumps(submission))
    check = [
        sys.executable,
        "-m",
        "continual_arc.cli",
        "check",
        str(straight),
        "--ablation",
        "--resamples",
        "300",
    ]
    checked = subprocess.run(check, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
